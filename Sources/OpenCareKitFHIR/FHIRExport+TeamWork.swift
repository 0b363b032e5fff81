import Foundation
import OpenCareKitDirectory
import OpenCareKitStore

// The care team's work as FHIR R4, the way Medplum routes it: each alert a record's rules raised is a `Flag`, and the
// triage item that works it a `Task` whose `focus` is the Flag (status, priority, owner, the resolution as a note);
// each thread of messages is a `Communication` header (its subject as `topic`) and each message a `Communication`
// `partOf` it. Who may see a thread decides whether it is exported at all: the export is made for one reader.
extension FHIRExport {
    /// The messages and triage items a reader of the record sees, to export with it.
    public struct TeamWork: Sendable {
        /// The threads of messages the reader may see, each with its messages: a thread is exported as a
        /// Communication header (its subject as `topic`), each message as a Communication `partOf` it.
        public var threads: [CareTeamWork.Thread]
        /// The triage items of the record's alerts: each is exported as a Flag (the alert) and a Task whose `focus`
        /// is that Flag (status, priority, owner, and the resolution as a note).
        public var triageItems: [CareTriageItem]
        /// The names of the accounts they name.
        public var names: [CareAccountID: String]

        /// The team's work to export with the record (nothing by default).
        ///
        /// - Parameters:
        ///   - threads: The threads the reader may see, with their messages.
        ///   - triageItems: The record's triage items the reader sees, open or resolved.
        ///   - names: The display names of the accounts the threads and items name. One left out is shown, as a
        ///     message's author, by the name stored with the message; as a Task's owner, as "A clinician of the
        ///     record"; as who acknowledged or resolved an item, not at all.
        public init(threads: [CareTeamWork.Thread] = [], triageItems: [CareTriageItem] = [], names: [CareAccountID: String] = [:]) {
            self.threads = threads
            self.triageItems = triageItems
            self.names = names
        }
    }

    static let audienceSystem = extensionBase.replacingOccurrences(of: "StructureDefinition", with: "CodeSystem") + "message-audience"
    static let positionExtension = extensionBase + "message-position"
    static let triageItemExtension = extensionBase + "triage-item"
    static let alertCauseExtension = extensionBase + "alert-cause"
    static let alertTaskExtension = extensionBase + "alert-task"
    static let alertTaskTitleExtension = extensionBase + "alert-task-title"
    static let alertRuleIDExtension = extensionBase + "alert-rule-id"
    static let alertRuleExtension = extensionBase + "alert-rule"
    static let alertObservedExtension = extensionBase + "alert-observed"
    static let alertEvidenceExtension = extensionBase + "alert-evidence"
    static let alertOutcomesExtension = extensionBase + "alert-outcomes"
    static let alertLatestExtension = extensionBase + "alert-latest"
    static let raisedCountExtension = extensionBase + "raised-count"
    static let acknowledgedExtension = extensionBase + "acknowledged"

    /// The Communications, Flags and Tasks of `teamWork` (of `only` that type, when given).
    func teamResources(only type: String? = nil) -> [FHIRJSON] {
        func wanted(_ name: String) -> Bool { type.map { $0 == name } ?? true }
        var resources: [FHIRJSON] = []
        if wanted("Flag") { resources += teamWork.triageItems.map(flag) }
        if wanted("Task") { resources += teamWork.triageItems.map(task) }
        if wanted("Communication") {
            for entry in teamWork.threads {
                resources.append(threadHeader(entry.thread))
                resources += entry.messages.map { communication($0, in: entry.thread) }
            }
        }
        return resources
    }

    static func stringExtension(_ url: String, _ value: String?) -> FHIRJSON? {
        value.map { .object(("url", .string(url)), ("valueString", .string($0))) }
    }

    static func listText(_ list: [String]) -> String {
        String(decoding: (try? JSONEncoder.sortedKeys.encode(list)) ?? Data("[]".utf8), as: UTF8.self)
    }

