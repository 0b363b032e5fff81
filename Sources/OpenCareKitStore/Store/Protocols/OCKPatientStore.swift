import Foundation

// The patient part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads patients of any type.
public protocol OCKAnyReadOnlyPatientStore: OCKAnyResettableStore {
    /// A live query: the matching patients now, then again after each change that affects them.
    func anyPatients(matching query: OCKPatientQuery) -> CareStoreQueryResults<any OCKAnyPatient>
    /// The patients matching `query`.
    func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyPatient]>)
}

extension OCKAnyReadOnlyPatientStore {
    /// The patient with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchAnyPatient(withID id: String) async throws -> any OCKAnyPatient {
        guard let first = try await fetchAnyPatients(query: OCKPatientQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No patient with matching ID")
        }
        return first
    }
}

/// Reads and writes patients of any type.
public protocol OCKAnyPatientStore: OCKAnyReadOnlyPatientStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyPatients(_ patients: [any OCKAnyPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyPatient]>?)
    /// Appends new versions.
    @discardableResult
    func updateAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyPatients(_ patients: [any OCKAnyPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyPatient]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyPatients(_ patients: [any OCKAnyPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyPatient]>?)
}

extension OCKAnyPatientStore {
    @discardableResult
    public func addAnyPatient(_ value: any OCKAnyPatient) async throws -> any OCKAnyPatient {
        try await single(addAnyPatients([value]), "Failed to add patient", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateAnyPatient(_ value: any OCKAnyPatient) async throws -> any OCKAnyPatient {
        try await single(updateAnyPatients([value]), "Failed to update patient", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteAnyPatient(_ value: any OCKAnyPatient) async throws -> any OCKAnyPatient {
        try await single(deleteAnyPatients([value]), "Failed to delete patient", OCKStoreError.deleteFailed)
    }
}

/// Reads patients of one type.
public protocol OCKReadablePatientStore: OCKAnyReadOnlyPatientStore {
    associatedtype Patient: OCKAnyPatient & Equatable & Identifiable
    associatedtype Patients: AsyncSequence & Sendable where Patients.Element == [Patient]

    /// A live query: the matching patients now, then again after each change that affects them.
    func patients(matching query: OCKPatientQuery) -> Patients
    /// The patients matching `query`.
    func fetchPatients(query: OCKPatientQuery) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Patient]>)
}

extension OCKReadablePatientStore {
    /// The patient with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchPatient(withID id: String) async throws -> Patient {
        guard let first = try await fetchPatients(query: OCKPatientQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No patient with matching ID")
        }
        return first
    }

    public func anyPatients(matching query: OCKPatientQuery) -> CareStoreQueryResults<any OCKAnyPatient> {
        CareStoreQueryResults(wrapping: patients(matching: query).map { $0.map { $0 as any OCKAnyPatient } })
    }

    public func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient] {
        try await fetchPatients(query: query)
    }
}

/// Reads and writes patients of one type.
public protocol OCKPatientStore: OCKReadablePatientStore, OCKAnyPatientStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addPatients(_ patients: [Patient]) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addPatients(_ patients: [Patient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Patient]>?)
    /// Appends new versions.
    @discardableResult
    func updatePatients(_ patients: [Patient]) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updatePatients(_ patients: [Patient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Patient]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deletePatients(_ patients: [Patient]) async throws -> [Patient]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deletePatients(_ patients: [Patient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Patient]>?)
}

extension OCKPatientStore {
    @discardableResult
    public func addPatient(_ value: Patient) async throws -> Patient {
        try await single(addPatients([value]), "Failed to add patient", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updatePatient(_ value: Patient) async throws -> Patient {
        try await single(updatePatients([value]), "Failed to update patient", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deletePatient(_ value: Patient) async throws -> Patient {
        try await single(deletePatients([value]), "Failed to delete patient", OCKStoreError.deleteFailed)
    }

    public func addAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await addPatients(typed(values, "add", OCKStoreError.addFailed))
    }

    public func updateAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await updatePatients(typed(values, "update", OCKStoreError.updateFailed))
    }

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
