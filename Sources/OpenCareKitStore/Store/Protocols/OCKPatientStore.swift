import Foundation

// The patient part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads patients of any type.
public protocol OCKAnyReadOnlyPatientStore: OCKAnyResettableStore {
    /// A live query: the matching patients now, then again after each change that affects them.
    func anyPatients(matching query: OCKPatientQuery) -> CareStoreQueryResults<any OCKAnyPatient>
    /// The patients matching `query` (see ``OCKPatientQuery`` for what a date interval selects), in the query's order.
    func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyPatient]>)
}

extension OCKAnyReadOnlyPatientStore {
    /// The patient with `id`: the version in effect at the end of today, in the current calendar.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the patient is deleted.
    public func fetchAnyPatient(withID id: String) async throws -> any OCKAnyPatient {
        guard let first = try await fetchAnyPatients(query: OCKPatientQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No patient with matching ID")
        }
        return first
    }
}

/// Reads and writes patients of any type.
public protocol OCKAnyPatientStore: OCKAnyReadOnlyPatientStore {
    /// Adds each patient as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The patients as stored, with the dates the store set.
    @discardableResult
    func addAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyPatients(_ patients: [any OCKAnyPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyPatient]>?)
    /// Appends a new version after the newest version of each patient's id, in one transaction: all or none. Fails if
    /// an id does not exist or its patient was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyPatients(_ patients: [any OCKAnyPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyPatient]>?)
    /// Deletes each patient by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyPatients(_ patients: [any OCKAnyPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyPatient]>?)
}

extension OCKAnyPatientStore {
    /// Adds one patient, as `addAnyPatients(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addAnyPatients(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addAnyPatient(_ value: any OCKAnyPatient) async throws -> any OCKAnyPatient {
        try await single(addAnyPatients([value]), "Failed to add patient", OCKStoreError.addFailed)
    }

    /// Updates one patient, as `updateAnyPatients(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateAnyPatients(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateAnyPatient(_ value: any OCKAnyPatient) async throws -> any OCKAnyPatient {
        try await single(updateAnyPatients([value]), "Failed to update patient", OCKStoreError.updateFailed)
    }

    /// Deletes one patient, as `deleteAnyPatients(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteAnyPatients(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteAnyPatient(_ value: any OCKAnyPatient) async throws -> any OCKAnyPatient {
        try await single(deleteAnyPatients([value]), "Failed to delete patient", OCKStoreError.deleteFailed)
    }
}

/// Reads patients of one type.
public protocol OCKReadablePatientStore: OCKAnyReadOnlyPatientStore {
    /// The patient type the store keeps, such as ``OCKPatient``.
    associatedtype Patient: OCKAnyPatient & Equatable & Identifiable
    /// The sequence a live query returns: arrays of patients, the current result first.
    associatedtype Patients: AsyncSequence & Sendable where Patients.Element == [Patient]

    /// A live query: the matching patients now, then again after each change that affects them.
    func patients(matching query: OCKPatientQuery) -> Patients
    /// The patients matching `query` (see ``OCKPatientQuery`` for what a date interval selects), in the query's order.
    func fetchPatients(query: OCKPatientQuery) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Patient]>)
}

extension OCKReadablePatientStore {
    /// The patient with `id`: the version in effect at the end of today, in the current calendar.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the patient is deleted.
    public func fetchPatient(withID id: String) async throws -> Patient {
        guard let first = try await fetchPatients(query: OCKPatientQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No patient with matching ID")
        }
        return first
    }

    /// The type-erased form of `patients(matching:)`: the same live query, its patients as `any OCKAnyPatient`.
    public func anyPatients(matching query: OCKPatientQuery) -> CareStoreQueryResults<any OCKAnyPatient> {
        CareStoreQueryResults(wrapping: patients(matching: query).map { $0.map { $0 as any OCKAnyPatient } })
    }

    /// The type-erased form of `fetchPatients(query:)`.
    public func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient] {
        try await fetchPatients(query: query)
    }
}

/// Reads and writes patients of one type.
public protocol OCKPatientStore: OCKReadablePatientStore, OCKAnyPatientStore {
    /// Adds each patient as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The patients as stored, with the dates the store set.
    @discardableResult
    func addPatients(_ patients: [Patient]) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addPatients(_ patients: [Patient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Patient]>?)
    /// Appends a new version after the newest version of each patient's id, in one transaction: all or none. Fails if
    /// an id does not exist or its patient was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updatePatients(_ patients: [Patient]) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updatePatients(_ patients: [Patient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Patient]>?)
    /// Deletes each patient by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deletePatients(_ patients: [Patient]) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deletePatients(_ patients: [Patient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Patient]>?)
}

extension OCKPatientStore {
    /// Adds one patient, as `addPatients(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addPatients(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addPatient(_ value: Patient) async throws -> Patient {
        try await single(addPatients([value]), "Failed to add patient", OCKStoreError.addFailed)
    }

    /// Updates one patient, as `updatePatients(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updatePatients(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updatePatient(_ value: Patient) async throws -> Patient {
        try await single(updatePatients([value]), "Failed to update patient", OCKStoreError.updateFailed)
    }

    /// Deletes one patient, as `deletePatients(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deletePatients(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deletePatient(_ value: Patient) async throws -> Patient {
        try await single(deletePatients([value]), "Failed to delete patient", OCKStoreError.deleteFailed)
    }

    /// The type-erased form: adds `values` with `addPatients(_:)` if every one is a `Patient`.
    ///
    /// - Throws: `OCKStoreError.addFailed` if one is of another type, or what `addPatients(_:)` throws.
    public func addAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await addPatients(typed(values, "add", OCKStoreError.addFailed))
    }

    /// The type-erased form: updates `values` with `updatePatients(_:)` if every one is a `Patient`.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if one is of another type, or what `updatePatients(_:)` throws.
    public func updateAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await updatePatients(typed(values, "update", OCKStoreError.updateFailed))
    }

    /// The type-erased form: deletes `values` with `deletePatients(_:)` if every one is a `Patient`.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if one is of another type, or what `deletePatients(_:)` throws.
    public func deleteAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await deletePatients(typed(values, "delete", OCKStoreError.deleteFailed))
    }

    private func typed(_ values: [any OCKAnyPatient], _ verb: String, _ failure: (String) -> OCKStoreError) throws -> [Patient] {
        guard let typed = values as? [Patient] else {
            throw failure("Failed to \(verb) patients. Not all patients were of the correct type, \(Patient.self).")
        }
        return typed
    }
}