    func flag(_ item: CareTriageItem) -> FHIRJSON {
        let alert = item.alert
        return .object(
            ("resourceType", "Flag"),
            ("id", .string(item.id.description)),
            ("extension", .array([
                Self.stringExtension(Self.alertCauseExtension, alert.cause),
                Self.stringExtension(Self.alertTaskExtension, alert.taskID),
                Self.stringExtension(Self.alertTaskTitleExtension, alert.taskTitle),
                Self.stringExtension(Self.alertRuleIDExtension, alert.ruleID),
                Self.stringExtension(Self.alertRuleExtension, alert.rule),
                .object(("url", .string(Self.alertObservedExtension)), ("valueDecimal", .decimal(alert.observed))),
                Self.stringExtension(Self.alertEvidenceExtension, Self.listText(alert.evidence)),
                Self.stringExtension(Self.alertOutcomesExtension, Self.listText(alert.outcomeIDs)),
                .object(("url", .string(Self.alertLatestExtension)), ("valueDateTime", .string(Self.dateTime(alert.latest)))),
            ].compactMap { $0 })),
            ("status", .string(item.isOpen ? "active" : "inactive")),
            ("category", .array([.object(("coding", .array([.object(
                ("system", "http://terminology.hl7.org/CodeSystem/flag-category"), ("code", "clinical"), ("display", "Clinical"))])))])),
            ("code", .object(("text", .string("\(alert.taskTitle ?? alert.taskID): \(alert.ruleID)")))),
            ("subject", patientReference),
            ("period", .object(("start", .string(Self.dateTime(item.raisedDate))), ("end", item.resolvedDate.map { .string(Self.dateTime($0)) }))))
    }

    func task(_ item: CareTriageItem) -> FHIRJSON {
        let status = switch item.status {
        case .new: "requested"
        case .acknowledged: "accepted"
        case .resolved: "completed"
        }
        let names = teamWork.names
        let acknowledged: FHIRJSON? = item.acknowledgedDate.map { date in
            .object(("url", .string(Self.acknowledgedExtension)), ("extension", .array([
                .object(("url", "date"), ("valueDateTime", .string(Self.dateTime(date)))),
                item.acknowledgedBy.flatMap { names[$0] }.map { .object(("url", "by"), ("valueString", .string($0))) },
            ].compactMap { $0 })))
        }
        return .object(
            ("resourceType", "Task"),
            ("id", .string(item.id.description)),
            ("extension", .array([
                .object(("url", .string(Self.raisedCountExtension)), ("valueInteger", .integer(item.raisedCount))),
                acknowledged,
            ].compactMap { $0 })),
            ("status", .string(status)),
            ("intent", "order"),
            ("priority", .string(item.alert.priority.rawValue)),
            ("code", .object(("text", "Triage"))),
            ("focus", .object(("reference", .string("Flag/\(item.id)")))),
            ("for", patientReference),
            ("executionPeriod", .object(("start", .string(Self.dateTime(item.raisedDate))),
                                        ("end", item.resolvedDate.map { .string(Self.dateTime($0)) }))),
            ("authoredOn", .string(Self.dateTime(item.raisedDate))),
            ("lastModified", .string(Self.dateTime(max(item.updatedDate, item.acknowledgedDate ?? .distantPast, item.resolvedDate ?? .distantPast)))),
            ("owner", item.owner.map { owner in .object(("display", .string(names[owner] ?? "A clinician of the record"))) }),
            ("note", item.resolutionNote.map { note in
                .array([.object(("authorString", item.resolvedBy.flatMap { names[$0] }.map(FHIRJSON.string)),
                                ("time", item.resolvedDate.map { .string(Self.dateTime($0)) }),
                                ("text", .string(note)))])
            }))
    }

    func audience(_ audience: CareThread.Audience) -> FHIRJSON {
        .array([.object(("coding", .array([.object(("system", .string(Self.audienceSystem)), ("code", .string(audience.rawValue)))])))])
    }

    func threadHeader(_ thread: CareThread) -> FHIRJSON {
        .object(
            ("resourceType", "Communication"),
            ("id", .string(thread.id.description)),
            ("extension", .array([Self.stringExtension(Self.triageItemExtension, thread.triageItem?.description)].compactMap { $0 })),
            ("status", "in-progress"),
            ("category", audience(thread.audience)),
            ("subject", patientReference),
            ("topic", .object(("text", .string(thread.subject)))),
            ("sent", .string(Self.dateTime(thread.startedDate))))
    }

    func communication(_ message: CareMessage, in thread: CareThread) -> FHIRJSON {
        let name = message.author.flatMap { teamWork.names[$0] } ?? message.authorName
        return .object(
            ("resourceType", "Communication"),
            ("id", .string(message.id.description)),
            ("extension", .array([.object(("url", .string(Self.positionExtension)), ("valueInteger", .integer(message.position)))])),
            ("partOf", .array([.object(("reference", .string("Communication/\(thread.id)")))])),
            ("status", "completed"),
            ("category", audience(thread.audience)),
            ("subject", patientReference),
            ("sent", .string(Self.dateTime(message.sentDate))),
            ("sender", name.map { .object(("display", .string($0))) }),
            ("payload", .array([.object(("contentString", .string(message.body)))])))
    }
}
