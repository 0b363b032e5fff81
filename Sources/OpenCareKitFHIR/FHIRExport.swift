import Foundation
import OpenCareKitStore
import OpenCareKitSurveys

/// A care record as FHIR R4 resources, in a `collection` Bundle: the Patient, a CarePlan per care plan with an
/// activity per schedule element of each task (its `Timing`), an Observation per numeric, Boolean, text or date
/// outcome value, a QuestionnaireResponse (with its Questionnaire) per survey outcome, a Consent per signed consent,
/// and the CareTeam of the record's members.
///
/// Ids: the Patient's is the record's (the Patient *is* the record on this server); the others are the store's
/// uuids of the versions exported (an Observation adds the value's place in its outcome), so that importing a Bundle
/// keeps them. What FHIR's own elements cannot say exactly — a schedule element's exact steps, which task and
/// occurrence an outcome records — travels in extensions under `FHIRExport.extensionBase`.
public struct FHIRExport: Sendable {
    /// A member of the record's care team.
    public struct Member: Sendable, Hashable {
        /// The name the member is shown by: the CareTeam participant's `member.display`.
        public var name: String
        /// Their role in the record: patient, caregiver or clinician.
        public var role: String

        /// A member of the care team, exported as a CareTeam `participant`.
        ///
        /// - Parameters:
        ///   - name: The name shown for them (`participant.member.display`).
        ///   - role: Their role in the record (`participant.role.text`): patient, caregiver or clinician.
        public init(name: String, role: String) {
            self.name = name
            self.role = role
        }
    }

    /// The base of OpenCareKit's extension URLs.
    public static let extensionBase = "https://opencarekit.org/fhir/StructureDefinition/"
    static let taskExtension = extensionBase + "task"
    static let occurrenceExtension = extensionBase + "occurrence"
    static let valueIndexExtension = extensionBase + "value-index"
    static let scheduleElementExtension = extensionBase + "schedule-element"
    static let kindExtension = extensionBase + "value-kind"
    static let impactsAdherenceExtension = extensionBase + "impacts-adherence"
    static let timeZoneExtension = extensionBase + "time-zone"
    static let consentTitleExtension = extensionBase + "consent-title"
    static let consentVersionExtension = extensionBase + "consent-version"
    /// A task's `userInfo` (its card style, survey, alert rules …) as a JSON object of strings, on each activity.
    static let userInfoExtension = extensionBase + "task-user-info"
    static let carePlanSystem = "urn:opencarekit:care-plan"
    static let carePlanCatalog = "urn:opencarekit:care-plan-catalog:"
    static let ucum = "http://unitsofmeasure.org"

    /// The record's id: the Patient's id.
    public var patientID: String
    /// The record's care team: exported as one CareTeam (`<patientID>-team`), left out when there is no member.
    public var members: [Member]
    /// The surveys of survey tasks, by task id: their outcomes become QuestionnaireResponses.
    public var surveys: [String: OCKSurvey]
    /// The task whose outcomes hold signed consents (the onboarding).
    public var consentTaskID: String?
    /// The record's time zone (an IANA identifier), kept on the Patient.
    public var timeZone: String?
    /// The name of the record's care plan in the server's catalog (the demo's, say), kept as the CarePlans'
    /// `instantiatesUri`: it tells an importing server which surveys and cards the record has.
    public var carePlanName: String?
    /// The messages and triage items the reader sees (none by default).
    public var teamWork = TeamWork()
    /// The moment of the export: the Bundle's `timestamp` (and the `authored` of a QuestionnaireResponse whose
    /// outcome carries no date).
    public var now: Date

    /// An export of record `patientID`; set ``FHIRExport/teamWork`` as well to add the messages and triage items its
    /// reader sees.
    ///
    /// For example:
    /// ```swift
    /// let export = FHIRExport(patientID: record.id.description,
    ///                         members: [.init(name: "Dr. Rivera", role: "clinician")],
    ///                         surveys: ["phq-9": phq9], timeZone: "Europe/Paris", now: Date())
    /// let bundle = try await export.bundle(of: store)
    /// let body = Data(bundle.text.utf8)
    /// ```
    ///
    /// - Parameters:
    ///   - patientID: The record's id, which becomes the Patient's id, the one every reference to the Patient names.
    ///   - members: The record's care team, exported as a CareTeam (none by default: no CareTeam).
    ///   - surveys: The survey of each survey task, by task id: those tasks' outcomes become QuestionnaireResponses,
    ///     with a Questionnaire per survey (none by default).
    ///   - consentTaskID: The task whose outcomes hold signed consents, exported as Consents (none by default).
    ///   - timeZone: The record's time zone, an IANA identifier kept in an extension on the Patient.
    ///   - carePlanName: The name of the record's care plan in the server's catalog, kept as the CarePlans'
    ///     `instantiatesUri`.
    ///   - now: The moment of the export (the Bundle's `timestamp`).
    public init(patientID: String, members: [Member] = [], surveys: [String: OCKSurvey] = [:], consentTaskID: String? = nil,
                timeZone: String? = nil, carePlanName: String? = nil, now: Date) {
        self.patientID = patientID
        self.members = members
        self.surveys = surveys
        self.consentTaskID = consentTaskID
        self.timeZone = timeZone
        self.carePlanName = carePlanName
        self.now = now
    }

