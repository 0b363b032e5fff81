import Foundation

extension OCKPatient: PayloadStoredEntity {
    var entity: OCKEntity { .patient(self) }
    static let table = "patients"
    static let kind = "patient"
    static let queryColumns = ["given_name", "family_name"]
    var queryValues: [any SQLBindable] { [name.givenName, name.familyName] }
}

extension OCKCarePlan: PayloadStoredEntity {
    var entity: OCKEntity { .carePlan(self) }
    static let table = "care_plans"
    static let kind = "care plan"
    static let queryColumns = ["patient_uuid", "title"]
    var queryValues: [any SQLBindable] { [patientUUID, title] }
}

extension OCKContact: PayloadStoredEntity {
    var entity: OCKEntity { .contact(self) }
    static let table = "contacts"
    static let kind = "contact"
    static let queryColumns = ["care_plan_uuid", "given_name", "family_name"]
    var queryValues: [any SQLBindable] { [carePlanUUID, name.givenName, name.familyName] }
}

extension OCKTask: PayloadStoredEntity {
    var entity: OCKEntity { .task(self) }
    static let table = "tasks"
    static let kind = "task"
    static let queryColumns = ["care_plan_uuid", "title", "impacts_adherence", "schedule_start", "schedule_end"]
    var queryValues: [any SQLBindable] { taskQueryValues }
}

/// HealthKit tasks are kept as tasks are, in a table of their own (CareKit's entity of their own: a task and a
/// HealthKit task may share an id).
extension OCKHealthKitTask: PayloadStoredEntity {
    var entity: OCKEntity { .healthKitTask(self) }
    static let table = "healthkit_tasks"
    static let kind = "HealthKit task"
    static var queryColumns: [String] { OCKTask.queryColumns }
    var queryValues: [any SQLBindable] { taskQueryValues }
}

extension TaskFields {
    /// The values of the columns task queries filter and sort on.
    var taskQueryValues: [any SQLBindable] {
        [carePlanUUID, title, impactsAdherence, schedule.startDate().storeValue, schedule.endDate()?.storeValue]
    }
}

/// Outcomes are stored in columns (no JSON on the common path), with their values in `outcome_values`.
extension OCKOutcome: StoredEntity {
    static let table = "outcomes"
    static let kind = "outcome"
    var entity: OCKEntity { .outcome(self) }

    static func completeVersions(_ versions: inout [OCKOutcome], _ db: any SQLDatabase) async throws {
        try await attachValues(to: &versions, db)
    }
    static let extraColumns = ["task_uuid", "occurrence", "event_start", "event_end", "source", "asset", "schema_version",
                               "timezone", "user_info", "notes", "tags"]

    /// The span of the outcome's event is set by the store before inserting (it needs the task's schedule).
    func appendExtraValues(to values: inout [SQLValue], event: DateInterval?, _ dialect: SQLDialect) throws {
        func json<T: Encodable>(_ value: T?) throws -> SQLValue {
            try value.map { .blob(try StoreJSON.encoder.encode($0)) } ?? .null
        }
        values.append(.uuid(taskUUID))
        values.append(.integer(Int64(taskOccurrenceIndex)))
        values.append(.real((event?.start ?? effectiveDate).storeValue))
        values.append(.real((event?.end ?? event?.start ?? effectiveDate).storeValue))
        values.append(source?.sqlValue ?? .null)
        values.append(asset?.sqlValue ?? .null)
        values.append(schemaVersion.map { $0 == .stamped ? Self.stampedText : .text($0.description) } ?? .null)
        values.append(.text(timezone.identifier))
        values.append(try json(userInfo))
        values.append(try json(notes))
        values.append(try json(tags))
    }

    private static let stampedText = SQLValue.text(OCKSemanticVersion.stamped.description)

    func addDependentRows(to rows: inout VersionRows, _ dialect: SQLDialect) {
        for (position, value) in values.enumerated() {
            rows.outcomeValues.append(.uuid(uuid))
            rows.outcomeValues.append(.integer(Int64(position)))
            rows.outcomeValues.append(.integer(Int64(value.type.storeCode)))
            rows.outcomeValues.append(value.storeValue(dialect))
            rows.outcomeValues.append(value.kind?.sqlValue ?? .null)
            rows.outcomeValues.append(value.units?.sqlValue ?? .null)
            rows.outcomeValues.append(.real(value.createdDate.storeValue))
            rows.outcomeValues.append(value.endDate?.storeValue.sqlValue ?? .null)
        }
        addTagRows(to: &rows)
    }

