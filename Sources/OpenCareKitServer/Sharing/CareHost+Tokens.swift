import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI

/// Personal access tokens for the JSON API, made and revoked on the account's tokens page: each is bound to one
/// record the person has access to and a SMART scope (`patient/*.rs` …), shown once, and stored only as a hash.
/// A token never does more than its owner's role allows in the record.
extension CareHost {
    /// The most tokens an account may hold that are not revoked.
    static let maximumTokens = 20

    func addTokenRoutes(to routes: inout HostRoutes) {
        let host = self
        routes.account(.get, "/account/tokens") { request, _, identity in try await host.tokensPage(request, identity) }
        routes.account(.post, "/account/tokens") { request, context, identity in
            let language = host.renderContext(for: request).localization.language
            return try await host.checkedForm(request, context) { fields in
                let label = (fields.values["label"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                guard !label.isEmpty, label.count <= 100 else {
                    return try await host.tokensPage(request, identity, message: AccountText.tokenNameNeeded.text(language), status: .unprocessableContent)
                }
                let scopeText = (fields.values["scope"] ?? "").trimmingCharacters(in: .whitespaces)
                let scopes: [SMARTScope]
                do {
                    scopes = try SMARTScope.parseList(scopeText)
                } catch let error as SMARTScope.ParseError {
                    return try await host.tokensPage(request, identity, message: AccountText.tokenScopeProblem.text(language, error.pageMessage.text(language)), status: .unprocessableContent)
                }
                guard let record = fields.values["record"].flatMap(CareRecordID.init),
                      try await host.directory.membership(record: record, account: identity.account.id) != nil else {
                    return try await host.tokensPage(request, identity, message: AccountText.tokenChooseRecord.text(language), status: .unprocessableContent)
                }
                let active = try await host.directory.accessTokens(of: identity.account.id).filter { $0.revokedDate == nil }
                guard active.count < Self.maximumTokens else {
                    return try await host.tokensPage(request, identity, message: AccountText.tooManyTokens.text(language, String(Self.maximumTokens)), status: .conflict)
                }
                let secret = AccessTokens.make()
                let now = host.configuration.now()
                try await host.directory.addAccessToken(CareAccessToken(
                    secretHash: AccessTokens.hash(secret), account: identity.account.id, record: record,
                    scope: scopes.map(\.description).joined(separator: " "), label: label, createdDate: now))
                try await host.audit.record(AuditEntry.Draft(recorded: now, account: identity.account.id, record: record, resource: "token",
                                                             action: .create, outcome: .allowed, address: context.clientAddress,
                                                             detail: "access token created"))
                return try await host.tokensPage(request, identity, newToken: secret)
            }
        }
        routes.account(.post, "/account/tokens/revoke") { request, context, identity in
            let language = host.renderContext(for: request).localization.language
            return try await host.checkedForm(request, context) { fields in
                guard let id = fields.values["token"].flatMap(RandomIdentifier.init),
                      try await host.directory.revokeAccessToken(id, of: identity.account.id, now: host.configuration.now()) else {
                    return try await host.tokensPage(request, identity, message: AccountText.noSuchToken.text(language), status: .notFound)
                }
                try await host.auditSession("access-token-revoked", account: identity.account.id, outcome: .allowed, context: context)
                return Response.redirect(to: "/account/tokens", type: .normal)
            }
        }
    }

    func tokensPage(_ request: Request, _ identity: CareIdentity, message: String? = nil, newToken: String? = nil,
                    newCalendarFeed: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let render = renderContext(for: request)
        let language = render.localization.language
        let tokens = try await directory.accessTokens(of: identity.account.id)
        let records = try await directory.memberships(of: identity.account.id).map(\.record)
        let names = Dictionary(records.map { ($0.id, $0.patientName) }, uniquingKeysWith: { first, _ in first })
        return hostPage(request, title: AccountText.tokensTitle.text(language), status: status) { token in
            var main: [HTML] = [
                .element("h1", [:], [.text(AccountText.tokensTitle.text(language))]),
                .element("p", [:], [.text(AccountText.tokensIntro.text(language))]),
                Self.notice(message),
            ]
            if let newToken {
                main.append(.element("section", ["aria-labelledby": "new-token"], [
                    .element("h2", ["id": "new-token"], [.text(AccountText.newToken.text(language))]),
                    .element("p", [:], [.element("input", ["readonly": "readonly", "value": newToken, "id": "token-value",
                                                           "aria-labelledby": "new-token", "class": "ock-copy-field"], [])]),
                ]))
            }
            main.append(.element("section", ["aria-labelledby": "tokens"], [
                .element("h2", ["id": "tokens"], [.text(AccountText.yourTokens.text(language))]),
                .element("ul", ["class": "ock-member-list"], tokens.map { item in
                    let state = item.revokedDate != nil ? AccountText.tokenRevoked.text(language)
                        : item.lastUsedDate.map { AccountText.tokenLastUsed.text(language, render.localization.shortDate($0)) }
                        ?? AccountText.tokenNeverUsed.text(language)
                    var row: [HTML] = [
                        .element("span", ["class": "ock-member-name"], [.text(item.label)]),
                        .element("span", [:], [.text("\(names[item.record] ?? AccountText.tokenNoLongerShared.text(language)) · \(item.scope) · \(state)")]),
                    ]
                    if item.revokedDate == nil {
                        row.append(.element("form", ["method": "post", "action": "/account/tokens/revoke", "class": "ock-inline-form"], [
                            Self.hidden(CSRF.fieldName, token), Self.hidden("token", item.id.description),
                            .element("button", ["type": "submit", "class": "ock-button", "aria-label": AccountText.revokeNamed.text(language, item.label)],
                                     [.text(AccountText.revoke.text(language))]),
                        ]))
                    }
                    return .element("li", ["class": "ock-member"], row)
                }),
            ]))
            main.append(.element("section", ["aria-labelledby": "make-token"], [
                .element("h2", ["id": "make-token"], [.text(AccountText.makeTokenHeading.text(language))]),
                .element("form", ["method": "post", "action": "/account/tokens", "class": "ock-account-form"], [
                    Self.hidden(CSRF.fieldName, token),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "token-label"], [.text(AccountText.tokenName.text(language))]),
                        .element("input", ["id": "token-label", "name": "label", "type": "text", "required": "required", "maxlength": "100"], []),
                    ]),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "token-record"], [.text(AccountText.tokenRecord.text(language))]),
                        .element("select", ["id": "token-record", "name": "record"], records.map { record in
                            .element("option", ["value": record.id.description], [.text(record.patientName)])
                        }),
                    ]),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "token-scope"], [.text(AccountText.tokenScope.text(language))]),
                        .element("input", ["id": "token-scope", "name": "scope", "type": "text", "value": "patient/*.rs", "required": "required"], []),
                    ]),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(AccountText.makeToken.text(language))]),
                ]),
            ]))
            var calendar: [HTML] = [
                .element("h2", ["id": "calendar-feeds"], [.text(AccountText.calendarHeading.text(language))]),
                .element("p", [:], [.text(AccountText.calendarIntro.text(language))]),
            ]
            if let newCalendarFeed {
                let webcal = newCalendarFeed.replacingOccurrences(of: #"^https?://"#, with: "webcal://", options: .regularExpression)
                calendar += [
                    .element("p", [:], [.element("label", ["for": "calendar-feed-value"], [.text(AccountText.newCalendarFeed.text(language))])]),
                    .element("p", [:], [.element("input", ["readonly": "readonly", "value": newCalendarFeed, "id": "calendar-feed-value",
                                                           "class": "ock-copy-field"], [])]),
                    .element("p", [:], [.element("a", ["href": webcal, "class": "ock-link-row"], [.text(AccountText.openInCalendar.text(language))])]),
                ]
            }
            calendar.append(.element("form", ["method": "post", "action": "/account/calendar-feeds", "class": "ock-account-form"], [
                Self.hidden(CSRF.fieldName, token),
                .element("p", ["class": "ock-field"], [
                    .element("label", ["for": "calendar-record"], [.text(AccountText.tokenRecord.text(language))]),
                    .element("select", ["id": "calendar-record", "name": "record"], records.map { record in
                        .element("option", ["value": record.id.description], [.text(record.patientName)])
                    }),
                ]),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(AccountText.makeCalendarFeed.text(language))]),
            ]))
            main.append(.element("section", ["aria-labelledby": "calendar-feeds"], calendar))
            main.append(.element("p", [:], [.element("a", ["href": "/account", "class": "ock-link-row"], [.text(HostText.account.text(language))])]))
            return main
        }
    }
}