    var patientReference: FHIRJSON { .object(("reference", .string("Patient/\(patientID)"))) }

    /// The record of `store` as a Bundle.
    public func bundle(of store: OCKStore) async throws -> FHIRJSON {
        .object(
            ("resourceType", "Bundle"),
            ("type", "collection"),
            ("timestamp", .string(Self.dateTime(now))),
            ("entry", .array(try await resources(of: store).map { .object(("resource", $0)) })))
    }

    /// The record of `store` as resources, the Patient first; with `type`, only the resources of that type (what a
    /// read or search of it needs: a Patient's read reads no outcome, a CarePlan search none either).
    public func resources(of store: OCKStore, only type: String? = nil) async throws -> [FHIRJSON] {
        func wanted(_ types: String...) -> Bool { type.map(types.contains) ?? true }
        // The care team's work is the directory's, not the store's.
        if let type, ["Communication", "Flag", "Task"].contains(type) { return teamResources(only: type) }
        var resources: [FHIRJSON] = []
        if wanted("Patient") { resources.append(self.patient(try await store.fetchPatients(query: OCKPatientQuery()).first)) }
        guard wanted("CarePlan", "Observation", "QuestionnaireResponse", "Questionnaire", "Consent", "CareTeam") else { return resources }
        // Each task's newest version (over all time: one whose schedule has ended too).
        let tasks = try await store.fetchTasks(query: OCKTaskQuery(dateInterval: DateInterval(start: .distantPast, end: .distantFuture)))
        if wanted("CarePlan") { resources += carePlans(try await store.fetchCarePlans(query: OCKCarePlanQuery()), tasks: tasks) }
        guard wanted("Observation", "QuestionnaireResponse", "Questionnaire", "Consent", "CareTeam") else { return resources }
        let outcomes = wanted("Observation", "QuestionnaireResponse", "Questionnaire", "Consent")
            ? try await store.fetchOutcomes(query: OCKOutcomeQuery()) : []
        var tasksByUUID = Dictionary(tasks.map { ($0.uuid, $0) }) { first, _ in first }
        // Outcomes may record older versions of their tasks.
        let older = Set(outcomes.map(\.taskUUID)).subtracting(tasksByUUID.keys)
        if !older.isEmpty {
            var query = OCKTaskQuery()
            query.uuids = Array(older)
            for task in try await store.fetchTasks(query: query) { tasksByUUID[task.uuid] = task }
        }
        var questionnaires: [String: FHIRJSON] = [:]
        for outcome in outcomes.sorted(by: { ($0.createdDate ?? .distantPast, $0.uuid.uuidString) < ($1.createdDate ?? .distantPast, $1.uuid.uuidString) }) {
            guard let task = tasksByUUID[outcome.taskUUID] else { continue }
            if task.id == consentTaskID, let consent = OCKSignedConsent(values: outcome.values) {
                resources.append(self.consent(consent, outcome: outcome, task: task))
            } else if let survey = surveys[task.id] {
                questionnaires[survey.id] = questionnaires[survey.id] ?? questionnaire(survey)
                resources.append(questionnaireResponse(outcome, task: task, survey: survey))
            } else {
                resources += observations(outcome, task: task)
            }
        }
        resources += questionnaires.keys.sorted().compactMap { questionnaires[$0] }
        if !members.isEmpty { resources.append(careTeam()) }
        resources += teamResources()
        return type.map { type in resources.filter { $0["resourceType"]?.string == type } } ?? resources
    }

