import Foundation

// The outcome part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads outcomes of any type.
public protocol OCKAnyReadOnlyOutcomeStore: OCKAnyResettableStore {
    /// A live query: the matching outcomes now, then again after each change that affects them.
    func anyOutcomes(matching query: OCKOutcomeQuery) -> CareStoreQueryResults<any OCKAnyOutcome>
    /// The outcomes matching `query` (see ``OCKOutcomeQuery`` for what a date interval selects), in the query's order.
    func fetchAnyOutcomes(query: OCKOutcomeQuery) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyOutcome]>)
}

extension OCKAnyReadOnlyOutcomeStore {
    /// The first outcome matching `query`.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchAnyOutcome(query: OCKOutcomeQuery) async throws -> any OCKAnyOutcome {
        guard let first = try await fetchAnyOutcomes(query: query).first else {
            throw OCKStoreError.fetchFailed(reason: "No matching outcome found")
        }
        return first
    }
}

/// Reads and writes outcomes of any type.
public protocol OCKAnyOutcomeStore: OCKAnyReadOnlyOutcomeStore {
    /// Adds each outcome as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The outcomes as stored, with the dates the store set.
    @discardableResult
    func addAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyOutcomes(_ outcomes: [any OCKAnyOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyOutcome]>?)
    /// Appends a new version after the newest version of each outcome's id, in one transaction: all or none. Fails if
    /// an id does not exist or its outcome was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyOutcomes(_ outcomes: [any OCKAnyOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyOutcome]>?)
    /// Deletes each outcome by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyOutcomes(_ outcomes: [any OCKAnyOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyOutcome]>?)
}

extension OCKAnyOutcomeStore {
    /// Adds one outcome, as `addAnyOutcomes(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addAnyOutcomes(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addAnyOutcome(_ value: any OCKAnyOutcome) async throws -> any OCKAnyOutcome {
        try await single(addAnyOutcomes([value]), "Failed to add outcome", OCKStoreError.addFailed)
    }

    /// Updates one outcome, as `updateAnyOutcomes(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateAnyOutcomes(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateAnyOutcome(_ value: any OCKAnyOutcome) async throws -> any OCKAnyOutcome {
        try await single(updateAnyOutcomes([value]), "Failed to update outcome", OCKStoreError.updateFailed)
    }

    /// Deletes one outcome, as `deleteAnyOutcomes(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteAnyOutcomes(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteAnyOutcome(_ value: any OCKAnyOutcome) async throws -> any OCKAnyOutcome {
        try await single(deleteAnyOutcomes([value]), "Failed to delete outcome", OCKStoreError.deleteFailed)
    }
}

/// Reads outcomes of one type.
public protocol OCKReadableOutcomeStore: OCKAnyReadOnlyOutcomeStore {
    /// The outcome type the store keeps, such as ``OCKOutcome``.
    associatedtype Outcome: OCKAnyOutcome & Equatable & Identifiable
    /// The sequence a live query returns: arrays of outcomes, the current result first.
    associatedtype Outcomes: AsyncSequence & Sendable where Outcomes.Element == [Outcome]

    /// A live query: the matching outcomes now, then again after each change that affects them.
    func outcomes(matching query: OCKOutcomeQuery) -> Outcomes
    /// The outcomes matching `query` (see ``OCKOutcomeQuery`` for what a date interval selects), in the query's order.
    func fetchOutcomes(query: OCKOutcomeQuery) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Outcome]>)
}

extension OCKReadableOutcomeStore {
    /// The first outcome matching `query`.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchOutcome(query: OCKOutcomeQuery) async throws -> Outcome {
        guard let first = try await fetchOutcomes(query: query).first else {
            throw OCKStoreError.fetchFailed(reason: "No matching outcome found")
        }
        return first
    }

    /// The type-erased form of `outcomes(matching:)`: the same live query, its outcomes as `any OCKAnyOutcome`.
    public func anyOutcomes(matching query: OCKOutcomeQuery) -> CareStoreQueryResults<any OCKAnyOutcome> {
        CareStoreQueryResults(wrapping: outcomes(matching: query).map { $0.map { $0 as any OCKAnyOutcome } })
    }

    /// The type-erased form of `fetchOutcomes(query:)`.
    public func fetchAnyOutcomes(query: OCKOutcomeQuery) async throws -> [any OCKAnyOutcome] {
        try await fetchOutcomes(query: query)
    }
}

/// Reads and writes outcomes of one type.
public protocol OCKOutcomeStore: OCKReadableOutcomeStore, OCKAnyOutcomeStore {
    /// Adds each outcome as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The outcomes as stored, with the dates the store set.
    @discardableResult
    func addOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addOutcomes(_ outcomes: [Outcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Outcome]>?)
    /// Appends a new version after the newest version of each outcome's id, in one transaction: all or none. Fails if
    /// an id does not exist or its outcome was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateOutcomes(_ outcomes: [Outcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Outcome]>?)
    /// Deletes each outcome by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteOutcomes(_ outcomes: [Outcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Outcome]>?)
}

extension OCKOutcomeStore {
    /// Adds one outcome, as `addOutcomes(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addOutcomes(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addOutcome(_ value: Outcome) async throws -> Outcome {
        try await single(addOutcomes([value]), "Failed to add outcome", OCKStoreError.addFailed)
    }

    /// Updates one outcome, as `updateOutcomes(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateOutcomes(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateOutcome(_ value: Outcome) async throws -> Outcome {
        try await single(updateOutcomes([value]), "Failed to update outcome", OCKStoreError.updateFailed)
    }

    /// Deletes one outcome, as `deleteOutcomes(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteOutcomes(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteOutcome(_ value: Outcome) async throws -> Outcome {
        try await single(deleteOutcomes([value]), "Failed to delete outcome", OCKStoreError.deleteFailed)
    }

    /// The type-erased form: adds `values` with `addOutcomes(_:)` if every one is a `Outcome`.
    ///
    /// - Throws: `OCKStoreError.addFailed` if one is of another type, or what `addOutcomes(_:)` throws.
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await addOutcomes(typed(values, "add", OCKStoreError.addFailed))
    }

    /// The type-erased form: updates `values` with `updateOutcomes(_:)` if every one is a `Outcome`.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if one is of another type, or what `updateOutcomes(_:)` throws.
    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await updateOutcomes(typed(values, "update", OCKStoreError.updateFailed))
    }

    /// The type-erased form: deletes `values` with `deleteOutcomes(_:)` if every one is a `Outcome`.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if one is of another type, or what `deleteOutcomes(_:)` throws.
    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await deleteOutcomes(typed(values, "delete", OCKStoreError.deleteFailed))
    }

    private func typed(_ values: [any OCKAnyOutcome], _ verb: String, _ failure: (String) -> OCKStoreError) throws -> [Outcome] {
        guard let typed = values as? [Outcome] else {
            throw failure("Failed to \(verb) outcomes. Not all outcomes were of the correct type, \(Outcome.self).")
        }
        return typed
    }
}
