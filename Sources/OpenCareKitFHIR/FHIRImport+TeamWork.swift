import Foundation
import OpenCareKitDirectory
import OpenCareKitStore

// Reads back what `FHIRExport+TeamWork` writes: Flags with their Tasks as triage items, Communications as threads
// (the headers) and their messages (`partOf` a header). The people who worked them are not accounts here: a message
// keeps its sender's name; an item, when it was acknowledged and resolved.
extension Reader {
    static let flagStatus: Set = ["active", "inactive", "entered-in-error"]
    static let taskStatus: Set = ["draft", "requested", "received", "accepted", "rejected", "ready", "cancelled", "in-progress", "on-hold",
                                  "failed", "completed", "entered-in-error"]
    static let taskPriority: Set = ["routine", "urgent", "asap", "stat"]
    static let communicationStatus: Set = ["preparation", "in-progress", "not-done", "on-hold", "stopped", "completed", "entered-in-error",
                                           "unknown"]

    func teamWork(_ resources: [(String, FHIRJSON)]) throws(FHIRImport.Problem) -> CareTeamWork {
        var items: [String: CareTriageItem] = [:]
        var itemOrder: [String] = []
        for (path, resource) in resources where resource["resourceType"]?.string == "Flag" {
            let id = try string(resource, "id", at: path) ?? ""
            let status = try code(resource, "status", at: path, in: Self.flagStatus) ?? "active"
            guard status != "entered-in-error" else { continue }
            guard items[id] == nil else { throw Problem(code: "duplicate", message: "Two Flags have the same id.", expression: "\(path).id") }
            func text(_ url: String, required: Bool = true) throws(FHIRImport.Problem) -> String? {
                guard let value = extensionValue(resource, url)?.string else {
                    if required { throw Problem(code: "required", message: "A Flag names its alert's \(url.split(separator: "/").last ?? "").",
                                                expression: "\(path).extension") }
                    return nil
                }
                return value
            }
            func list(_ url: String) throws(FHIRImport.Problem) -> [String] {
                guard let data = try text(url)?.data(using: .utf8), let list = try? JSONDecoder().decode([String].self, from: data) else {
                    throw Problem(code: "value", message: "An alert's evidence is a JSON list of strings.", expression: "\(path).extension")
                }
                return list
            }
            guard let observed = extensionValue(resource, FHIRExport.alertObservedExtension)?.number, observed.isFinite else {
                throw Problem(code: "required", message: "A Flag names what its alert observed.", expression: "\(path).extension")
            }
            let raised = try date(resource["period"]?["start"]?.string, at: "\(path).period.start") ?? Date(timeIntervalSince1970: 0)
            let latest = try date(extensionValue(resource, FHIRExport.alertLatestExtension)?.string, at: "\(path).extension") ?? raised
            let alert = CareTriageAlert(
                cause: try text(FHIRExport.alertCauseExtension) ?? "", taskID: try text(FHIRExport.alertTaskExtension) ?? "",
                taskTitle: try text(FHIRExport.alertTaskTitleExtension, required: false), ruleID: try text(FHIRExport.alertRuleIDExtension) ?? "",
                rule: try text(FHIRExport.alertRuleExtension) ?? "{}", priority: .routine, observed: observed,
                evidence: try list(FHIRExport.alertEvidenceExtension), outcomeIDs: try list(FHIRExport.alertOutcomesExtension), latest: latest)
            let resolved = status == "inactive"
            items[id] = CareTriageItem(id: RandomIdentifier(id) ?? .random(), record: .random(), alert: alert, status: resolved ? .resolved : .new,
                                       raisedDate: raised, updatedDate: raised, raisedCount: 1,
                                       resolvedDate: resolved ? try date(resource["period"]?["end"]?.string, at: "\(path).period.end") ?? raised : nil)
            itemOrder.append(id)
        }
        var worked = Set<String>()
        for (path, resource) in resources where resource["resourceType"]?.string == "Task" {
            guard let focus = resource["focus"]?["reference"]?.string, focus.hasPrefix("Flag/"), var item = items[String(focus.dropFirst(5))] else {
                throw Problem(code: "invalid", message: "A Task works a Flag of the Bundle (focus: Flag/…).", expression: "\(path).focus")
            }
            let flag = String(focus.dropFirst(5))
            guard worked.insert(flag).inserted else {
                throw Problem(code: "duplicate", message: "A Flag is worked by one Task.", expression: "\(path).focus")
            }
            let status = try code(resource, "status", at: path, in: Self.taskStatus) ?? "requested"
            item.status = switch status {
            case "completed", "cancelled", "failed", "rejected", "entered-in-error": .resolved
            case "accepted", "in-progress", "on-hold", "ready": .acknowledged
            default: .new
            }
            let priority = try code(resource, "priority", at: path, in: Self.taskPriority, required: false) ?? "routine"
            item.alert.priority = priority == "routine" ? .routine : .urgent
            item.raisedDate = try date(resource["authoredOn"]?.string, at: "\(path).authoredOn") ?? item.raisedDate
            item.updatedDate = try date(resource["lastModified"]?.string, at: "\(path).lastModified") ?? item.raisedDate
            item.raisedCount = try integer(extensionValue(resource, FHIRExport.raisedCountExtension), at: "\(path).extension").map { max(1, $0) } ?? 1
            if item.status != .new {
                let acknowledged = resource["extension"]?.array?.first { $0["url"]?.string == FHIRExport.acknowledgedExtension }
                let when = acknowledged?["extension"]?.array?.first { $0["url"]?.string == "date" }?["valueDateTime"]?.string
                item.acknowledgedDate = try date(when, at: "\(path).extension") ?? (item.status == .acknowledged ? item.updatedDate : nil)
            }
            if item.status == .resolved {
                let note = resource["note"]?.array?.first
                item.resolutionNote = note?["text"]?.string ?? "Resolved before the import."
                item.resolvedDate = try date(resource["executionPeriod"]?["end"]?.string ?? note?["time"]?.string, at: "\(path).executionPeriod")
                    ?? item.resolvedDate ?? item.updatedDate
            } else {
                item.resolvedDate = nil
            }
            items[flag] = item
        }

        // Threads: the headers first, then each message into its header's thread.
        var threads: [CareTeamWork.Thread] = []
        var threadIndex: [String: Int] = [:]
        var positions: [[Int?]] = []
        for (path, resource) in resources where resource["resourceType"]?.string == "Communication" && resource["partOf"] == nil {
            let id = try string(resource, "id", at: path) ?? ""
            guard threadIndex[id] == nil else { throw Problem(code: "duplicate", message: "Two threads have the same id.", expression: "\(path).id") }
            _ = try code(resource, "status", at: path, in: Self.communicationStatus)
            let audience = try self.audience(resource, at: path)
            guard let subject = resource["topic"]?["text"]?.string else {
                throw Problem(code: "required", message: "A thread's header has its subject as topic.text.", expression: "\(path).topic")
            }
            let started = try date(resource["sent"]?.string, at: "\(path).sent") ?? Date(timeIntervalSince1970: 0)
            let item = extensionValue(resource, FHIRExport.triageItemExtension)?.string.flatMap { items[$0]?.id }
            threadIndex[id] = threads.count
            threads.append(CareTeamWork.Thread(thread: CareThread(id: RandomIdentifier(id) ?? .random(), record: .random(), audience: audience,
                                                                  subject: subject, triageItem: item, startedBy: nil, startedDate: started,
                                                                  lastMessageDate: started, messageCount: 0), messages: []))
            positions.append([])
        }
        for (path, resource) in resources where resource["resourceType"]?.string == "Communication" && resource["partOf"] != nil {
            guard let parts = resource["partOf"]?.array, parts.count == 1, let reference = parts[0]["reference"]?.string,
                  reference.hasPrefix("Communication/"), let index = threadIndex[String(reference.dropFirst("Communication/".count))] else {
                throw Problem(code: "invalid", message: "A message is partOf one thread header of the Bundle (Communication/…).",
                              expression: "\(path).partOf")
            }
            _ = try code(resource, "status", at: path, in: Self.communicationStatus)
            guard try audience(resource, at: path) == threads[index].thread.audience else {
                throw Problem(code: "invalid", message: "A message has its thread's audience.", expression: "\(path).category")
            }
            guard let payload = resource["payload"]?.array, payload.count == 1, let body = payload[0]["contentString"]?.string else {
                throw Problem(code: "required", message: "A message has one payload, its text (contentString).", expression: "\(path).payload")
            }
            guard let sent = try date(resource["sent"]?.string, at: "\(path).sent") else {
                throw Problem(code: "required", message: "A message has the moment it was sent.", expression: "\(path).sent")
            }
            let position = try integer(extensionValue(resource, FHIRExport.positionExtension), at: "\(path).extension")
            threads[index].messages.append(CareMessage(id: .random(), thread: threads[index].thread.id, record: .random(), author: nil,
                                                       authorName: resource["sender"]?["display"]?.string, position: 0, body: body, sentDate: sent))
            positions[index].append(position)
        }
        // Each thread's messages in their order: by position where the Bundle gives it, else as they come.
        for index in threads.indices {
            let order = threads[index].messages.indices.sorted { lhs, rhs in
                (positions[index][lhs] ?? Int.max, lhs) < (positions[index][rhs] ?? Int.max, rhs)
            }
            threads[index].messages = order.enumerated().map { place, original in
                var message = threads[index].messages[original]
                message.position = place + 1
                return message
            }
        }
        return CareTeamWork(threads: threads, triageItems: itemOrder.compactMap { items[$0] })
    }

    func audience(_ resource: FHIRJSON, at path: String) throws(FHIRImport.Problem) -> CareThread.Audience {
        let code = resource["category"]?.array?.lazy.compactMap { $0["coding"]?.array }.joined()
            .first { $0["system"]?.string == FHIRExport.audienceSystem }?["code"]?.string
        // Without one, the narrower audience: a note another system kept for its clinicians stays theirs.
        guard let code else { return .careTeam }
        guard let audience = CareThread.Audience(rawValue: code) else {
            throw Problem(code: "value", message: "A thread's audience is everyone or care-team.", expression: "\(path).category")
        }
        return audience
    }
}
