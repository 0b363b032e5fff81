import Foundation

extension UUID {
    /// A new version 7 UUID (RFC 9562): the Unix time in milliseconds (48 bits), the millisecond's fraction (12 bits,
    /// about a quarter of a microsecond), then 62 random bits.
    ///
    /// Entities and versions made here get these rather than random (version 4) UUIDs. They are as unique, but the
    /// ones made later sort later, so the store's indexes on `uuid` and `id` grow at their ends: a batch of outcomes
    /// touches a few index pages instead of one page per outcome spread over the whole index, which cost most of an
    /// insert once an index outgrew the cache (`scripts/bench-store`). UUIDs from elsewhere (a CareKit device, a JSON
    /// client) are kept as they come.
    package static func timeOrdered(at date: Date = Date()) -> UUID {
        let nanoseconds = UInt64(min(max(0, date.timeIntervalSince1970), 1e10) * 1e9)
        let milliseconds = nanoseconds / 1_000_000
        let fraction = (nanoseconds % 1_000_000) * 4_096 / 1_000_000
        var generator = SystemRandomNumberGenerator()
        let random: UInt64 = generator.next()
        let high = (milliseconds & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | fraction
        let low = 0x8000_0000_0000_0000 | random >> 2
        var bytes = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: &bytes) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}
