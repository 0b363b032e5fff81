import Foundation
import GRDB

extension OCKPatient: PayloadStoredEntity {
    static let insertSQL = makeInsertSQL()
    static let table = "patients"
    static let kind = "patient"
    static let queryColumns = ["given_name", "family_name"]
    var queryValues: [(any DatabaseValueConvertible)?] { [name.givenName, name.familyName] }
}

extension OCKCarePlan: PayloadStoredEntity {
    static let insertSQL = makeInsertSQL()
    static let table = "care_plans"
    static let kind = "care plan"
    static let queryColumns = ["patient_uuid", "title"]
    var queryValues: [(any DatabaseValueConvertible)?] { [patientUUID, title] }
}

extension OCKContact: PayloadStoredEntity {
    static let insertSQL = makeInsertSQL()
    static let table = "contacts"
    static let kind = "contact"
    static let queryColumns = ["care_plan_uuid", "given_name", "family_name"]
    var queryValues: [(any DatabaseValueConvertible)?] { [carePlanUUID, name.givenName, name.familyName] }
}

extension OCKTask: PayloadStoredEntity {
    static let insertSQL = makeInsertSQL()
    static let table = "tasks"
    static let kind = "task"
    static let queryColumns = ["care_plan_uuid", "title", "impacts_adherence", "schedule_start", "schedule_end"]
    var queryValues: [(any DatabaseValueConvertible)?] {
        [carePlanUUID, title, impactsAdherence, schedule.startDate().storeValue, schedule.endDate()?.storeValue]
    }
}

/// Outcomes are stored in columns (no JSON on the common path), with their values in `outcome_values`.
extension OCKOutcome: StoredEntity {
    static let insertSQL = makeInsertSQL()
    static let table = "outcomes"
    static let kind = "outcome"
    static let extraColumns = ["task_uuid", "occurrence", "event_start", "event_end", "source", "asset", "schema_version",
                               "timezone", "user_info", "notes", "tags"]

    /// The start of the outcome's event, set by the store before inserting (it needs the task's schedule).
    func extraValues(event: DateInterval?) throws -> [(any DatabaseValueConvertible)?] {
        func json<T: Encodable>(_ value: T?) throws -> Data? {
            try value.map { try StoreJSON.encoder.encode($0) }
        }
        return [
            taskUUID, taskOccurrenceIndex, (event?.start ?? effectiveDate).storeValue,
            (event?.end ?? event?.start ?? effectiveDate).storeValue, source, asset, schemaVersion?.description,
            timezone.identifier, try json(userInfo), try json(notes), try json(tags),
        ]
    }

    func insertDependents(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO outcome_values (outcome_uuid, position, type, value, kind, units, created_date, end_date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, value) in values.enumerated() {
            statement.setUncheckedArguments([
                uuid, position, value.type.storeCode, value.storeValue, value.kind, value.units,
                value.createdDate.storeValue, value.endDate?.storeValue,
            ])
            try statement.execute()
        }
        try insertTags(db)
    }

    static func decode(_ row: Row, _ db: Database, cache: DecodedEntityCache) throws -> OCKOutcome {
        var outcome = OCKOutcome(taskUUID: row["task_uuid"], taskOccurrenceIndex: row["occurrence"], values: [])
        outcome.id = row["id"]
        outcome.applyVersionColumns(row)
        outcome.effectiveDate = row.date("effective_date") ?? outcome.effectiveDate
        outcome.deletedDate = row.date("deleted_date")
        outcome.createdDate = row.date("created_date")
        outcome.updatedDate = row.date("updated_date")
        outcome.groupIdentifier = row["group_identifier"]
        outcome.remoteID = row["remote_id"]
        outcome.source = row["source"]
        outcome.asset = row["asset"]
        outcome.schemaVersion = (row["schema_version"] as String?).flatMap(OCKSemanticVersion.init)
        outcome.timezone = TimeZone(identifier: row["timezone"]) ?? TimeZone(secondsFromGMT: 0)!
        let decoder = StoreJSON.decoder
        outcome.userInfo = try (row["user_info"] as Data?).map { try decoder.decode([String: String].self, from: $0) }
        outcome.notes = try (row["notes"] as Data?).map { try decoder.decode([OCKNote].self, from: $0) }
        outcome.tags = try (row["tags"] as Data?).map { try decoder.decode([String].self, from: $0) }
        return outcome
    }

    /// Reads the values of many outcomes at once.
    static func attachValues(to outcomes: inout [OCKOutcome], _ db: Database) throws {
        guard !outcomes.isEmpty else { return }
        var byUUID: [UUID: Int] = [:]
        for (index, outcome) in outcomes.enumerated() { byUUID[outcome.uuid] = index }
        for chunk in stride(from: 0, to: outcomes.count, by: 500) {
            let uuids = outcomes[chunk..<min(chunk + 500, outcomes.count)].map(\.uuid)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT * FROM outcome_values WHERE outcome_uuid IN (\(uuids.map { _ in "?" }.joined(separator: ",")))
                ORDER BY outcome_uuid, position
                """), arguments: StatementArguments(uuids))
            while let row = try rows.next() {
                guard let index = byUUID[row["outcome_uuid"]] else { continue }
                outcomes[index].values.append(try OCKOutcomeValue(storedRow: row))
            }
        }
    }
}

extension OCKOutcomeValueType {
    var storeCode: Int {
        switch self {
        case .integer: 0
        case .double: 1
        case .boolean: 2
        case .text: 3
        case .binary: 4
        case .date: 5
        }
    }
}

extension OCKOutcomeValue {
    /// The value as SQLite stores it: integers, reals, text and blobs as themselves, booleans as 0/1, dates as seconds.
    var storeValue: (any DatabaseValueConvertible)? {
        switch value {
        case let value as Int: value
        case let value as Double: value
        case let value as Bool: value ? 1 : 0
        case let value as String: value
        case let value as Data: value
        case let value as Date: value.storeValue
        default: nil
        }
    }

    init(storedRow row: Row) throws {
        let code: Int = row["type"]
        let value: any OCKOutcomeValueUnderlyingType
        switch code {
        case 0: value = row["value"] as Int
        case 1: value = row["value"] as Double
        case 2: value = (row["value"] as Int) != 0
        case 3: value = row["value"] as String
        case 4: value = row["value"] as Data
        case 5: value = Date(storeValue: row["value"])
        default: throw OCKStoreError.fetchFailed(reason: "An outcome value has an unknown type code")
        }
        self.init(value, units: row["units"], createdDate: row.date("created_date") ?? Date(storeValue: 0))
        kind = row["kind"]
        endDate = row.date("end_date")
    }
}
