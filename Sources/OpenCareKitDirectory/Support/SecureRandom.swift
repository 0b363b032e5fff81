#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes from the operating system's cryptographically secure generator, all of them in one call (the standard
/// library's `SystemRandomNumberGenerator` makes a system call for every 8 bytes, and a token drawn a byte at a time
/// made 32: 6% of a Care page's time).
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// `count` characters, each drawn uniformly from `alphabet` (2 to 256 of them): a byte that would favour the
    /// alphabet's first characters is drawn again.
    package static func characters(from alphabet: [Character], count: Int) -> String {
        precondition((2...256).contains(alphabet.count), "an alphabet of 2 to 256 characters")
        let limit = 256 - 256 % alphabet.count
        var characters: [Character] = []
        characters.reserveCapacity(count)
        while characters.count < count {
            for byte in bytes(count - characters.count + 8) where Int(byte) < limit && characters.count < count {
                characters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(characters)
    }

    #if !canImport(Darwin)
    /// The kernel's generator, open for the life of the process (Glibc's module does not offer `getrandom`); -1
    /// where it cannot be opened.
    private static let urandom = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    #endif

    private static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var filled = 0
        #if canImport(Darwin)
        if let base = buffer.baseAddress { arc4random_buf(base, buffer.count) }
        filled = buffer.count
        #else
        while urandom >= 0, filled < buffer.count {
            let got = read(urandom, buffer.baseAddress! + filled, buffer.count - filled)
            if got > 0 {
                filled += got
            } else if got == 0 || errno != EINTR {
                break
            }
        }
        #endif
        // Where the system call is refused, the standard library's generator (which stops the process rather than
        // give bytes that are not random).
        var generator = SystemRandomNumberGenerator()
        while filled < buffer.count {
            buffer[filled] = UInt8.random(in: .min ... .max, using: &generator)
            filled += 1
        }
    }
}
