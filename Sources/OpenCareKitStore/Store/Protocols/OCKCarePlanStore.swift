import Foundation

// The care plan part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads care plans of any type.
public protocol OCKAnyReadOnlyCarePlanStore: OCKAnyResettableStore {
    /// A live query: the matching care plans now, then again after each change that affects them.
    func anyCarePlans(matching query: OCKCarePlanQuery) -> CareStoreQueryResults<any OCKAnyCarePlan>
    /// The care plans matching `query` (see ``OCKCarePlanQuery`` for what a date interval selects), in the query's
    /// order.
    func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyCarePlan]>)
}

extension OCKAnyReadOnlyCarePlanStore {
    /// The care plan with `id`: the version in effect at the end of today, in the current calendar.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the care plan is deleted.
    public func fetchAnyCarePlan(withID id: String) async throws -> any OCKAnyCarePlan {
        guard let first = try await fetchAnyCarePlans(query: OCKCarePlanQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No care plan with matching ID")
        }
        return first
    }
}

/// Reads and writes care plans of any type.
public protocol OCKAnyCarePlanStore: OCKAnyReadOnlyCarePlanStore {
    /// Adds each care plan as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The care plans as stored, with the dates the store set.
    @discardableResult
    func addAnyCarePlans(_ carePlans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyCarePlans(_ carePlans: [any OCKAnyCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyCarePlan]>?)
    /// Appends a new version after the newest version of each care plan's id, in one transaction: all or none. Fails if
    /// an id does not exist or its care plan was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateAnyCarePlans(_ carePlans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyCarePlans(_ carePlans: [any OCKAnyCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyCarePlan]>?)
    /// Deletes each care plan by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteAnyCarePlans(_ carePlans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyCarePlans(_ carePlans: [any OCKAnyCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyCarePlan]>?)
}

extension OCKAnyCarePlanStore {
    /// Adds one care plan, as `addAnyCarePlans(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addAnyCarePlans(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addAnyCarePlan(_ value: any OCKAnyCarePlan) async throws -> any OCKAnyCarePlan {
        try await single(addAnyCarePlans([value]), "Failed to add care plan", OCKStoreError.addFailed)
    }

    /// Updates one care plan, as `updateAnyCarePlans(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateAnyCarePlans(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateAnyCarePlan(_ value: any OCKAnyCarePlan) async throws -> any OCKAnyCarePlan {
        try await single(updateAnyCarePlans([value]), "Failed to update care plan", OCKStoreError.updateFailed)
    }

    /// Deletes one care plan, as `deleteAnyCarePlans(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteAnyCarePlans(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteAnyCarePlan(_ value: any OCKAnyCarePlan) async throws -> any OCKAnyCarePlan {
        try await single(deleteAnyCarePlans([value]), "Failed to delete care plan", OCKStoreError.deleteFailed)
    }
}

/// Reads care plans of one type.
public protocol OCKReadableCarePlanStore: OCKAnyReadOnlyCarePlanStore {
    /// The care plan type the store keeps, such as ``OCKCarePlan``.
    associatedtype Plan: OCKAnyCarePlan & Equatable & Identifiable
    /// The sequence a live query returns: arrays of care plans, the current result first.
    associatedtype CarePlans: AsyncSequence & Sendable where CarePlans.Element == [Plan]

    /// A live query: the matching care plans now, then again after each change that affects them.
    func carePlans(matching query: OCKCarePlanQuery) -> CarePlans
    /// The care plans matching `query` (see ``OCKCarePlanQuery`` for what a date interval selects), in the query's
    /// order.
    func fetchCarePlans(query: OCKCarePlanQuery) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Plan]>)
}

extension OCKReadableCarePlanStore {
    /// The care plan with `id`: the version in effect at the end of today, in the current calendar.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the care plan is deleted.
    public func fetchCarePlan(withID id: String) async throws -> Plan {
        guard let first = try await fetchCarePlans(query: OCKCarePlanQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No care plan with matching ID")
        }
        return first
    }

    /// The type-erased form of `carePlans(matching:)`: the same live query, its care plans as `any OCKAnyCarePlan`.
    public func anyCarePlans(matching query: OCKCarePlanQuery) -> CareStoreQueryResults<any OCKAnyCarePlan> {
        CareStoreQueryResults(wrapping: carePlans(matching: query).map { $0.map { $0 as any OCKAnyCarePlan } })
    }

    /// The type-erased form of `fetchCarePlans(query:)`.
    public func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan] {
        try await fetchCarePlans(query: query)
    }
}

/// Reads and writes care plans of one type.
public protocol OCKCarePlanStore: OCKReadableCarePlanStore, OCKAnyCarePlanStore {
    /// Adds each care plan as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The care plans as stored, with the dates the store set.
    @discardableResult
    func addCarePlans(_ carePlans: [Plan]) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addCarePlans(_ carePlans: [Plan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Plan]>?)
    /// Appends a new version after the newest version of each care plan's id, in one transaction: all or none. Fails if
    /// an id does not exist or its care plan was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateCarePlans(_ carePlans: [Plan]) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateCarePlans(_ carePlans: [Plan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Plan]>?)
    /// Deletes each care plan by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteCarePlans(_ carePlans: [Plan]) async throws -> [Plan]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteCarePlans(_ carePlans: [Plan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Plan]>?)
}

extension OCKCarePlanStore {
    /// Adds one care plan, as `addCarePlans(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addCarePlans(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addCarePlan(_ value: Plan) async throws -> Plan {
        try await single(addCarePlans([value]), "Failed to add care plan", OCKStoreError.addFailed)
    }

    /// Updates one care plan, as `updateCarePlans(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateCarePlans(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateCarePlan(_ value: Plan) async throws -> Plan {
        try await single(updateCarePlans([value]), "Failed to update care plan", OCKStoreError.updateFailed)
    }

    /// Deletes one care plan, as `deleteCarePlans(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteCarePlans(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteCarePlan(_ value: Plan) async throws -> Plan {
        try await single(deleteCarePlans([value]), "Failed to delete care plan", OCKStoreError.deleteFailed)
    }

    /// The type-erased form: adds `values` with `addCarePlans(_:)` if every one is a `Plan`.
    ///
    /// - Throws: `OCKStoreError.addFailed` if one is of another type, or what `addCarePlans(_:)` throws.
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await addCarePlans(typed(values, "add", OCKStoreError.addFailed))
    }

    /// The type-erased form: updates `values` with `updateCarePlans(_:)` if every one is a `Plan`.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if one is of another type, or what `updateCarePlans(_:)` throws.
    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await updateCarePlans(typed(values, "update", OCKStoreError.updateFailed))
    }

    /// The type-erased form: deletes `values` with `deleteCarePlans(_:)` if every one is a `Plan`.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if one is of another type, or what `deleteCarePlans(_:)` throws.
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
