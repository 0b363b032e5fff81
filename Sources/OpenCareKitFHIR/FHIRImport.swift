import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys

/// A Bundle as `FHIRExport` writes it, read back into a care record's entities: the patient, care plans, tasks (from
/// the activities, their exact schedule elements from the extension), outcomes (from Observations, grouped by the
/// outcome their ids name, QuestionnaireResponses and the Consent). So export → import → export gives the same
/// resources, but for the Patient's id (the new record's) and the CareTeam (the new record's members).
///
/// Anything malformed or unsupported is refused whole with a `Problem` naming where (a FHIRPath such as
/// `Bundle.entry[3].resource.status`), before anything is written.
public struct FHIRImport: Sendable {
    /// What the Bundle holds, ready to be written into a new store.
    public struct Record: Sendable {
        /// The patient, from the Patient resource: its OpenCareKit identifier (system `urn:opencarekit:patient`) as
        /// the id, its first `name` (the family name and up to two given names), gender (`unknown` is left out) and
        /// `birthDate` (a year or a month alone is its first day, in UTC). Nil when the Patient has no such
        /// identifier; the patient's time zone is always UTC (the record's is ``FHIRImport/Record/timeZone``).
        public var patient: OCKPatient?
        /// The patient's name for people: the first given name and the family name, separated by a space; empty
        /// when the Patient has neither.
        public var patientName: String
        /// The record's time zone, an IANA identifier this system knows, from OpenCareKit's time-zone extension on
        /// the Patient; nil when it has none.
        public var timeZone: String?
        /// The name of the record's care plan in the exporting server's catalog, from a CarePlan's
        /// `instantiatesUri`; nil when no CarePlan names one.
        public var carePlanName: String?
        /// The care plans: one per CarePlan that carries OpenCareKit's identifier (system
        /// `urn:opencarekit:care-plan`), with the CarePlan's id as its uuid, its `title` and its `period.start`. A
        /// CarePlan without the identifier (the tasks of no plan) adds its tasks only.
        public var carePlans: [OCKCarePlan] = []
        /// The tasks: one per task the CarePlans' activities name, in the order first named, its schedule composed
        /// of the exact schedule elements of its activities, starting at the earliest of them.
        public var tasks: [OCKTask] = []
        /// The outcomes of the tasks: an Observation's value joins the outcome its id names (values ordered by their
        /// place); a QuestionnaireResponse's answers (kinds: their `linkId`) and a Consent's signed document are one
        /// outcome each.
        public var outcomes: [OCKOutcome] = []
        /// The messages and triage items (Communication, Flag and Task resources), for the directory.
        public var teamWork = CareTeamWork()
    }

    /// Why a Bundle was refused: an OperationOutcome's issue.
    public struct Problem: Error, Sendable {
        /// FHIR's issue type: `structure`, `required`, `value`, `invalid`, `duplicate`, `not-supported`,
        /// `too-costly` or `business-rule`.
        public var code: String
        /// What is wrong, for people (the element's name and what it must be, never its value).
        public var message: String
        /// Where, as a FHIRPath into the Bundle, such as `Bundle.entry[3].resource.status`.
        public var expression: String
        /// The problem as an `OperationOutcome` of one error, to answer the request with.
        public var outcome: FHIRJSON { FHIRSearch.outcome(code, message, expression: expression) }
    }

    /// The most entries a Bundle may hold (a year of a busy plan is about 12,000).
    public static let maximumEntries = 25_000
    /// The most bytes a Bundle's JSON may be: 32 MiB (33,554,432). ``FHIRImport/read(_:)`` refuses a larger one as
    /// `too-costly` before parsing it.
    public static let maximumBytes = 32 << 20
    /// The most a task's user info may hold, as JSON.
    public static let maximumUserInfoBytes = 16 << 10
    static let supported: Set<String> = ["Patient", "CarePlan", "Observation", "Questionnaire", "QuestionnaireResponse", "Consent", "CareTeam",
                                         "Communication", "Flag", "Task"]

