import Foundation

/// A note attached to an entity: an author, a title and some content, all optional. Every versioned entity has `notes`;
/// they are stored and synchronized with the version that carries them.
///
/// For example:
/// ```swift
/// var outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
///                          values: [OCKOutcomeValue(true)])
/// outcome.notes = [OCKNote(author: "Jane", title: "Side effects", content: "Felt dizzy an hour after the dose.")]
/// try await store.addOutcome(outcome)
/// ```
public struct OCKNote: Codable, Hashable, Sendable {
    /// Who wrote the note.
    public var author: String?
    /// The note's title.
    public var title: String?
    /// The note's text.
    public var content: String?

    /// A note with the given author, title and text, each optional.
    public init(author: String?, title: String?, content: String?) {
        self.author = author
        self.title = title
        self.content = content
    }
}
