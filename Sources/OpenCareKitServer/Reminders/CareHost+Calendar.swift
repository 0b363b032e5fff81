import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore

/// Calendar feeds: a record's tasks as an iCalendar subscription (`OCKCalendarFeed`) for calendar apps, which
/// cannot sign in. The feed's URL carries a secret: an access token of scope `calendar`, made on the account's
/// tokens page for one record (a new one for the same record revokes the old, which is how a person renews it),
/// listed and revoked there with the other tokens. The scope grants nothing on the JSON API, so a leaked calendar
/// link reads the calendar and nothing else. Each fetch checks, before any store is touched, that the token is
/// live, its owner still a member of the record, and the role allowed to read it, and is written to the audit log.
extension CareHost {
    /// The scope of a calendar feed's token.
    static let calendarScope = "calendar"

    func addCalendarRoutes(to routes: inout HostRoutes) {
        let host = self
        routes.calendarFeed(.get, "/calendar/:feed") { request, context in try await host.calendarFeed(request, context) }
        routes.account(.post, "/account/calendar-feeds") { request, context, identity in
            let language = host.renderContext(for: request).localization.language
            return try await host.checkedForm(request, context) { fields in
                guard let record = fields.values["record"].flatMap(CareRecordID.init),
                      try await host.directory.membership(record: record, account: identity.account.id) != nil else {
                    return try await host.tokensPage(request, identity, message: AccountText.tokenChooseRecord.text(language),
                                                     status: .unprocessableContent)
                }
                let now = host.configuration.now()
                let tokens = try await host.directory.accessTokens(of: identity.account.id).filter { $0.revokedDate == nil }
                // The record's old link stops working: this is how a person renews one.
                let replaced = tokens.filter { $0.scope == Self.calendarScope && $0.record == record }
                guard tokens.count - replaced.count < Self.maximumTokens else {
                    return try await host.tokensPage(request, identity, message: AccountText.tooManyTokens.text(language, String(Self.maximumTokens)),
                                                     status: .conflict)
                }
                for old in replaced { _ = try await host.directory.revokeAccessToken(old.id, of: identity.account.id, now: now) }
                let secret = AccessTokens.make()
                try await host.directory.addAccessToken(CareAccessToken(
                    secretHash: AccessTokens.hash(secret), account: identity.account.id, record: record, scope: Self.calendarScope,
                    label: AccountText.calendarLabel.text(language), createdDate: now))
                try await host.audit.record(AuditEntry.Draft(recorded: now, account: identity.account.id, record: record, resource: "calendar-feed",
                                                             action: .create, outcome: .allowed, address: context.clientAddress,
                                                             detail: replaced.isEmpty ? "calendar link created" : "calendar link renewed"))
                let origin = host.configuration.publicOrigin ?? "http://\(request.head.authority ?? "localhost")"
                return try await host.tokensPage(request, identity, newCalendarFeed: origin + "/calendar/" + secret + ".ics")
            }
        }
    }

    /// `GET /calendar/{secret}.ics`: the feed, or 404 for a secret that opens nothing (the same whatever the reason).
    func calendarFeed(_ request: Request, _ context: CareRequestContext) async throws -> Response {
        let notFound = Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(string: "There is no such calendar.")))
        let text = context.parameters.get("feed") ?? ""
        guard text.hasSuffix(".ics"), let secret = AccessTokens.secret(String(text.dropLast(4))),
              let token = try await directory.accessToken(secretHash: AccessTokens.hash(secret)),
              token.revokedDate == nil, token.scope == Self.calendarScope else { return notFound }
        let now = configuration.now()
        func audit(_ outcome: AuditEntry.Outcome) async throws {
            try await self.audit.record(AuditEntry.Draft(
                recorded: now, account: token.account, token: token.id, record: token.record, resource: "calendar-feed",
                action: .read, outcome: outcome, address: context.clientAddress, detail: "GET /calendar/{feed}"))
        }
        guard let membership = try await directory.membership(record: token.record, account: token.account),
              RecordPermission.read.isGranted(to: membership, in: nil),
              let record = try await directory.record(token.record) else {
            try await audit(.denied)
            return notFound
        }
        try await audit(.allowed)
        try await AccessTokens.noteUse(of: token, in: directory, now: now)
        guard let server = try await records.server(for: record.id, load: { record }) else { return notFound }
        try await server.store.catchUp()
        let feed = OCKCalendarFeed(title: record.patientName, now: now)
        let body = feed.render(try await feed.tasks(of: server.store))
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