    /// The survey of each survey task (by task id): a numeric answer of a QuestionnaireResponse takes its question's
    /// unit from it.
    public var surveys: [String: OCKSurvey]

    /// An importer of Bundles; `surveys` gives the numeric answers of QuestionnaireResponses their questions' units.
    ///
    /// For example:
    /// ```swift
    /// do {
    ///     let record = try FHIRImport(surveys: ["phq-9": phq9]).read(body)
    ///     try await FHIRImport.write(record, into: newStore)
    /// } catch let problem as FHIRImport.Problem {
    ///     print(problem.expression, problem.message)   // Bundle.entry[3].resource.status, status is one of …
    /// }
    /// ```
    ///
    /// - Parameter surveys: The survey of each survey task, by task id (none by default: answers are read without
    ///   units).
    public init(surveys: [String: OCKSurvey] = [:]) {
        self.surveys = surveys
    }

    /// The record `data` (a Bundle's JSON) holds.
    public func read(_ data: Data) throws(Problem) -> Record {
        guard data.count <= Self.maximumBytes else { throw Problem(code: "too-costly", message: "A Bundle is at most 32 MB.", expression: "Bundle") }
        // Refused before it is parsed: a Bundle naming more resource types than it may hold entries (each entry's
        // resource names one), counted in the bytes.
        guard Self.resourceTypeCount(data, atMost: Self.maximumEntries + 1) <= Self.maximumEntries + 1 else {
            throw Problem(code: "too-costly", message: "A Bundle holds at most \(Self.maximumEntries) entries.", expression: "Bundle.entry")
        }
        guard let bundle = try? JSONDecoder().decode(FHIRJSON.self, from: data) else {
            throw Problem(code: "structure", message: "The body is not JSON (FHIR's JSON has no nulls).", expression: "Bundle")
        }
        guard bundle["resourceType"]?.string == "Bundle" else { throw Problem(code: "invalid", message: "The body must be a Bundle.", expression: "Bundle.resourceType") }
        _ = try Reader().code(bundle, "type", at: "Bundle", in: FHIRDatatypes.ValueSet.bundleType)
        guard let entries = bundle["entry"]?.array, !entries.isEmpty else {
            throw Problem(code: "required", message: "The Bundle has no entries.", expression: "Bundle.entry")
        }
        guard entries.count <= Self.maximumEntries else {
            throw Problem(code: "too-costly", message: "A Bundle holds at most \(Self.maximumEntries) entries.", expression: "Bundle.entry")
        }
        let reader = Reader()
        var resources: [(String, FHIRJSON)] = []
        for (index, entry) in entries.enumerated() {
            let path = "Bundle.entry[\(index)].resource"
            guard let resource = entry["resource"], let type = resource["resourceType"]?.string else {
                throw Problem(code: "required", message: "Each entry holds a resource with its resourceType.", expression: path)
            }
            guard Self.supported.contains(type) else {
                throw Problem(code: "not-supported", message: "This server does not import \(type) resources.", expression: "\(path).resourceType")
            }
            resources.append((path, resource))
        }
        guard resources.filter({ $0.1["resourceType"]?.string == "Patient" }).count == 1 else {
            throw Problem(code: "invalid", message: "A record's Bundle holds exactly one Patient.", expression: "Bundle.entry")
        }
        var record = Record(patientName: "")
        for (path, resource) in resources {
            switch resource["resourceType"]?.string {
            case "Patient": try reader.patient(resource, at: path, into: &record)
            case "CarePlan": try reader.carePlan(resource, at: path, into: &record)
            default: continue
            }
        }
        var outcomes: [UUID: (OCKOutcome, [(Int, OCKOutcomeValue)])] = [:]
        var order: [UUID] = []
        for (path, resource) in resources {
            let parts: (UUID, OCKOutcome, [(Int, OCKOutcomeValue)])?
            switch resource["resourceType"]?.string {
            case "Observation": parts = try reader.observation(resource, at: path, tasks: record.tasks)
            case "QuestionnaireResponse": parts = try reader.questionnaireResponse(resource, at: path, tasks: record.tasks, surveys: surveys)
            case "Consent": parts = try reader.consent(resource, at: path, tasks: record.tasks)
            default: parts = nil
            }
            guard let (uuid, outcome, values) = parts else { continue }
            if outcomes[uuid] == nil {
                outcomes[uuid] = (outcome, [])
                order.append(uuid)
            } else if outcomes[uuid]?.0.taskUUID != outcome.taskUUID || outcomes[uuid]?.0.taskOccurrenceIndex != outcome.taskOccurrenceIndex {
                throw Problem(code: "invalid", message: "The values of one outcome name one task and occurrence.", expression: path)
            }
            outcomes[uuid]?.1 += values
        }
        for uuid in order {
            guard var (outcome, values) = outcomes[uuid] else { continue }
            values.sort { $0.0 < $1.0 }
            guard Set(values.map(\.0)).count == values.count else {
                throw Problem(code: "duplicate", message: "Two values of one outcome have the same place.", expression: "Bundle.entry")
            }
            outcome.values = values.map(\.1)
            record.outcomes.append(outcome)
        }
        record.teamWork = try reader.teamWork(resources)
        if let problem = record.teamWork.problem() { throw Problem(code: "business-rule", message: problem, expression: "Bundle.entry") }
        return record
    }