    static func decode(_ row: any SQLRow, cache: DecodedEntityCache) throws -> OCKOutcome {
        var outcome = OCKOutcome(taskUUID: try row.uuid("task_uuid"), taskOccurrenceIndex: try row.int("occurrence"), values: [])
        outcome.id = try row.string("id")
        try outcome.applyVersionColumns(row)
        outcome.effectiveDate = try row.date("effective_date") ?? outcome.effectiveDate
        outcome.deletedDate = try row.date("deleted_date")
        outcome.createdDate = try row.date("created_date")
        outcome.updatedDate = try row.date("updated_date")
        outcome.groupIdentifier = try row.optionalString("group_identifier")
        outcome.remoteID = try row.optionalString("remote_id")
        outcome.source = try row.optionalString("source")
        outcome.asset = try row.optionalString("asset")
        outcome.schemaVersion = try row.optionalString("schema_version").flatMap(OCKSemanticVersion.init)
        outcome.timezone = TimeZone(identifier: try row.string("timezone")) ?? TimeZone(secondsFromGMT: 0)!
        let decoder = StoreJSON.decoder
        outcome.userInfo = try row.optionalData("user_info").map { try decoder.decode([String: String].self, from: $0) }
        outcome.notes = try row.optionalData("notes").map { try decoder.decode([OCKNote].self, from: $0) }
        outcome.tags = try row.optionalData("tags").map { try decoder.decode([String].self, from: $0) }
        return outcome
    }

    /// Reads the values of many outcomes at once.
    static func attachValues(to outcomes: inout [OCKOutcome], _ db: any SQLDatabase) async throws {
        guard !outcomes.isEmpty else { return }
        var byUUID: [UUID: Int] = [:]
        for (index, outcome) in outcomes.enumerated() { byUUID[outcome.uuid] = index }
        for chunk in stride(from: 0, to: outcomes.count, by: 500) {
            let uuids = outcomes[chunk..<min(chunk + 500, outcomes.count)].map(\.uuid)
            var found: [(index: Int, value: OCKOutcomeValue)] = []
            try await db.forEachRow("""
                SELECT * FROM outcome_values WHERE outcome_uuid IN (\(QuerySQL.placeholders(uuids.count)))
                ORDER BY outcome_uuid, position
                """, uuids.map(\.sqlValue)) { row in
                guard let index = byUUID[try row.uuid("outcome_uuid")] else { return }
                found.append((index, try OCKOutcomeValue(storedRow: row)))
            }
            for (index, value) in found { outcomes[index].values.append(value) }
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
    /// The value as the engine stores it. SQLite keeps integers, reals, text and blobs as themselves, booleans as 0/1
    /// and dates as seconds; an engine with typed columns keeps the same as bytes (`Data(storeBytes:)`).
    func storeValue(_ dialect: SQLDialect) -> SQLValue {
        let value: SQLValue = switch self.value {
        case let value as Int: .integer(Int64(value))
        case let value as Double: .real(value)
        case let value as Bool: .integer(value ? 1 : 0)
        case let value as String: .text(value)
        case let value as Data: .blob(value)
        case let value as Date: .real(value.storeValue)
        default: .null
        }
        return Self.storedValue(value, for: dialect)
    }

    /// A value as SQLite stores it (itself) in the form `dialect` stores it.
    package static func storedValue(_ value: SQLValue, for dialect: SQLDialect) -> SQLValue {
        dialect.dynamicTyping ? value : .blob(bytes(of: value))
    }

    /// A value as bytes: integers as 8 bytes big-endian, reals as their 8-byte pattern big-endian, text as UTF-8.
    private static func bytes(of value: SQLValue) -> Data {
        switch value {
        case let .integer(number): withUnsafeBytes(of: number.bigEndian) { Data($0) }
        case let .real(number): withUnsafeBytes(of: number.bitPattern.bigEndian) { Data($0) }
        case let .text(text): Data(text.utf8)
        case let .blob(data): data
        case .null, .uuid: Data()
        }
    }

    /// The inverse of `bytes(of:)` for a value of type `code`.
    private static func value(_ stored: SQLValue, code: Int) throws -> SQLValue {
        guard case let .blob(data) = stored, code != 3, code != 4 else {
            if case let .blob(data) = stored, code == 3 { return .text(String(decoding: data, as: UTF8.self)) }
            return stored
        }
        guard data.count == 8 else { throw OCKStoreError.fetchFailed(reason: "An outcome value has the wrong size") }
        let bits = data.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        return code == 0 || code == 2 ? .integer(Int64(bitPattern: bits)) : .real(Double(bitPattern: bits))
    }

    init(storedRow row: any SQLRow) throws {
        let code = try row.int("type")
        let stored = try Self.value(row.value("value"), code: code)
        func fail() -> OCKStoreError { .fetchFailed(reason: "An outcome value does not match its type code") }
        let value: any OCKOutcomeValueUnderlyingType
        switch (code, stored) {
        case let (0, number): guard let number = number.int else { throw fail() }; value = number
        case let (1, number): guard let number = number.double else { throw fail() }; value = number
        case let (2, number): guard let number = number.int else { throw fail() }; value = number != 0
        case let (3, .text(text)): value = text
        case let (4, .blob(data)): value = data
        case let (5, seconds): guard let seconds = seconds.double else { throw fail() }; value = Date(storeValue: seconds)
        case (0...5, _): throw fail()
        default: throw OCKStoreError.fetchFailed(reason: "An outcome value has an unknown type code")
        }
        self.init(value, units: try row.optionalString("units"), createdDate: try row.date("created_date") ?? Date(storeValue: 0))
        kind = try row.optionalString("kind")
        endDate = try row.date("end_date")
    }
}
