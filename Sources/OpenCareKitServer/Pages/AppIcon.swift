import Foundation

/// The app's icon as PNG at the sizes an installed web app needs: a white heart on the app's blue, as a rounded square
/// (`any`: shown as it is) or full-bleed with the heart inside the central circle that every mask keeps (`maskable`:
/// the launcher crops it to its own shape). Drawn here, anti-aliased, so that no binary file or image library is
/// needed; each is made once, on first use.
enum AppIcon {
    enum Purpose: String, Sendable {
        case any, maskable
    }

    /// The sizes the manifest lists.
    static let sizes = [192, 512]

    /// The app's blue, and the heart's white (RGBA).
    static let blue: (UInt8, UInt8, UInt8) = (0x00, 0x62, 0xCC)

    /// The address of an icon: `/assets/icon-192.png`, `/assets/icon-maskable-512.png`.
    static func path(size: Int, purpose: Purpose) -> String {
        purpose == .any ? "/assets/icon-\(size).png" : "/assets/icon-maskable-\(size).png"
    }

    /// Every icon, by its address.
    static let all: [String: Data] = {
        var icons: [String: Data] = [:]
        for size in sizes {
            for purpose in [Purpose.any, .maskable] {
                icons[path(size: size, purpose: purpose)] = PNGEncoder.encode(width: size, height: size, rgba: pixels(size: size, purpose: purpose))
            }
        }
        return icons
    }()

    /// The icon's pixels, RGBA, row by row. Each pixel is the share of 4 × 4 samples inside each shape.
    static func pixels(size: Int, purpose: Purpose) -> [UInt8] {
        let n = Double(size)
        // The heart's box: the rounded square's heart fills 60% of the icon; the maskable one's fits in the central
        // circle of 80% (the safe zone), so 50%.
        let heartWidth = purpose == .any ? 0.6 * n : 0.5 * n
        let corner = 0.22 * n
        func inSquare(_ x: Double, _ y: Double) -> Bool {
            guard purpose == .any else { return true }
            // A rounded square: the distance to the inner rectangle at most the corner radius.
            let dx = max(0, abs(x - n / 2) - (n / 2 - corner)), dy = max(0, abs(y - n / 2) - (n / 2 - corner))
            return dx * dx + dy * dy <= corner * corner
        }
        func inHeart(_ x: Double, _ y: Double) -> Bool {
            // The heart curve (x² + y² − 1)³ − x²y³ ≤ 0, spanning about −1.14…1.14 across and −1…1.25 up, centred.
            let scale = heartWidth / 2.28
            let u = (x - n / 2) / scale, v = -(y - n / 2) / scale + 0.1
            let a = u * u + v * v - 1
            return a * a * a - u * u * v * v * v <= 0
        }
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        let samples = 4
        for row in 0..<size {
            for column in 0..<size {
                var background = 0, heart = 0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let x = Double(column) + (Double(sx) + 0.5) / Double(samples)
                        let y = Double(row) + (Double(sy) + 0.5) / Double(samples)
                        if inSquare(x, y) {
                            background += 1
                            if inHeart(x, y) { heart += 1 }
                        }
                    }
                }
                let total = Double(samples * samples)
                let alpha = Double(background) / total, white = background == 0 ? 0 : Double(heart) / Double(background)
                func mix(_ channel: UInt8) -> UInt8 { UInt8((Double(channel) * (1 - white) + 255 * white).rounded()) }
                let offset = (row * size + column) * 4
                pixels[offset] = mix(blue.0)
                pixels[offset + 1] = mix(blue.1)
                pixels[offset + 2] = mix(blue.2)
                pixels[offset + 3] = UInt8((alpha * 255).rounded())
            }
        }
        return pixels
    }
}

