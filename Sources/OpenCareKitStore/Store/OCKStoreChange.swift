/// One kind of change a write makes: what kind of entity, and whether it is added, updated or deleted. A write's
/// permission follows from its changes, whoever writes: a sync merge reports the changes it makes (`mergeRevisions(_:
/// deviceKnowledge:authorizing:)`) in the terms an API call's would have.
public struct OCKStoreChange: Hashable, Sendable, CustomStringConvertible {
    /// The kind of entity a change is to.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// One case per kind of entity, as ``OCKEntity`` has them.
        case patient, carePlan, contact, task, healthKitTask, outcome
    }

    /// What a change does to an id.
    public enum Action: String, Hashable, Sendable, CaseIterable {
        /// A new id, or one added again after it was deleted.
        case add
        /// A new version of an id that stays (or a deleted one's new version that stays deleted).
        case update
        /// A tombstone for an id that was not deleted.
        case delete
    }

    /// The kind of entity changed.
    public var kind: Kind
    /// Whether it is added, updated or deleted.
    public var action: Action

    /// The change `action` to an entity of kind `kind`, such as `OCKStoreChange(.outcome, .add)`.
    public init(_ kind: Kind, _ action: Action) {
        self.kind = kind
        self.action = action
    }

    public var description: String { "\(action.rawValue) \(kind.rawValue)" }
}

/// An error a caller's authorization check threw inside a write transaction, carried out of it unchanged.
struct AuthorizationRefusal: Error {
    let error: any Error
}
