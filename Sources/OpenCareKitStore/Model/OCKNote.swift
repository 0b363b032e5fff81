import Foundation

/// A note attached to an entity: an author, a title and some content, all optional.
public struct OCKNote: Codable, Hashable, Sendable {
    /// Who wrote the note.
    public var author: String?
    /// The note's title.
    public var title: String?
    /// The note's text.
    public var content: String?

    public init(author: String?, title: String?, content: String?) {
        self.author = author
        self.title = title
        self.content = content
    }
}