    /// A page of the record's Observations — `count` of them after `cursor` (the `next` of the page before) or from
    /// `offset`, in the order `resources(of:)` lists them — found in the store's query on its index of creation order: a
    /// search costs what it returns, whatever the size of the record. How many there are in all is counted only when
    /// `counting` (FHIR's `_total=accurate`): a count visits every match. `conditions` filter on each Observation's
    /// `effectiveDateTime`.
    package func observationPage(of store: OCKStore, conditions: [FHIRSearch.DateFilter], after cursor: OCKOutcomeValueCursor? = nil,
                                 offset: Int = 0, count: Int, counting: Bool = false) async throws
        -> (total: Int?, page: [FHIRJSON], next: OCKOutcomeValueCursor?) {
        // As `resources(of:)` sorts them: a survey task's outcomes are QuestionnaireResponses, and a consent task's
        // outcomes that hold a signed consent are Consents; every other outcome's values are Observations.
        let consents = consentTaskID.flatMap { id in
            surveys[id] == nil ? (taskID: id, test: { @Sendable (outcome: OCKOutcome) in OCKSignedConsent(values: outcome.values) != nil }) : nil
        }
        let found = try await store.outcomeValuePage(
            excludingTaskIDs: Array(surveys.keys), excludingOutcomes: consents, conditions: conditions.map(\.storeCondition),
            after: cursor, offset: offset, limit: count, counting: counting)
        let tasksByUUID = Dictionary(found.tasks.map { ($0.uuid, $0) }) { first, _ in first }
        var observations: [String: FHIRJSON] = [:]
        for outcome in found.outcomes {
            guard let task = tasksByUUID[outcome.taskUUID] else { continue }
            for observation in self.observations(outcome, task: task) {
                if let id = observation["id"]?.string { observations[id] = observation }
            }
        }
        return (found.total, found.keys.compactMap { observations["\($0.outcome.uuidString.lowercased())-\($0.position)"] }, found.next)
    }

    // MARK: Resources

