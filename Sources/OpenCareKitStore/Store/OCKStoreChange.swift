/// One kind of change a write makes: what kind of entity, and whether it is added, updated or deleted. A write's
/// permission follows from its changes, whoever writes: a sync merge reports the changes it makes (`mergeRevisions(_:
/// deviceKnowledge:authorizing:)`) in the terms an API call's would have.
public struct OCKStoreChange: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case patient, carePlan, contact, task, healthKitTask, outcome
    }

    public enum Action: String, Hashable, Sendable, CaseIterable {
        /// A new id, or one added again after it was deleted.
        case add
        /// A new version of an id that stays (or a deleted one's new version that stays deleted).
        case update
        /// A tombstone for an id that was not deleted.
        case delete
    }

    public var kind: Kind
    public var action: Action

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
