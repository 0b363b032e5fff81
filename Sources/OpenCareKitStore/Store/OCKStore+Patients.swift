import Foundation

extension OCKStore {
    /// CareKit's reason for refusing a second patient.
    static let onePatientPerStore = "OCKStore only supports one patient per store. If you would like to have more than one patient, "
        + "create a new store for that patient."
}

extension OCKStore: OCKPatientStore {
    /// The store's patient type: ``OCKPatient``.
    public typealias Patient = OCKPatient

    public func patients(matching query: OCKPatientQuery) -> some AsyncSequence<[OCKPatient], any Error> & Sendable {
        liveQuery(.patients) { try await self.fetchPatients(query: query) }
    }

    public func fetchPatients(query: OCKPatientQuery) async throws -> [OCKPatient] {
        try await fetchVersions(OCKPatient.self) { dialect in
            var sql = QuerySQL(query, dialect)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .groupIdentifier(ascending): ("group_identifier", ascending)
                case let .givenName(ascending): ("given_name", ascending)
                case let .familyName(ascending): ("family_name", ascending)
                case let .effectiveDate(ascending): ("effective_date", ascending)
                }
            }
            return sql
        }
    }

    /// Adds the patient. A store holds one patient (CareKit's rule): adding fails if any patient was ever added.
    @discardableResult
    public func addPatients(_ patients: [OCKPatient]) async throws -> [OCKPatient] {
        try await addVersions(patients, .patients) { db in
            let existing = try await db.scalar("SELECT count(*) FROM patients").int ?? 0
            guard existing + patients.count <= 1 else { throw OCKStoreError.addFailed(reason: OCKStore.onePatientPerStore) }
        }
    }

    @discardableResult
    public func updatePatients(_ patients: [OCKPatient]) async throws -> [OCKPatient] {
        try await updateVersions(patients, .patients)
    }

    @discardableResult
    public func deletePatients(_ patients: [OCKPatient]) async throws -> [OCKPatient] {
        try await deleteVersions(patients, .patients)
    }
}

extension OCKStore: OCKCarePlanStore {
    /// The store's care plan type: ``OCKCarePlan``.
    public typealias Plan = OCKCarePlan

    public func carePlans(matching query: OCKCarePlanQuery) -> some AsyncSequence<[OCKCarePlan], any Error> & Sendable {
        liveQuery(.carePlans) { try await self.fetchCarePlans(query: query) }
    }

    public func fetchCarePlans(query: OCKCarePlanQuery) async throws -> [OCKCarePlan] {
        try await fetchVersions(OCKCarePlan.self) { dialect in
            var sql = QuerySQL(query, dialect)
            sql.matchRelated("patient_uuid", table: "patients", ids: query.patientIDs, uuids: query.patientUUIDs,
                             remoteIDs: query.patientRemoteIDs)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .title(ascending): ("title", ascending)
                case let .effectiveDate(ascending): ("effective_date", ascending)
                }
            }
            return sql
        }
    }

    @discardableResult
    public func addCarePlans(_ plans: [OCKCarePlan]) async throws -> [OCKCarePlan] {
        try await addVersions(plans, .carePlans)
    }

    @discardableResult
    public func updateCarePlans(_ plans: [OCKCarePlan]) async throws -> [OCKCarePlan] {
        try await updateCarePlans(plans, onlyIfNewest: false)
    }

    /// Appends new care plan versions; with `onlyIfNewest`, only if each plan's newest version is still the one it
    /// was read as (see `updateTasks(_:onlyIfNewest:)`).
    @discardableResult
    public func updateCarePlans(_ plans: [OCKCarePlan], onlyIfNewest: Bool) async throws -> [OCKCarePlan] {
        try await updateVersions(plans, .carePlans) { _, current, proposed in
            try Self.checkNewest(onlyIfNewest, current: current, proposed: proposed)
        }
    }

    @discardableResult
    public func deleteCarePlans(_ plans: [OCKCarePlan]) async throws -> [OCKCarePlan] {
        try await deleteVersions(plans, .carePlans)
    }
}

extension OCKStore: OCKContactStore {
    /// The store's contact type: ``OCKContact``.
    public typealias Contact = OCKContact

    public func contacts(matching query: OCKContactQuery) -> some AsyncSequence<[OCKContact], any Error> & Sendable {
        liveQuery(.contacts) { try await self.fetchContacts(query: query) }
    }

    public func fetchContacts(query: OCKContactQuery) async throws -> [OCKContact] {
        try await fetchVersions(OCKContact.self) { dialect in
            var sql = QuerySQL(query, dialect)
            sql.matchRelated("care_plan_uuid", table: "care_plans", ids: query.carePlanIDs, uuids: query.carePlanUUIDs,
                             remoteIDs: query.carePlanRemoteIDs)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .givenName(ascending): ("given_name", ascending)
                case let .familyName(ascending): ("family_name", ascending)
                case let .effectiveDate(ascending): ("effective_date", ascending)
                }
            }
            return sql
        }
    }

    /// Adds contacts. An id that was deleted can be used again: the new contact starts after the tombstone
    /// (CareKit refuses; issue #379).
    @discardableResult
    public func addContacts(_ contacts: [OCKContact]) async throws -> [OCKContact] {
        try await addVersions(contacts, .contacts, reusingDeletedIDs: true)
    }

    @discardableResult
    public func updateContacts(_ contacts: [OCKContact]) async throws -> [OCKContact] {
        try await updateContacts(contacts, onlyIfNewest: false)
    }

    /// Appends new contact versions; with `onlyIfNewest`, only if each contact's newest version is still the one it
    /// was read as (see `updateTasks(_:onlyIfNewest:)`).
    @discardableResult
    public func updateContacts(_ contacts: [OCKContact], onlyIfNewest: Bool) async throws -> [OCKContact] {
        try await updateVersions(contacts, .contacts) { _, current, proposed in
            try Self.checkNewest(onlyIfNewest, current: current, proposed: proposed)
        }
    }

    @discardableResult
    public func deleteContacts(_ contacts: [OCKContact]) async throws -> [OCKContact] {
        try await deleteVersions(contacts, .contacts)
    }
}