    func patient(_ patient: OCKPatient?) -> FHIRJSON {
        let name = patient?.name
        let given = [name?.givenName, name?.middleName].compactMap { $0 }
        let gender: String? = switch patient?.sex {
        case .male?: "male"
        case .female?: "female"
        case .other?: "other"
        case nil: nil
        }
        var birthDate: String?
        if let birthday = patient?.birthday {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = patient?.timezone ?? .gmt
            let parts = calendar.dateComponents([.year, .month, .day], from: birthday)
            birthDate = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        return .object(
            ("resourceType", "Patient"),
            ("id", .string(patientID)),
            ("extension", timeZone.map { .array([.object(("url", .string(Self.timeZoneExtension)), ("valueString", .string($0)))]) }),
            ("identifier", patient.map { .array([.object(("system", "urn:opencarekit:patient"), ("value", .string($0.id)))]) }),
            ("name", name.map { name in
                .array([.object(
                    ("family", name.familyName.map(FHIRJSON.string)),
                    ("given", .array(given.map(FHIRJSON.string))))])
            }),
            ("gender", gender.map(FHIRJSON.string)),
            ("birthDate", birthDate.map(FHIRJSON.string)))
    }

    func carePlans(_ plans: [OCKCarePlan], tasks: [OCKTask]) -> [FHIRJSON] {
        var byPlan: [UUID?: [OCKTask]] = [:]
        for task in tasks { byPlan[task.carePlanUUID.flatMap { uuid in plans.contains { $0.uuid == uuid } ? uuid : nil }, default: []].append(task) }
        var resources = plans.map { plan in
            carePlan(id: plan.uuid.uuidString.lowercased(), ockID: plan.id, title: plan.title, start: plan.effectiveDate, tasks: byPlan[plan.uuid] ?? [])
        }
        // Tasks of no care plan form one of their own.
        if let loose = byPlan[nil], !loose.isEmpty {
            resources.append(carePlan(id: "\(patientID)-tasks", ockID: nil, title: nil, start: loose.map(\.effectiveDate).min() ?? now, tasks: loose))
        }
        return resources
    }

    func carePlan(id: String, ockID: String?, title: String?, start: Date, tasks: [OCKTask]) -> FHIRJSON {
        let activities = tasks.sorted { $0.id < $1.id }.flatMap { task in
            task.schedule.elements.map { element in activity(task, element) }
        }
        return .object(
            ("resourceType", "CarePlan"),
            ("id", .string(id)),
            ("identifier", ockID.map { .array([.object(("system", .string(Self.carePlanSystem)), ("value", .string($0)))]) }),
            ("instantiatesUri", carePlanName.map { .array([.string(Self.carePlanCatalog + $0)]) }),
            ("status", "active"),
            ("intent", "plan"),
            ("title", title.map(FHIRJSON.string)),
            ("subject", patientReference),
            ("period", .object(("start", .string(Self.dateTime(start))))),
            ("activity", .array(activities)))
    }

    func activity(_ task: OCKTask, _ element: OCKScheduleElement) -> FHIRJSON {
        let exact = (try? JSONEncoder.sortedKeys.encode(element)).map { String(decoding: $0, as: UTF8.self) }
        return .object(("detail", .object(
            ("extension", .array([
                .object(("url", .string(Self.taskExtension)), ("valueString", .string(task.id))),
                .object(("url", .string(Self.scheduleElementExtension)), ("valueString", exact.map(FHIRJSON.string))),
                .object(("url", .string(Self.impactsAdherenceExtension)), ("valueBoolean", .bool(task.impactsAdherence))),
            ] + userInfo(task))),
            ("kind", "Task"),
            ("code", .object(("text", .string(task.title ?? task.id)))),
            ("status", "scheduled"),
            ("scheduledTiming", timing(element)),
            ("description", task.instructions.map(FHIRJSON.string)))))
    }

    /// The task's `userInfo`, when it has one, as an extension.
    func userInfo(_ task: OCKTask) -> [FHIRJSON] {
        guard let info = task.userInfo, !info.isEmpty,
              let text = (try? JSONEncoder.sortedKeys.encode(info)).map({ String(decoding: $0, as: UTF8.self) }) else { return [] }
        return [.object(("url", .string(Self.userInfoExtension)), ("valueString", .string(text)))]
    }

    /// FHIR's `Timing` of a schedule element: every `period` `periodUnit` from its start (at its wall-clock time for
    /// days, weeks, months and years), until its end, each event lasting its duration. An interval of more than one
    /// unit (1 week and 1 day) has no repeat in FHIR; the exact element is in the activity's extension.
    func timing(_ element: OCKScheduleElement) -> FHIRJSON {
        let interval = element.interval
        let units: [(Int?, String)] = [(interval.year, "a"), (interval.month, "mo"), (interval.weekOfYear, "wk"), (interval.day, "d"),
                                       (interval.hour, "h"), (interval.minute, "min"), (interval.second, "s")]
        let used = units.compactMap { value, unit in value.flatMap { $0 != 0 ? ($0, unit) : nil } }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = element.timeZone
        let time = calendar.dateComponents([.hour, .minute, .second], from: element.start)
        let isAllDay = element.duration == .allDay
        let wallClock = used.count == 1 && ["a", "mo", "wk", "d"].contains(used[0].1) && !isAllDay
        var duration: (Double, String)?
        if case let .seconds(seconds) = element.duration, seconds > 0 {
            duration = seconds.truncatingRemainder(dividingBy: 3_600) == 0 ? (seconds / 3_600, "h")
                : seconds.truncatingRemainder(dividingBy: 60) == 0 ? (seconds / 60, "min") : (seconds, "s")
        }
        let repetition: FHIRJSON = .object(
            ("boundsPeriod", .object(("start", .string(Self.dateTime(element.start))), ("end", element.end.map { .string(Self.dateTime($0)) }))),
            ("duration", duration.map { .decimal($0.0) }),
            ("durationUnit", duration.map { .string($0.1) }),
            ("frequency", used.count == 1 ? .integer(1) : nil),
            ("period", used.count == 1 ? .decimal(Double(used[0].0)) : nil),
            ("periodUnit", used.count == 1 ? .string(used[0].1) : nil),
            ("timeOfDay", wallClock ? .array([.string(String(format: "%02d:%02d:%02d", time.hour ?? 0, time.minute ?? 0, time.second ?? 0))]) : nil))
        return .object(("repeat", repetition))
    }

    func observations(_ outcome: OCKOutcome, task: OCKTask) -> [FHIRJSON] {
        outcome.values.enumerated().compactMap { index, value in
            let valueMember: (String, FHIRJSON)
            switch value.value {
            // R4's integer has 32 bits: a larger one is a Quantity (read back as a number).
            case let number as Int: valueMember = value.units == nil && FHIRDatatypes.integers.contains(number)
                ? ("valueInteger", .integer(number)) : ("valueQuantity", quantity(Double(number), value.units))
            case let number as Double: valueMember = ("valueQuantity", quantity(number, value.units))
            case let flag as Bool: valueMember = ("valueBoolean", .bool(flag))
            case let text as String: valueMember = ("valueString", .string(text))
            case let date as Date: valueMember = ("valueDateTime", .string(Self.dateTime(date)))
            default: return nil
            }
            return .object(
                ("resourceType", "Observation"),
                ("id", .string("\(outcome.uuid.uuidString.lowercased())-\(index)")),
                ("extension", .array(outcomeExtensions(task: task, outcome: outcome, valueIndex: index, kind: value.kind))),
                ("status", "final"),
                ("code", .object(("text", .string([task.title ?? task.id, value.kind].compactMap { $0 }.joined(separator: ": "))))),
                ("subject", patientReference),
                ("basedOn", task.carePlanUUID.map { .array([.object(("reference", .string("CarePlan/\($0.uuidString.lowercased())")))]) }),
                ("effectiveDateTime", .string(Self.dateTime(value.createdDate))),
                valueMember,
                ("note", outcome.notes.map { notes in .array(notes.compactMap { note in note.content.map { .object(("text", .string($0))) } }) }))
        }
    }

    func outcomeExtensions(task: OCKTask, outcome: OCKOutcome, valueIndex: Int?, kind: String?) -> [FHIRJSON] {
        [
            .object(("url", .string(Self.taskExtension)), ("valueString", .string(task.id))),
            .object(("url", .string(Self.occurrenceExtension)), ("valueInteger", .integer(outcome.taskOccurrenceIndex))),
            valueIndex.map { .object(("url", .string(Self.valueIndexExtension)), ("valueInteger", .integer($0))) },
            kind.map { .object(("url", .string(Self.kindExtension)), ("valueString", .string($0))) },
        ].compactMap { $0 }
    }

    /// A quantity with its UCUM code where the unit is one UCUM knows.
    func quantity(_ value: Double, _ unit: String?) -> FHIRJSON {
        let code = unit.flatMap { Self.ucumCodes[$0.lowercased()] }
        return .object(
            ("value", .decimal(value)),
            ("unit", unit.map(FHIRJSON.string)),
            ("system", code.map { _ in .string(Self.ucum) }),
            ("code", code.map(FHIRJSON.string)))
    }

    /// Units written in care plans, by their UCUM code.
    static let ucumCodes: [String: String] = [
        "kg": "kg", "g": "g", "mg": "mg", "mcg": "ug", "µg": "ug", "lb": "[lb_av]", "lbs": "[lb_av]",
        "ml": "mL", "l": "L", "cm": "cm", "m": "m", "km": "km", "mmhg": "mm[Hg]", "bpm": "/min", "%": "%",
        "°c": "Cel", "°f": "[degF]", "h": "h", "hours": "h", "hour": "h", "min": "min", "minutes": "min", "s": "s",
        "steps": "{steps}", "glasses": "{glasses}", "doses": "{doses}",
    ]

    func questionnaire(_ survey: OCKSurvey) -> FHIRJSON {
        let items: [FHIRJSON] = survey.steps.compactMap { step in
            guard case let .question(prompt, format) = step.kind else { return nil }
            let (type, options): (String, [FHIRJSON]) = switch format {
            case .scale: ("integer", [])
            case .numeric: ("decimal", [])
            case let .singleChoice(choices), let .multipleChoice(choices):
                ("choice", choices.map { .object(("valueCoding", .object(("code", .string($0.id)), ("display", .string($0.text))))) })
            case .text: ("text", [])
            case .dateTime: ("dateTime", [])
            case .yesNo: ("boolean", [])
            }
            var repeats = false
            if case .multipleChoice = format { repeats = true }
            return .object(
                ("linkId", .string(step.id)),
                ("text", .string(prompt)),
                ("type", .string(type)),
                ("repeats", repeats ? .bool(true) : nil),
                ("answerOption", .array(options)))
        }
        return .object(
            ("resourceType", "Questionnaire"),
            ("id", .string(Self.fhirID(survey.id))),
            ("url", .string(Self.questionnaireURL(survey))),
            ("status", "active"),
            ("title", .string(survey.title)),
            ("item", .array(items)))
    }

    static func questionnaireURL(_ survey: OCKSurvey) -> String { "urn:opencarekit:survey:\(fhirID(survey.id))" }

    func questionnaireResponse(_ outcome: OCKOutcome, task: OCKTask, survey: OCKSurvey) -> FHIRJSON {
        var items: [FHIRJSON] = []
        for step in survey.steps {
            guard case let .question(prompt, _) = step.kind else { continue }
            let answers: [FHIRJSON] = outcome.values.filter { $0.kind == step.id }.compactMap { value in
                switch value.value {
                case let number as Int: FHIRDatatypes.integers.contains(number) ? .object(("valueInteger", .integer(number)))
                    : .object(("valueDecimal", .decimal(Double(number))))
                case let number as Double: .object(("valueDecimal", .decimal(number)))
                case let flag as Bool: .object(("valueBoolean", .bool(flag)))
                case let date as Date: .object(("valueDateTime", .string(Self.dateTime(date))))
                case let text as String:
                    if case let .question(_, format) = step.kind, case .singleChoice = format {
                        .object(("valueCoding", .object(("code", .string(text)))))
                    } else if case let .question(_, format) = step.kind, case .multipleChoice = format {
                        .object(("valueCoding", .object(("code", .string(text)))))
                    } else {
                        .object(("valueString", .string(text)))
                    }
                default: nil
                }
            }
            guard !answers.isEmpty else { continue }
            items.append(.object(("linkId", .string(step.id)), ("text", .string(prompt)), ("answer", .array(answers))))
        }
        return .object(
            ("resourceType", "QuestionnaireResponse"),
            ("id", .string(outcome.uuid.uuidString.lowercased())),
            ("extension", .array(outcomeExtensions(task: task, outcome: outcome, valueIndex: nil, kind: nil))),
            ("basedOn", task.carePlanUUID.map { .array([.object(("reference", .string("CarePlan/\($0.uuidString.lowercased())")))]) }),
            ("questionnaire", .string(Self.questionnaireURL(survey))),
            ("status", "completed"),
            ("subject", patientReference),
            ("authored", .string(Self.dateTime(outcome.values.first?.createdDate ?? outcome.createdDate ?? now))),
            ("item", .array(items)))
    }

    func consent(_ consent: OCKSignedConsent, outcome: OCKOutcome, task: OCKTask) -> FHIRJSON {
        .object(
            ("resourceType", "Consent"),
            ("id", .string(outcome.uuid.uuidString.lowercased())),
            ("extension", .array(outcomeExtensions(task: task, outcome: outcome, valueIndex: nil, kind: nil) + [
                .object(("url", .string(Self.consentTitleExtension)), ("valueString", .string(consent.documentTitle))),
                .object(("url", .string(Self.consentVersionExtension)), ("valueString", .string(consent.documentVersion))),
            ])),
            ("status", "active"),
            ("scope", .object(("coding", .array([.object(
                ("system", "http://terminology.hl7.org/CodeSystem/consentscope"), ("code", "research"), ("display", "Research"))])))),
            ("category", .array([.object(("coding", .array([.object(
                ("system", "http://loinc.org"), ("code", "59284-0"), ("display", "Patient Consent"))])))])),
            ("patient", patientReference),
            ("dateTime", .string(Self.dateTime(consent.signedDate))),
            ("performer", .array([.object(("display", .string(consent.signerName)))])),
            ("sourceAttachment", .object(
                ("contentType", "text/plain; charset=utf-8"),
                ("data", .string(Data(consent.documentText.utf8).base64EncodedString())),
                ("title", .string("\(consent.documentTitle), version \(consent.documentVersion)")))),
            ("policyRule", .object(("text", .string("\(consent.documentTitle), version \(consent.documentVersion); "
                + "SHA-256 of its text \(consent.textSHA256)")))))
    }

    func careTeam() -> FHIRJSON {
        .object(
            ("resourceType", "CareTeam"),
            ("id", .string("\(patientID)-team")),
            ("status", "active"),
            ("subject", patientReference),
            ("participant", .array(members.map { member in
                .object(("role", .array([.object(("text", .string(member.role)))])), ("member", .object(("display", .string(member.name)))))
            })))
    }

    // MARK: Values

    /// An instant as FHIR writes it: UTC, to the millisecond.
    static func dateTime(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
        let whole = Date(timeIntervalSince1970: (milliseconds / 1_000).rounded(.down))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let fraction = Int(milliseconds - (milliseconds / 1_000).rounded(.down) * 1_000)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
                      parts.minute ?? 0, parts.second ?? 0, fraction)
    }

    /// `text` as a FHIR id: letters, digits, `-` and `.`, at most 64 (others become `-`).
    static func fhirID(_ text: String) -> String {
        let mapped = String(text.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == ".") ? Character(scalar) : "-"
        })
        return String(mapped.prefix(64)).isEmpty ? "survey" : String(mapped.prefix(64))
    }
}

extension JSONEncoder {
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