    /// How many times `"resourceType"` appears in `data`, counting no further than one past `limit`.
    package static func resourceTypeCount(_ data: Data, atMost limit: Int) -> Int {
        let key = Array(#""resourceType""#.utf8)
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int in
            guard bytes.count >= key.count else { return 0 }
            var count = 0, index = 0
            let last = bytes.count - key.count
            while index <= last, count <= limit {
                if bytes[index] == key[0], (1..<key.count).allSatisfy({ bytes[index + $0] == key[$0] }) {
                    count += 1
                    index += key.count
                } else {
                    index += 1
                }
            }
            return count
        }
    }

    /// Writes `record` into `store` (a new record's, empty).
    public static func write(_ record: Record, into store: OCKStore) async throws {
        if let patient = record.patient { try await store.addPatient(patient) }
        if !record.carePlans.isEmpty { try await store.addCarePlans(record.carePlans) }
        if !record.tasks.isEmpty { try await store.addTasks(record.tasks) }
        if !record.outcomes.isEmpty { try await store.addOutcomes(record.outcomes) }
    }
}

/// Reads resources, refusing the first thing wrong with where it is.
struct Reader {
    typealias Problem = FHIRImport.Problem
    func string(_ resource: FHIRJSON, _ key: String, at path: String, required: Bool = true) throws(Problem) -> String? {
        guard let value = resource[key] else {
            if required { throw Problem(code: "required", message: "\(key) is required.", expression: "\(path).\(key)") }
            return nil
        }
        guard let text = value.string, !text.isEmpty, text.utf8.count <= 1_048_576 else {
            throw Problem(code: "value", message: "\(key) must be a string.", expression: "\(path).\(key)")
        }
        return text
    }

    /// A `dateTime` (R4: a year, a month, a day, or a time with its zone) as the moment it starts at.
    func date(_ text: String?, at path: String) throws(Problem) -> Date? {
        guard let text else { return nil }
        guard let date = FHIRDatatypes.moment(text) else {
            throw Problem(code: "value", message: "A FHIR dateTime: a day as 2026-11-24, or a time with its zone as 2026-11-24T09:00:00Z.",
                          expression: path)
        }
        return date
    }