/// A PNG encoder for 8-bit RGBA images: each row unfiltered, compressed with DEFLATE's fixed Huffman codes and
/// greedy LZ77 matching (enough for an icon's runs of one colour: the 512 px icon is a few kilobytes).
enum PNGEncoder {
    static func encode(width: Int, height: Int, rgba: [UInt8]) -> Data {
        precondition(rgba.count == width * height * 4, "an RGBA image has four bytes a pixel")
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * 4 + 1))
        for row in 0..<height {
            raw.append(0)
            raw.append(contentsOf: rgba[(row * width * 4)..<((row + 1) * width * 4)])
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = [UInt8]()
        header.append(contentsOf: bigEndian(UInt32(width)))
        header.append(contentsOf: bigEndian(UInt32(height)))
        header.append(contentsOf: [8, 6, 0, 0, 0])
        chunk("IHDR", header, into: &png)
        chunk("IDAT", zlib(raw), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8], into png: inout Data) {
        let typed = Array(type.utf8) + data
        png.append(contentsOf: bigEndian(UInt32(data.count)))
        png.append(contentsOf: typed)
        png.append(contentsOf: bigEndian(crc32(typed)))
    }

    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// A zlib stream of `bytes`: the header, one DEFLATE block with the fixed codes, the Adler-32.
    static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0x78, count: 8)
        bits.write(0x01, count: 8)
        bits.write(1, count: 1) // the last block
        bits.write(1, count: 2) // fixed Huffman codes
        var hashes = [Int](repeating: -1, count: 1 << 15)
        func hash(_ index: Int) -> Int {
            (Int(bytes[index]) << 10 ^ Int(bytes[index + 1]) << 5 ^ Int(bytes[index + 2])) & 0x7FFF
        }
        var index = 0
        while index < bytes.count {
            var length = 0, distance = 0
            if index + 2 < bytes.count {
                let key = hash(index)
                let candidate = hashes[key]
                hashes[key] = index
                // Also the byte run four back (one RGBA pixel), which the hash often misses in a run of one colour.
                for start in [candidate, index - 4] where start >= 0 && start < index && index - start <= 32_768 {
                    var matched = 0
                    while matched < 258, index + matched < bytes.count, bytes[start + matched] == bytes[index + matched] { matched += 1 }
                    if matched >= 3, matched > length { (length, distance) = (matched, index - start) }
                }
            }
            if length >= 3 {
                bits.writeLength(length)
                bits.writeDistance(distance)
                // Keep the hash of the positions inside the match, for later matches.
                var position = index + 1
                while position < index + length, position + 2 < bytes.count {
                    hashes[hash(position)] = position
                    position += 1
                }
                index += length
            } else {
                bits.writeLiteral(Int(bytes[index]))
                index += 1
            }
        }
        bits.writeLiteral(256)
        var stream = bits.finish()
        stream.append(contentsOf: bigEndian(adler32(bytes)))
        return stream
    }

    /// DEFLATE's bits: values least significant bit first, Huffman codes most significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var used = 0

        mutating func write(_ value: Int, count: Int) {
            for bit in 0..<count {
                current |= UInt32((value >> bit) & 1) << used
                used += 1
                if used == 8 {
                    bytes.append(UInt8(current))
                    (current, used) = (0, 0)
                }
            }
        }

        mutating func writeCode(_ code: Int, count: Int) {
            for bit in stride(from: count - 1, through: 0, by: -1) { write((code >> bit) & 1, count: 1) }
        }

        mutating func writeLiteral(_ value: Int) {
            switch value {
            case 0...143: writeCode(0x30 + value, count: 8)
            case 144...255: writeCode(0x190 + value - 144, count: 9)
            case 256...279: writeCode(value - 256, count: 7)
            default: writeCode(0xC0 + value - 280, count: 8)
            }
        }

        static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                    4097, 6145, 8193, 12289, 16385, 24577]
        static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

        mutating func writeLength(_ length: Int) {
            let code = Self.lengthBases.lastIndex { $0 <= length }!
            writeLiteral(257 + code)
            write(length - Self.lengthBases[code], count: Self.lengthExtra[code])
        }

        mutating func writeDistance(_ distance: Int) {
            let code = Self.distanceBases.lastIndex { $0 <= distance }!
            writeCode(code, count: 5)
            write(distance - Self.distanceBases[code], count: Self.distanceExtra[code])
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current)) }
            (current, used) = (0, 0)
            return bytes
        }
    }
}
