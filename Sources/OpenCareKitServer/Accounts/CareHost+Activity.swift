import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI

/// "Who viewed or changed this record": the record's audit entries for its owner, newest first, and the same as
/// FHIR R4 AuditEvent resources in a Bundle. Entries name people by their accounts, never the record's data.
extension CareHost {
    static let activityPageSize = 50

    func addActivityRoutes(to routes: inout HostRoutes) {
        let host = self
        addRecordRoute(&routes, .get, "/activity", .page("audit-log", .readAuditLog)) { request, _, access in
            try await host.activityPage(request, access)
        }
        addRecordRoute(&routes, .get, "/activity/fhir", .page("audit-log", .readAuditLog, action: .execute)) { request, _, access in
            try await host.activityExport(request, access)
        }
    }

    /// The names of the accounts in `entries`.
    func names(in entries: [AuditEntry]) async throws -> [CareAccountID: String] {
        var names: [CareAccountID: String] = [:]
        for account in Set(entries.compactMap(\.draft.account)) {
            names[account] = try await directory.account(account).map { "\($0.name) (\($0.email))" } ?? account.description
        }
        return names
    }

    func activityPage(_ request: Request, _ access: RecordAccess) async throws -> Response {
        let render = renderContext(for: request)
        let language = render.localization.language
        let offset = min(max(0, request.uri.queryParameters.get("offset").flatMap { Int($0) } ?? 0), 1_000_000)
        let entries = try await directory.auditEntries(record: access.record, limit: Self.activityPageSize + 1, offset: offset)
        let names = try await names(in: entries)
        let base = "/records/\(access.record)"
        let header = [HostText.when, .who, .what, .whereFrom, .result].map { key in
            HTML.element("th", ["scope": "col"], [.text(key.text(language))])
        }
        return hostPage(request, title: HostText.activityTitle.text(language)) { _ in [
            .element("h1", [:], [.text(HostText.activityTitle.text(language))]),
            .element("p", [:], [.element("a", ["href": base + "/activity/fhir", "class": "ock-link-row", "download": "audit-events.json"],
                                         [.text(HostText.exportFHIR.text(language))])]),
            .element("div", ["class": "ock-table-scroll", "tabindex": "0", "role": "region", "aria-labelledby": "activity-caption"], [
                .element("table", ["class": "ock-activity"], [
                    .element("caption", ["id": "activity-caption", "class": "ock-visually-hidden"], [.text(HostText.activityTitle.text(language))]),
                    .element("thead", [:], [.element("tr", [:], header)]),
                    .element("tbody", [:], entries.prefix(Self.activityPageSize).map { entry in
                        let who = entry.draft.account.map { names[$0] ?? $0.description } ?? HostText.someoneElse.text(language)
                        return .element("tr", ["class": entry.draft.outcome == .denied ? "ock-denied" : "ock-allowed"], [
                            .element("td", [:], [.text(render.localization.shortDate(entry.draft.recorded) + " "
                                + render.localization.time(entry.draft.recorded))]),
                            .element("td", [:], [.text(who + (entry.draft.token != nil ? " · token" : ""))]),
                            .element("td", [:], [.text(entry.draft.detail)]),
                            .element("td", [:], [.text(entry.draft.address)]),
                            .element("td", [:], [.text((entry.draft.outcome == .allowed ? HostText.allowed : .denied).text(language))]),
                        ])
                    }),
                ]),
            ]),
            entries.count > Self.activityPageSize
                ? .element("p", [:], [.element("a", ["href": base + "/activity?offset=\(offset + Self.activityPageSize)", "class": "ock-link-row"],
                                               [.text(HostText.olderEntries.text(language))])])
                : .empty,
            .element("p", [:], [.element("a", ["href": base + "/sharing", "class": "ock-link-row"], [.text(HostText.sharingTitle.text(language))])]),
        ] }
    }

    /// The record's audit log as a FHIR R4 Bundle of AuditEvent resources (at most 10,000 newest entries).
    func activityExport(_ request: Request, _ access: RecordAccess) async throws -> Response {
        let entries = try await directory.auditEntries(record: access.record, limit: 10_000, offset: 0)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let events: [[String: Any]] = entries.map { entry in
            var agent: [String: Any] = ["requestor": true, "network": ["address": entry.draft.address, "type": "2"]]
            if let account = entry.draft.account {
                agent["who"] = ["identifier": ["system": "urn:opencarekit:account", "value": account.description]]
            }
            if let token = entry.draft.token { agent["altId"] = "token:\(token)" }
            return ["fullUrl": "urn:opencarekit:audit:\(entry.sequence)", "resource": [
                "resourceType": "AuditEvent",
                "id": "audit-\(entry.sequence)",
                "type": ["system": "http://terminology.hl7.org/CodeSystem/audit-event-type", "code": "rest", "display": "RESTful Operation"],
                "action": entry.draft.action.rawValue,
                "recorded": formatter.string(from: entry.draft.recorded),
                "outcome": entry.draft.outcome == .allowed ? "0" : "4",
                "outcomeDesc": entry.draft.outcome.rawValue,
                "agent": [agent],
                "source": ["observer": ["display": "OpenCareKit"]],
                "entity": [["what": ["identifier": ["system": "urn:opencarekit:record", "value": access.record.description]],
                            "name": entry.draft.resource, "description": entry.draft.detail]],
            ] as [String: Any]]
        }
        let bundle: [String: Any] = ["resourceType": "Bundle", "type": "collection", "entry": events]
        let data = try JSONSerialization.data(withJSONObject: bundle, options: [.sortedKeys])
        return Response(status: .ok, headers: [.contentType: "application/fhir+json", .cacheControl: "no-store",
                                               .contentDisposition: "attachment; filename=\"audit-events.json\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