    /// The code `resource[key]`, one of `codes` (an R4 required value set); nil when absent and not `required`.
    func code(_ resource: FHIRJSON, _ key: String, at path: String, in codes: Set<String>, required: Bool = true) throws(Problem) -> String? {
        guard let code = try string(resource, key, at: path, required: required) else { return nil }
        guard codes.contains(code) else {
            throw Problem(code: "value", message: "\(key) is one of \(codes.sorted().joined(separator: ", ")).", expression: "\(path).\(key)")
        }
        return code
    }

    /// An R4 `integer` (32 bits).
    func integer(_ value: FHIRJSON?, at path: String) throws(Problem) -> Int? {
        guard let value else { return nil }
        guard let number = value.integer, FHIRDatatypes.integers.contains(number) else {
            throw Problem(code: "value", message: "An integer of 32 bits.", expression: path)
        }
        return number
    }

    func extensionValue(_ resource: FHIRJSON, _ url: String) -> FHIRJSON? {
        resource["extension"]?.array?.first { $0["url"]?.string == url }.flatMap { item in
            item["valueString"] ?? item["valueInteger"] ?? item["valueBoolean"] ?? item["valueDecimal"] ?? item["valueDateTime"]
        }
    }

    /// `id` as the uuid it is (with a suffix `-N`, also N).
    func uuid(_ id: String, at path: String, suffixed: Bool = false) throws(Problem) -> (UUID, Int?) {
        var text = Substring(id), suffix: Int?
        if suffixed, let dash = id.lastIndex(of: "-"), let number = Int(id[id.index(after: dash)...]), id.distance(from: id.startIndex, to: dash) == 36 {
            text = id[..<dash]
            suffix = number
        }
        guard let uuid = UUID(uuidString: String(text)) else {
            throw Problem(code: "value", message: "The id must be one this server wrote: a UUID\(suffixed ? " with its value's place" : "").",
                          expression: "\(path).id")
        }
        return (uuid, suffix)
    }

    func patient(_ resource: FHIRJSON, at path: String, into record: inout FHIRImport.Record) throws(Problem) {
        let name = resource["name"]?.array?.first
        var components = PersonNameComponents()
        components.familyName = name?["family"]?.string
        let given = name?["given"]?.array?.compactMap(\.string) ?? []
        components.givenName = given.first
        components.middleName = given.count > 1 ? given[1] : nil
        let id = resource["identifier"]?.array?.first { $0["system"]?.string == "urn:opencarekit:patient" }?["value"]?.string
        record.patientName = [components.givenName, components.familyName].compactMap { $0 }.joined(separator: " ")
        record.timeZone = extensionValue(resource, FHIRExport.timeZoneExtension)?.string
        if let zone = record.timeZone, TimeZone(identifier: zone) == nil {
            throw Problem(code: "value", message: "The time zone is not one this server knows.", expression: "\(path).extension")
        }
        // Every element read is checked, whether or not the Patient is one this server wrote.
        let gender = try code(resource, "gender", at: path, in: FHIRDatatypes.ValueSet.administrativeGender, required: false)
        var birthday: Date?
        if let birth = try string(resource, "birthDate", at: path, required: false) {
            // R4 allows a year, or a year and month: the birthday is their first day.
            guard let date = FHIRDatatypes.moment(birth, allowsTime: false) else {
                throw Problem(code: "value", message: "birthDate is a FHIR date: 1968, 1968-04 or 1968-04-23.", expression: "\(path).birthDate")
            }
            birthday = date
        }
        guard let id else { return }
        var patient = OCKPatient(id: id, name: components)
        patient.timezone = .gmt
        switch gender {
        case "male"?: patient.sex = .male
        case "female"?: patient.sex = .female
        case "other"?: patient.sex = .other("other")
        default: break
        }
        patient.birthday = birthday
        record.patient = patient
    }

