import Foundation

// The outcome part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads outcomes of any type.
public protocol OCKAnyReadOnlyOutcomeStore: OCKAnyResettableStore {
    /// A live query: the matching outcomes now, then again after each change that affects them.
    func anyOutcomes(matching query: OCKOutcomeQuery) -> CareStoreQueryResults<any OCKAnyOutcome>
    /// The outcomes matching `query`.
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
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyOutcomes(_ outcomes: [any OCKAnyOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyOutcome]>?)
    /// Appends new versions.
    @discardableResult
    func updateAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyOutcomes(_ outcomes: [any OCKAnyOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyOutcome]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyOutcomes(_ outcomes: [any OCKAnyOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyOutcome]>?)
}

extension OCKAnyOutcomeStore {
    @discardableResult
    public func addAnyOutcome(_ value: any OCKAnyOutcome) async throws -> any OCKAnyOutcome {
        try await single(addAnyOutcomes([value]), "Failed to add outcome", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateAnyOutcome(_ value: any OCKAnyOutcome) async throws -> any OCKAnyOutcome {
        try await single(updateAnyOutcomes([value]), "Failed to update outcome", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteAnyOutcome(_ value: any OCKAnyOutcome) async throws -> any OCKAnyOutcome {
        try await single(deleteAnyOutcomes([value]), "Failed to delete outcome", OCKStoreError.deleteFailed)
    }
}

/// Reads outcomes of one type.
public protocol OCKReadableOutcomeStore: OCKAnyReadOnlyOutcomeStore {
    associatedtype Outcome: OCKAnyOutcome & Equatable & Identifiable
    associatedtype Outcomes: AsyncSequence & Sendable where Outcomes.Element == [Outcome]

    /// A live query: the matching outcomes now, then again after each change that affects them.
    func outcomes(matching query: OCKOutcomeQuery) -> Outcomes
    /// The outcomes matching `query`.
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

    public func anyOutcomes(matching query: OCKOutcomeQuery) -> CareStoreQueryResults<any OCKAnyOutcome> {
        CareStoreQueryResults(wrapping: outcomes(matching: query).map { $0.map { $0 as any OCKAnyOutcome } })
    }

    public func fetchAnyOutcomes(query: OCKOutcomeQuery) async throws -> [any OCKAnyOutcome] {
        try await fetchOutcomes(query: query)
    }
}

/// Reads and writes outcomes of one type.
public protocol OCKOutcomeStore: OCKReadableOutcomeStore, OCKAnyOutcomeStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addOutcomes(_ outcomes: [Outcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Outcome]>?)
    /// Appends new versions.
    @discardableResult
    func updateOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateOutcomes(_ outcomes: [Outcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Outcome]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteOutcomes(_ outcomes: [Outcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Outcome]>?)
}

extension OCKOutcomeStore {
    @discardableResult
    public func addOutcome(_ value: Outcome) async throws -> Outcome {
        try await single(addOutcomes([value]), "Failed to add outcome", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateOutcome(_ value: Outcome) async throws -> Outcome {
        try await single(updateOutcomes([value]), "Failed to update outcome", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteOutcome(_ value: Outcome) async throws -> Outcome {
        try await single(deleteOutcomes([value]), "Failed to delete outcome", OCKStoreError.deleteFailed)
    }

    public func addAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await addOutcomes(typed(values, "add", OCKStoreError.addFailed))
    }

    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await updateOutcomes(typed(values, "update", OCKStoreError.updateFailed))
    }

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
