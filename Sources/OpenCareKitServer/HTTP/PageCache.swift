import Foundation
import Hummingbird
import Synchronization

/// Rendered pages, kept until the store changes: a patient's pages are read far more often than the record is
/// written. Entries are keyed by the store's change count, so a change makes every older entry unreachable at once;
/// the user's own form post changes the count before its redirect is answered.
///
/// Pages are stored with a per-process placeholder in place of the CSRF token, and each response gets its reader's
/// token substituted in.
final class PageCache: Sendable {
    struct Key: Hashable, Sendable {
        let path: String
        let language: String
        let today: String
        let generation: Int
    }

    /// 64 random hex digits, unguessable, standing where each reader's token goes.
    let placeholder = CSRF.newToken()
    /// Each page as the UTF-8 pieces between placeholders.
    private let pages = Mutex<[Key: [[UInt8]]]>([:])
    private let capacity: Int

    init(capacity: Int = 128) {
        self.capacity = capacity
    }

    /// The page for `key` with `token` in its forms, rendering it (with the placeholder as token) if needed.
    func page(_ key: Key, token: String, render: (String) async throws -> String) async throws -> ByteBuffer {
        let pieces: [[UInt8]]
        if let cached = pages.withLock({ $0[key] }) {
            pieces = cached
        } else {
            pieces = Self.split(try await render(placeholder), at: placeholder)
            pages.withLock { pages in
                // Older generations can never be asked for again.
                pages = pages.filter { $0.key.generation >= key.generation }
                if pages.count >= capacity { pages.removeAll() }
                pages[key] = pieces
            }
        }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(pieces.reduce(0) { $0 + $1.count } + token.utf8.count * (pieces.count - 1))
        for (index, piece) in pieces.enumerated() {
            if index > 0 { buffer.writeString(token) }
            buffer.writeBytes(piece)
        }
        return buffer
    }

    /// The UTF-8 bytes of `text` between occurrences of `separator`.
    static func split(_ text: String, at separator: String) -> [[UInt8]] {
        let bytes = Array(text.utf8), marker = Array(separator.utf8)
        var pieces: [[UInt8]] = []
        var start = 0, index = 0
        while index + marker.count <= bytes.count {
            if bytes[index] == marker[0], Array(bytes[index..<index + marker.count]) == marker {
                pieces.append(Array(bytes[start..<index]))
                index += marker.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(Array(bytes[start...]))
        return pieces
    }
}