    func carePlan(_ resource: FHIRJSON, at path: String, into record: inout FHIRImport.Record) throws(Problem) {
        let id = try string(resource, "id", at: path) ?? ""
        guard FHIRDatatypes.isID(id) else {
            throw Problem(code: "value", message: "An id is 1 to 64 letters, digits, '-' and '.'.", expression: "\(path).id")
        }
        _ = try code(resource, "status", at: path, in: FHIRDatatypes.ValueSet.carePlanStatus)
        _ = try code(resource, "intent", at: path, in: FHIRDatatypes.ValueSet.carePlanIntent)
        if let uri = resource["instantiatesUri"]?.array?.first?.string, uri.hasPrefix(FHIRExport.carePlanCatalog) {
            record.carePlanName = String(uri.dropFirst(FHIRExport.carePlanCatalog.count))
        }
        let start = try date(resource["period"]?["start"]?.string, at: "\(path).period.start")
        var planUUID: UUID?
        if let ockID = resource["identifier"]?.array?.first(where: { $0["system"]?.string == FHIRExport.carePlanSystem })?["value"]?.string {
            var plan = OCKCarePlan(id: ockID, title: (try string(resource, "title", at: path, required: false)) ?? "", patientUUID: nil)
            plan.uuid = try uuid(id, at: path).0
            if let start { plan.effectiveDate = start }
            planUUID = plan.uuid
            record.carePlans.append(plan)
        }
        // Activities by task: each an element of its task's schedule.
        var tasks: [String: (task: OCKTask, elements: [OCKScheduleElement])] = [:]
        var order: [String] = []
        for (index, activity) in (resource["activity"]?.array ?? []).enumerated() {
            let here = "\(path).activity[\(index)].detail"
            guard let detail = activity["detail"], let taskID = extensionValue(detail, FHIRExport.taskExtension)?.string,
                  let exact = extensionValue(detail, FHIRExport.scheduleElementExtension)?.string else {
                throw Problem(code: "required", message: "An activity names its task and its schedule element (OpenCareKit's extensions).",
                              expression: "\(here).extension")
            }
            _ = try code(detail, "status", at: here, in: FHIRDatatypes.ValueSet.carePlanActivityStatus)
            _ = try code(detail, "kind", at: here, in: FHIRDatatypes.ValueSet.carePlanActivityKind, required: false)
            guard let element = try? JSONDecoder().decode(OCKScheduleElement.self, from: Data(exact.utf8)) else {
                throw Problem(code: "value", message: "The schedule element is not one OpenCareKit reads.", expression: "\(here).extension")
            }
            if tasks[taskID] == nil {
                var task = OCKTask(id: taskID, title: detail["code"]?["text"]?.string, carePlanUUID: planUUID,
                                   schedule: OCKSchedule(composing: [element]))
                task.instructions = detail["description"]?.string
                task.impactsAdherence = extensionValue(detail, FHIRExport.impactsAdherenceExtension)?.bool ?? true
                if let info = extensionValue(detail, FHIRExport.userInfoExtension)?.string {
                    // The store's rules judge what it holds (alert rules, say); here only its shape and size.
                    guard info.utf8.count <= FHIRImport.maximumUserInfoBytes,
                          let decoded = try? JSONDecoder().decode([String: String].self, from: Data(info.utf8)) else {
                        throw Problem(code: "value", message: "The task's user info is not a JSON object of strings of at most 16 KB.",
                                      expression: "\(here).extension")
                    }
                    task.userInfo = decoded
                }
                tasks[taskID] = (task, [])
                order.append(taskID)
            }
            tasks[taskID]?.elements.append(element)
        }
        for taskID in order {
            guard case (var task, let elements)? = tasks[taskID] else { continue }
            task.schedule = OCKSchedule(composing: elements)
            task.effectiveDate = elements.map(\.start).min() ?? task.effectiveDate
            if record.tasks.contains(where: { $0.id == taskID }) {
                throw Problem(code: "duplicate", message: "Two care plans name one task.", expression: path)
            }
            record.tasks.append(task)
        }
    }

