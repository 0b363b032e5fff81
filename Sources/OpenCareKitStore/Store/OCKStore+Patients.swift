import Foundation
import GRDB

extension OCKStore: OCKPatientStore {
    public typealias Patient = OCKPatient

    public func patients(matching query: OCKPatientQuery) -> some AsyncSequence<[OCKPatient], any Error> & Sendable {
        liveQuery(.patients) { try await self.fetchPatients(query: query) }
    }

    public func fetchPatients(query: OCKPatientQuery) async throws -> [OCKPatient] {
        let cache = self.cache
        return try await read { db in
            var sql = QuerySQL(query)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .groupIdentifier(ascending): "group_identifier \(QuerySQL.direction(ascending))"
                case let .givenName(ascending): "given_name \(QuerySQL.direction(ascending))"
                case let .familyName(ascending): "family_name \(QuerySQL.direction(ascending))"
                case let .effectiveDate(ascending): "effective_date \(QuerySQL.direction(ascending))"
                }
            }
            return try sql.fetch(OCKPatient.self, db, cache: cache)
        }
    }

    /// Adds the patient. A store holds one patient (CareKit's rule): adding fails if any patient was ever added.
    @discardableResult
    public func addPatients(_ patients: [OCKPatient]) async throws -> [OCKPatient] {
        try await write(.patients, failure: OCKStoreError.addFailed) { db, now in
            let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM patients") ?? 0
            guard existing + patients.count <= 1 else {
                throw OCKStoreError.addFailed(reason: "OCKStore only supports one patient per store. If you would like "
                                              + "to have more than one patient, create a new store for that patient.")
            }
            return try VersionedWrites.add(patients, now: now, db)
        }
    }

    @discardableResult
    public func updatePatients(_ patients: [OCKPatient]) async throws -> [OCKPatient] {
        let cache = self.cache
        return try await write(.patients, failure: OCKStoreError.updateFailed) { db, now in
            try VersionedWrites.update(patients, now: now, db, cache: cache)
        }
    }

    @discardableResult
    public func deletePatients(_ patients: [OCKPatient]) async throws -> [OCKPatient] {
        let cache = self.cache
        return try await write(.patients, failure: OCKStoreError.deleteFailed) { db, now in
            try VersionedWrites.delete(patients, now: now, db, cache: cache)
        }
    }
}

extension OCKStore: OCKCarePlanStore {
    public typealias Plan = OCKCarePlan

    public func carePlans(matching query: OCKCarePlanQuery) -> some AsyncSequence<[OCKCarePlan], any Error> & Sendable {
        liveQuery(.carePlans) { try await self.fetchCarePlans(query: query) }
    }

    public func fetchCarePlans(query: OCKCarePlanQuery) async throws -> [OCKCarePlan] {
        let cache = self.cache
        return try await read { db in
            var sql = QuerySQL(query)
            sql.matchRelated("patient_uuid", table: "patients", ids: query.patientIDs, uuids: query.patientUUIDs,
                             remoteIDs: query.patientRemoteIDs)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .title(ascending): "title \(QuerySQL.direction(ascending))"
                case let .effectiveDate(ascending): "effective_date \(QuerySQL.direction(ascending))"
                }
            }
            return try sql.fetch(OCKCarePlan.self, db, cache: cache)
        }
    }

    @discardableResult
    public func addCarePlans(_ plans: [OCKCarePlan]) async throws -> [OCKCarePlan] {
        try await write(.carePlans, failure: OCKStoreError.addFailed) { db, now in
            try VersionedWrites.add(plans, now: now, db)
        }
    }

    @discardableResult
    public func updateCarePlans(_ plans: [OCKCarePlan]) async throws -> [OCKCarePlan] {
        let cache = self.cache
        return try await write(.carePlans, failure: OCKStoreError.updateFailed) { db, now in
            try VersionedWrites.update(plans, now: now, db, cache: cache)
        }
    }

    @discardableResult
    public func deleteCarePlans(_ plans: [OCKCarePlan]) async throws -> [OCKCarePlan] {
        let cache = self.cache
        return try await write(.carePlans, failure: OCKStoreError.deleteFailed) { db, now in
            try VersionedWrites.delete(plans, now: now, db, cache: cache)
        }
    }
}

extension OCKStore: OCKContactStore {
    public typealias Contact = OCKContact

    public func contacts(matching query: OCKContactQuery) -> some AsyncSequence<[OCKContact], any Error> & Sendable {
        liveQuery(.contacts) { try await self.fetchContacts(query: query) }
    }

    public func fetchContacts(query: OCKContactQuery) async throws -> [OCKContact] {
        let cache = self.cache
        return try await read { db in
            var sql = QuerySQL(query)
            sql.matchRelated("care_plan_uuid", table: "care_plans", ids: query.carePlanIDs, uuids: query.carePlanUUIDs,
                             remoteIDs: query.carePlanRemoteIDs)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .givenName(ascending): "given_name \(QuerySQL.direction(ascending))"
                case let .familyName(ascending): "family_name \(QuerySQL.direction(ascending))"
                case let .effectiveDate(ascending): "effective_date \(QuerySQL.direction(ascending))"
                }
            }
            return try sql.fetch(OCKContact.self, db, cache: cache)
        }
    }

    @discardableResult
    public func addContacts(_ contacts: [OCKContact]) async throws -> [OCKContact] {
        try await write(.contacts, failure: OCKStoreError.addFailed) { db, now in
            try VersionedWrites.add(contacts, now: now, db)
        }
    }

    @discardableResult
    public func updateContacts(_ contacts: [OCKContact]) async throws -> [OCKContact] {
        let cache = self.cache
        return try await write(.contacts, failure: OCKStoreError.updateFailed) { db, now in
            try VersionedWrites.update(contacts, now: now, db, cache: cache)
        }
    }

    @discardableResult
    public func deleteContacts(_ contacts: [OCKContact]) async throws -> [OCKContact] {
        let cache = self.cache
        return try await write(.contacts, failure: OCKStoreError.deleteFailed) { db, now in
            try VersionedWrites.delete(contacts, now: now, db, cache: cache)
        }
    }
}
