import Foundation

// The care plan part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads care plans of any type.
public protocol OCKAnyReadOnlyCarePlanStore: OCKAnyResettableStore {
    /// A live query: the matching care plans now, then again after each change that affects them.
    func anyCarePlans(matching query: OCKCarePlanQuery) -> CareStoreQueryResults<any OCKAnyCarePlan>
    /// The care plans matching `query`.
    func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyCarePlan]>)
}

extension OCKAnyReadOnlyCarePlanStore {
    /// The care plan with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchAnyCarePlan(withID id: String) async throws -> any OCKAnyCarePlan {
        guard let first = try await fetchAnyCarePlans(query: OCKCarePlanQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No care plan with matching ID")
        }
        return first
    }
}

/// Reads and writes care plans of any type.
public protocol OCKAnyCarePlanStore: OCKAnyReadOnlyCarePlanStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addAnyCarePlans(_ carePlans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyCarePlans(_ carePlans: [any OCKAnyCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyCarePlan]>?)
    /// Appends new versions.
    @discardableResult
    func updateAnyCarePlans(_ carePlans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyCarePlans(_ carePlans: [any OCKAnyCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyCarePlan]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteAnyCarePlans(_ carePlans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyCarePlans(_ carePlans: [any OCKAnyCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyCarePlan]>?)
}

extension OCKAnyCarePlanStore {
    @discardableResult
    public func addAnyCarePlan(_ value: any OCKAnyCarePlan) async throws -> any OCKAnyCarePlan {
        try await single(addAnyCarePlans([value]), "Failed to add care plan", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateAnyCarePlan(_ value: any OCKAnyCarePlan) async throws -> any OCKAnyCarePlan {
        try await single(updateAnyCarePlans([value]), "Failed to update care plan", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteAnyCarePlan(_ value: any OCKAnyCarePlan) async throws -> any OCKAnyCarePlan {
        try await single(deleteAnyCarePlans([value]), "Failed to delete care plan", OCKStoreError.deleteFailed)
    }
}

/// Reads care plans of one type.
public protocol OCKReadableCarePlanStore: OCKAnyReadOnlyCarePlanStore {
    associatedtype Plan: OCKAnyCarePlan & Equatable & Identifiable
    associatedtype CarePlans: AsyncSequence & Sendable where CarePlans.Element == [Plan]

    /// A live query: the matching care plans now, then again after each change that affects them.
    func carePlans(matching query: OCKCarePlanQuery) -> CarePlans
    /// The care plans matching `query`.
    func fetchCarePlans(query: OCKCarePlanQuery) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Plan]>)
}

extension OCKReadableCarePlanStore {
    /// The care plan with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchCarePlan(withID id: String) async throws -> Plan {
        guard let first = try await fetchCarePlans(query: OCKCarePlanQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No care plan with matching ID")
        }
        return first
    }

    public func anyCarePlans(matching query: OCKCarePlanQuery) -> CareStoreQueryResults<any OCKAnyCarePlan> {
        CareStoreQueryResults(wrapping: carePlans(matching: query).map { $0.map { $0 as any OCKAnyCarePlan } })
    }

    public func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan] {
        try await fetchCarePlans(query: query)
    }
}

/// Reads and writes care plans of one type.
public protocol OCKCarePlanStore: OCKReadableCarePlanStore, OCKAnyCarePlanStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addCarePlans(_ carePlans: [Plan]) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addCarePlans(_ carePlans: [Plan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Plan]>?)
    /// Appends new versions.
    @discardableResult
    func updateCarePlans(_ carePlans: [Plan]) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateCarePlans(_ carePlans: [Plan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Plan]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteCarePlans(_ carePlans: [Plan]) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteCarePlans(_ carePlans: [Plan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Plan]>?)
}

extension OCKCarePlanStore {
    @discardableResult
    public func addCarePlan(_ value: Plan) async throws -> Plan {
        try await single(addCarePlans([value]), "Failed to add care plan", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateCarePlan(_ value: Plan) async throws -> Plan {
        try await single(updateCarePlans([value]), "Failed to update care plan", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteCarePlan(_ value: Plan) async throws -> Plan {
        try await single(deleteCarePlans([value]), "Failed to delete care plan", OCKStoreError.deleteFailed)
    }

    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await addCarePlans(typed(values, "add", OCKStoreError.addFailed))
    }

    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await updateCarePlans(typed(values, "update", OCKStoreError.updateFailed))
    }

    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await deleteCarePlans(typed(values, "delete", OCKStoreError.deleteFailed))
    }

    private func typed(_ values: [any OCKAnyCarePlan], _ verb: String, _ failure: (String) -> OCKStoreError) throws -> [Plan] {
        guard let typed = values as? [Plan] else {
            throw failure("Failed to \(verb) care plans. Not all care plans were of the correct type, \(Plan.self).")
        }
        return typed
    }
}