    /// The task and occurrence an outcome's resource names, from OpenCareKit's extensions.
    func outcomeTarget(_ resource: FHIRJSON, at path: String, tasks: [OCKTask]) throws(Problem) -> (OCKTask, Int) {
        guard let taskID = extensionValue(resource, FHIRExport.taskExtension)?.string,
              let occurrence = extensionValue(resource, FHIRExport.occurrenceExtension)?.integer, occurrence >= 0 else {
            throw Problem(code: "required", message: "An outcome names its task and occurrence (OpenCareKit's extensions).",
                          expression: "\(path).extension")
        }
        guard let task = tasks.first(where: { $0.id == taskID }) else {
            throw Problem(code: "invalid", message: "The task is in none of the Bundle's care plans.", expression: "\(path).extension")
        }
        return (task, occurrence)
    }

    func observation(_ resource: FHIRJSON, at path: String, tasks: [OCKTask]) throws(Problem) -> (UUID, OCKOutcome, [(Int, OCKOutcomeValue)]) {
        let (uuid, place) = try self.uuid(try string(resource, "id", at: path) ?? "", at: path, suffixed: true)
        _ = try code(resource, "status", at: path, in: FHIRDatatypes.ValueSet.observationStatus)
        let (task, occurrence) = try outcomeTarget(resource, at: path, tasks: tasks)
        guard let created = try date(try string(resource, "effectiveDateTime", at: path, required: false), at: "\(path).effectiveDateTime") else {
            throw Problem(code: "required", message: "effectiveDateTime is required.", expression: "\(path).effectiveDateTime")
        }
        var value: OCKOutcomeValue
        if let quantity = resource["valueQuantity"] {
            guard let number = quantity["value"]?.number, number.isFinite else {
                throw Problem(code: "value", message: "A quantity has a number.", expression: "\(path).valueQuantity.value")
            }
            value = OCKOutcomeValue(number, units: quantity["unit"]?.string, createdDate: created)
        } else if let number = try integer(resource["valueInteger"], at: "\(path).valueInteger") {
            value = OCKOutcomeValue(number, createdDate: created)
        } else if let flag = resource["valueBoolean"]?.bool {
            value = OCKOutcomeValue(flag, createdDate: created)
        } else if let text = resource["valueString"]?.string {
            value = OCKOutcomeValue(text, createdDate: created)
        } else if let text = resource["valueDateTime"]?.string, let moment = try date(text, at: "\(path).valueDateTime") {
            value = OCKOutcomeValue(moment, createdDate: created)
        } else {
            throw Problem(code: "not-supported", message: "An Observation's value is a Quantity, an integer, a Boolean, a string or a dateTime.",
                          expression: "\(path).value[x]")
        }
        value.kind = extensionValue(resource, FHIRExport.kindExtension)?.string
        var outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: [])
        outcome.uuid = uuid
        let notes = resource["note"]?.array?.compactMap { $0["text"]?.string } ?? []
        if !notes.isEmpty { outcome.notes = notes.map { OCKNote(author: nil, title: nil, content: $0) } }
        return (uuid, outcome, [(extensionValue(resource, FHIRExport.valueIndexExtension)?.integer ?? place ?? 0, value)])
    }

    func questionnaireResponse(_ resource: FHIRJSON, at path: String, tasks: [OCKTask],
                               surveys: [String: OCKSurvey]) throws(Problem) -> (UUID, OCKOutcome, [(Int, OCKOutcomeValue)]) {
        let (uuid, _) = try self.uuid(try string(resource, "id", at: path) ?? "", at: path)
        _ = try code(resource, "status", at: path, in: FHIRDatatypes.ValueSet.questionnaireResponseStatus)
        let (task, occurrence) = try outcomeTarget(resource, at: path, tasks: tasks)
        guard let authored = try date(try string(resource, "authored", at: path, required: false), at: "\(path).authored") else {
            throw Problem(code: "required", message: "authored is required.", expression: "\(path).authored")
        }
        var values: [OCKOutcomeValue] = []
        for (index, item) in (resource["item"]?.array ?? []).enumerated() {
            let here = "\(path).item[\(index)]"
            guard let linkId = item["linkId"]?.string else { throw Problem(code: "required", message: "linkId is required.", expression: "\(here).linkId") }
            for (number, answer) in (item["answer"]?.array ?? []).enumerated() {
                var value: OCKOutcomeValue
                if let integer = try integer(answer["valueInteger"], at: "\(here).answer[\(number)].valueInteger") {
                    value = OCKOutcomeValue(integer, createdDate: authored)
                } else if let decimal = answer["valueDecimal"]?.number {
                    value = OCKOutcomeValue(decimal, createdDate: authored)
                } else if let flag = answer["valueBoolean"]?.bool {
                    value = OCKOutcomeValue(flag, createdDate: authored)
                } else if let text = answer["valueString"]?.string ?? answer["valueCoding"]?["code"]?.string {
                    value = OCKOutcomeValue(text, createdDate: authored)
                } else if let text = answer["valueDateTime"]?.string, let moment = try date(text, at: "\(here).answer[\(number)]") {
                    value = OCKOutcomeValue(moment, createdDate: authored)
                } else {
                    throw Problem(code: "not-supported", message: "An answer is an integer, a decimal, a Boolean, a string, a Coding or a dateTime.",
                                  expression: "\(here).answer[\(number)]")
                }
                value.kind = linkId
                // A number keeps its question's unit (a QuestionnaireResponse's answer has none of its own).
                if case let .question(_, format)? = surveys[task.id]?.steps.first(where: { $0.id == linkId })?.kind,
                   case let .numeric(unit, _, _) = format {
                    value.units = unit
                }
                values.append(value)
            }
        }
        var outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: [])
        outcome.uuid = uuid
        if values.isEmpty { values = [OCKOutcomeValue(authored, createdDate: authored).kinded(OCKSurveyResult.completedKind)] }
        return (uuid, outcome, values.enumerated().map { ($0.offset, $0.element) })
    }

    func consent(_ resource: FHIRJSON, at path: String, tasks: [OCKTask]) throws(Problem) -> (UUID, OCKOutcome, [(Int, OCKOutcomeValue)]) {
        let (uuid, _) = try self.uuid(try string(resource, "id", at: path) ?? "", at: path)
        _ = try code(resource, "status", at: path, in: FHIRDatatypes.ValueSet.consentStatus)
        let (task, occurrence) = try outcomeTarget(resource, at: path, tasks: tasks)
        guard let title = extensionValue(resource, FHIRExport.consentTitleExtension)?.string,
              let version = extensionValue(resource, FHIRExport.consentVersionExtension)?.string,
              let data = resource["sourceAttachment"]?["data"]?.string.flatMap({ Data(base64Encoded: $0) }),
              let text = String(data: data, encoding: .utf8),
              let signer = resource["performer"]?.array?.first?["display"]?.string,
              let signed = try date(resource["dateTime"]?.string, at: "\(path).dateTime") else {
            throw Problem(code: "required", message: "A consent has its document (title, version, text), signer and date.", expression: path)
        }
        let kinds = OCKSignedConsent.Kind.self
        let values: [(some OCKOutcomeValueUnderlyingType, String)] = [(version, kinds.version), (title, kinds.title), (text, kinds.text),
                                                                      (OCKSignedConsent.sha256(text), kinds.textSHA256), (signer, kinds.signer)]
        var outcomeValues = values.map { OCKOutcomeValue($0.0, createdDate: signed).kinded($0.1) }
        outcomeValues.append(OCKOutcomeValue(signed, createdDate: signed).kinded(kinds.date))
        var outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: [])
        outcome.uuid = uuid
        return (uuid, outcome, outcomeValues.enumerated().map { ($0.offset, $0.element) })
    }
}

extension OCKOutcomeValue {
    /// The value with `kind`.
    fileprivate func kinded(_ kind: String) -> OCKOutcomeValue {
        var value = self
        value.kind = kind
        return value
    }
}
