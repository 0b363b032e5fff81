import Foundation
import Hummingbird
import HummingbirdAuth
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI
import Synchronization

/// Signing in and out, the home page listing a person's records, and the account page. Sign-in errors never say
/// whether an email has an account; failures are limited per email and per address (`SignInLimiter`) and lock an
/// account for 15 minutes after 10 in a row; a new session id is made at every sign-in.
extension CareHost {
    /// Failed sign-ins in a row that lock an account, and for how long.
    static let lockThreshold = 10
    static let lockDuration: TimeInterval = 15 * 60

    func addAccountRoutes(to routes: inout HostRoutes) {
        let host = self
        routes.public(.get, "/sign-in") { request, context in
            // Someone still signed in (another tab kept the session alive) goes on to where they were.
            if context.identity != nil, context.identity?.token == nil {
                return Response.redirect(to: SafeRedirect.path(request.uri.queryParameters.get("next")), type: .normal)
            }
            return host.signInPage(request)
        }
        routes.public(.post, "/sign-in") { request, context in try await host.signIn(request, context) }
        routes.public(.post, "/sign-in/demo") { request, context in try await host.demoSignIn(request, context) }
        routes.account(.get, "/") { request, context, identity in try await host.homePage(request, context, identity) }
        routes.account(.post, "/sign-out") { request, context, identity in
            try await host.checkedForm(request, context) { fields in
                // The page names this browser's push subscription, if it has one: it shows no more reminders.
                if let endpoint = fields.values["push-endpoint"], !endpoint.isEmpty {
                    try await host.removePushSubscription(endpoint, of: identity.account.id)
                }
                context.sessions.clearSession()
                try await host.auditSession("sign-out", account: identity.account.id, outcome: .allowed, context: context)
                var response = Response.redirect(to: "/sign-in?signed-out=1", type: .normal)
                response.setCookie(host.expiredDeviceAccountCookie())
                return response
            }
        }
        routes.account(.post, "/sign-out/everywhere") { request, context, identity in
            try await host.checkedForm(request, context) { _ in
                try await host.directory.removeSessions(of: identity.account.id)
                // And every access token (the JSON API's, sync's, calendar feeds'): a lost phone's too.
                try await host.revokeAccessTokens(of: identity.account.id)
                // Every device stops showing reminders: one left signed out shows no task titles on its lock screen.
                for subscription in try await host.directory.pushSubscriptions(of: identity.account.id) {
                    try await host.directory.removePushSubscription(endpoint: subscription.endpoint)
                }
                context.sessions.clearSession()
                try await host.auditSession("sign-out-everywhere", account: identity.account.id, outcome: .allowed, context: context)
                var response = Response.redirect(to: "/sign-in?signed-out=1", type: .normal)
                response.setCookie(host.expiredDeviceAccountCookie())
                return response
            }
        }
        routes.account(.get, "/account") { request, _, identity in host.accountPage(request, identity) }
        routes.account(.post, "/account/password") { request, context, identity in
            try await host.changePassword(request, context, identity)
        }
        routes.account(.post, "/session/keep-alive") { request, context, _ in
            try await host.checkedForm(request, context) { _ in Response(status: .noContent) }
        }
    }

    // MARK: Forms

    /// Reads a form and checks its CSRF token, then runs `body`; bad input gets a page naming the problem.
    func checkedForm(_ request: Request, _ context: CareRequestContext,
                     _ body: (FormFields) async throws -> Response) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        guard CSRF.isValid(fields, request: request) else {
            return AppPage.error(CSRF.expiredMessage,
                                 status: .forbidden, context: renderContext(for: request))
        }
        return try await body(fields)
    }

    func auditSession(_ event: String, account: CareAccountID?, outcome: AuditEntry.Outcome, context: CareRequestContext) async throws {
        try await audit.record(AuditEntry.Draft(recorded: configuration.now(), account: account, record: nil, resource: "session",
                                                action: .execute, outcome: outcome, address: context.clientAddress, detail: event))
    }

    /// A page of the host (no record, no tabs) with the reader's CSRF token in its forms.
    func hostPage(_ request: Request, title: String, status: HTTPResponse.Status = .ok, signedIn: Bool = true,
                  metadata: [String: String] = [:], main: (String) -> [HTML]) -> Response {
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        let html = AppPage(title: title, idleSeconds: signedIn ? Int(configuration.idleTimeout.components.seconds) : nil, tab: nil,
                           main: main(token), metadata: metadata.merging(["ock-csrf": token]) { $1 }).render(in: renderContext(for: request))
        var response = AppPage.response(html, status: status)
        if CSRF.token(of: request) == nil { response.setCookie(CSRF.cookie(token, publicOrigin: configuration.publicOrigin)) }
        return response
    }

    static func hidden(_ name: String, _ value: String) -> HTML {
        .element("input", ["type": "hidden", "name": name, "value": value], [])
    }

    static func field(_ label: String, name: String, type: String, autocomplete: String, id: String) -> HTML {
        .element("p", ["class": "ock-field"], [
            .element("label", ["for": id], [.text(label)]),
            .element("input", ["id": id, "name": name, "type": type, "autocomplete": autocomplete, "required": "required"], []),
        ])
    }

    static func notice(_ message: String?, isError: Bool = true) -> HTML {
        guard let message else { return .empty }
        return .element("p", ["class": "ock-notice", "role": isError ? "alert" : "status"], [.text(message)])
    }

    // MARK: Sign-in

    func signInPage(_ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var response = signInPageContent(request, error: error, status: status)
        // No one is signed in here: the device holds no one's pages (its script locks them when it finds no cookie).
        if request.cookieValue(Self.deviceAccountCookieName) != nil { response.setCookie(expiredDeviceAccountCookie()) }
        return response
    }

    private func signInPageContent(_ request: Request, error: String?, status: HTTPResponse.Status) -> Response {
        let language = renderContext(for: request).localization.language
        let next = SafeRedirect.path(request.uri.queryParameters.get("next"))
        let parameters = request.uri.queryParameters
        let message = error ?? (parameters.get("expired") != nil ? HostText.signedOutIdle.text(language)
                                : parameters.get("signed-out") != nil ? HostText.signedOut.text(language) : nil)
        return hostPage(request, title: HostText.signInTitle.text(language), status: status, signedIn: false) { token in
            var main: [HTML] = [
                .element("h1", [:], [.text(HostText.signInTitle.text(language))]),
                Self.notice(message, isError: error != nil),
                .element("form", ["method": "post", "action": "/sign-in", "class": "ock-account-form"], [
                    Self.hidden(CSRF.fieldName, token), Self.hidden("next", next),
                    Self.field(HostText.email.text(language), name: "email", type: "email", autocomplete: "username", id: "email"),
                    Self.field(HostText.password.text(language), name: "password", type: "password", autocomplete: "current-password", id: "password"),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.signIn.text(language))]),
                ]),
            ]
            if !configuration.demoAccounts.isEmpty {
                main.append(.element("section", ["aria-labelledby": "demo-people"], [
                    .element("h2", ["id": "demo-people"], [.text(HostText.demoPeople.text(language))]),
                    .element("ul", ["class": "ock-demo-people"], configuration.demoAccounts.map { email in
                        .element("li", [:], [.element("form", ["method": "post", "action": "/sign-in/demo"], [
                            Self.hidden(CSRF.fieldName, token), Self.hidden("email", email), Self.hidden("next", next),
                            .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.demoSignInAs.text(language, email))]),
                        ])])
                    }),
                ]))
            }
            return main
        }
    }

    func signIn(_ request: Request, _ context: CareRequestContext) async throws -> Response {
        let language = renderContext(for: request).localization.language
        return try await checkedForm(request, context) { fields in
            let typed = fields.values["email"] ?? ""
            let email = CareAccount.normalizedEmail(typed) ?? typed.lowercased()
            let password = fields.values["password"] ?? ""
            let now = configuration.now()
            if let wait = signInLimiter.retryAfter(email: email, address: context.clientAddress, now: now) {
                return tooManyFailures(request, wait: wait)
            }
            let account = try await directory.account(email: email)
            if let locked = account?.lockedUntil, locked > now { return tooManyFailures(request, wait: locked.timeIntervalSince(now)) }
            // An unknown email costs a bcrypt check too, so the time taken does not tell which emails exist.
            let hash = if let account { account.passwordHash } else { try await dummyPasswordHash() }
            let matches = try await Passwords.verify(password, hash: hash)
            guard let account, matches, password.utf8.count <= Passwords.maximumBytes else {
                signInLimiter.noteFailure(email: email, address: context.clientAddress, now: now)
                if let account {
                    _ = try await directory.noteFailedSignIn(account.id, now: now, threshold: Self.lockThreshold, lockout: Self.lockDuration)
                }
                try await auditSession("sign-in", account: account?.id, outcome: .denied, context: context)
                return signInPage(request, error: HostText.signInFailed.text(language), status: .unauthorized)
            }
            signInLimiter.reset(email: email)
            try await directory.noteSuccessfulSignIn(account.id)
            return try await startSession(for: account, request, context, next: fields.values["next"])
        }
    }

    func tooManyFailures(_ request: Request, wait: TimeInterval) -> Response {
        let language = renderContext(for: request).localization.language
        let minutes = max(1, Int((wait / 60).rounded(.up)))
        var response = signInPage(request, error: HostText.tooManyFailures.text(language, String(minutes)), status: .tooManyRequests)
        response.headers[.retryAfter] = String(Int(wait.rounded(.up)))
        return response
    }

    /// Signs `account` in with a new session id (the old session, if any, is ended) and goes to `next`; with two-step
    /// sign-in on and its second step still to do, the new session opens only that step.
    func startSession(for account: CareAccount, _ request: Request, _ context: CareRequestContext, next: String?,
                      secondStepDone: Bool = false) async throws -> Response {
        if let old = request.cookieValue(Self.sessionCookie).map(String.init) { try await sessionDriver.remove(key: "session." + old) }
        let complete = account.totpSecret == nil || secondStepDone
        var session = CareSession(account: account.id, isComplete: complete, signedInDate: configuration.now())
        if !complete { session.passwordStamp = CareSession.passwordStamp(account.passwordHash) }
        context.sessions.createSession(session, expiresIn: complete ? configuration.idleTimeout : .seconds(300))
        guard complete else {
            return Response.redirect(to: "/sign-in/two-step?next=" + SafeRedirect.encode(SafeRedirect.path(next)), type: .normal)
        }
        try await auditSession("sign-in", account: account.id, outcome: .allowed, context: context)
        var response = Response.redirect(to: SafeRedirect.path(next), type: .normal)
        // The device's pages and queued changes are this account's from now on (another's are dropped or kept
        // apart by the app's script).
        response.setCookie(try await deviceAccountCookie(for: account.id))
        return response
    }

    /// One-click sign-in as a demo person, offered only by `serve --demo` on loopback.
    func demoSignIn(_ request: Request, _ context: CareRequestContext) async throws -> Response {
        try await checkedForm(request, context) { fields in
            guard let email = fields.values["email"], configuration.demoAccounts.contains(email),
                  let account = try await directory.account(email: email) else {
                return AppPage.error(PageMessage(ErrorText.noSuchDemoPerson), status: .notFound, context: renderContext(for: request))
            }
            return try await startSession(for: account, request, context, next: fields.values["next"])
        }
    }

    /// A bcrypt hash of a random password at the host's cost, made once, for checking unknown emails against.
    func dummyPasswordHash() async throws -> String {
        if let hash = dummyHash.value.withLock({ $0 }) { return hash }
        let hash = try await Passwords.hash(CSRF.newToken(), cost: configuration.passwordCost)
        dummyHash.value.withLock { $0 = hash }
        return hash
    }

    // MARK: Home and account

    func homePage(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let memberships = try await directory.memberships(of: identity.account.id)
        if memberships.contains(where: { $0.membership.role == .clinician }) {
            return try await clinicianHome(request, context, identity, memberships: memberships)
        }
        if memberships.count == 1, let only = memberships.first {
            return Response.redirect(to: "/records/\(only.record.id)/care", type: .normal)
        }
        let unread = await unreadMessages(of: identity.account.id, in: memberships.map(\.record.id))
        return hostPage(request, title: HostText.homeTitle.text(language)) { token in [
            .element("h1", [:], [.text(HostText.homeTitle.text(language))]),
            memberships.isEmpty ? .element("p", [:], [.text(HostText.noRecords.text(language))])
                : recordList(memberships, unread: unread, language: language),
            accountLinks(token: token, language: language, identity: identity),
        ] }
    }

    /// Links to `memberships`' records, each with the person's role in it.
    func recordList(_ memberships: [(membership: CareMembership, record: CareRecord)], unread: [CareRecordID: Int],
                    language: OCKLanguage) -> HTML {
        .element("ul", ["class": "ock-record-list"], memberships.map { item in
            let role = HostText.role(item.membership.role).text(language)
                + (item.membership.isOwner ? " · " + HostText.owner.text(language) : "")
            return .element("li", [:], [
                .element("a", ["href": "/records/\(item.record.id)/care", "class": "ock-link-row",
                               "aria-label": HostText.openRecord.text(language, item.record.patientName)], [
                    .element("span", ["class": "ock-record-name"], [.text(item.record.patientName)]),
                    .element("span", ["class": "ock-record-role"], [.text(role)]),
                ]),
                Self.unreadLink(item.record.id, count: unread[item.record.id] ?? 0, language: language),
            ])
        })
    }

    func accountLinks(token: String, language: OCKLanguage, identity: CareIdentity) -> HTML {
        .element("footer", ["class": "ock-account-footer"], [
            .element("p", [:], [.text(HostText.signedInAs.text(language, identity.account.email))]),
            .element("p", [:], [.element("a", ["href": "/account", "class": "ock-link-row"], [.text(HostText.account.text(language))])]),
            .element("form", ["method": "post", "action": "/sign-out"], [
                Self.hidden(CSRF.fieldName, token),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.signOut.text(language))]),
            ]),
        ])
    }

    func accountPage(_ request: Request, _ identity: CareIdentity, message: String? = nil, isError: Bool = false,
                     status: HTTPResponse.Status = .ok) -> Response {
        let language = renderContext(for: request).localization.language
        return hostPage(request, title: HostText.accountTitle.text(language), status: status) { token in [
            .element("h1", [:], [.text(HostText.accountTitle.text(language))]),
            .element("p", [:], [.text(HostText.signedInAs.text(language, identity.account.email))]),
            // Signing out of this browser: the only way for a person with one record, whose home is that record.
            .element("form", ["method": "post", "action": "/sign-out"], [
                Self.hidden(CSRF.fieldName, token),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.signOut.text(language))]),
            ]),
            Self.notice(message, isError: isError),
            .element("section", ["aria-labelledby": "password-heading"], [
                .element("h2", ["id": "password-heading"], [.text(HostText.changePassword.text(language))]),
                .element("form", ["method": "post", "action": "/account/password", "class": "ock-account-form"], [
                    Self.hidden(CSRF.fieldName, token),
                    Self.field(HostText.currentPassword.text(language), name: "current", type: "password",
                               autocomplete: "current-password", id: "current"),
                    Self.field(HostText.newPassword.text(language), name: "new", type: "password", autocomplete: "new-password", id: "new"),
                    Self.field(HostText.repeatPassword.text(language), name: "repeat", type: "password", autocomplete: "new-password", id: "repeat"),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.changePassword.text(language))]),
                ]),
            ]),
            .element("p", [:], [.element("a", ["href": "/account/tokens", "class": "ock-link-row"], [.text(AccountText.accessTokensLink.text(language))])]),
            .element("p", [:], [.element("a", ["href": "/account/two-step", "class": "ock-link-row"],
                                         [.text(AccountText.twoStepLink(isOn: identity.account.totpSecret != nil).text(language))])]),
            .element("section", ["aria-labelledby": "sessions-heading"], [
                .element("h2", ["id": "sessions-heading"], [.text(HostText.signOutEverywhere.text(language))]),
                .element("p", [:], [.text(HostText.signOutEverywhereHint.text(language))]),
                .element("form", ["method": "post", "action": "/sign-out/everywhere"], [
                    Self.hidden(CSRF.fieldName, token),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.signOutEverywhere.text(language))]),
                ]),
            ]),
            .element("p", [:], [.element("a", ["href": "/", "class": "ock-link-row"], [.text(HostText.homeTitle.text(language))])]),
        ] }
    }

    func changePassword(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        let language = renderContext(for: request).localization.language
        return try await checkedForm(request, context) { fields in
            let current = fields.values["current"] ?? "", new = fields.values["new"] ?? "", repeated = fields.values["repeat"] ?? ""
            guard try await Passwords.verify(current, hash: identity.account.passwordHash) else {
                try await auditSession("password-change", account: identity.account.id, outcome: .denied, context: context)
                return accountPage(request, identity, message: HostText.wrongPassword.text(language), isError: true, status: .unprocessableContent)
            }
            if let problem = Passwords.problemMessage(with: new)?.text(language) {
                return accountPage(request, identity, message: problem, isError: true, status: .unprocessableContent)
            }
            guard new == repeated else {
                return accountPage(request, identity, message: HostText.passwordsDiffer.text(language), isError: true, status: .unprocessableContent)
            }
            var account = identity.account
            account.passwordHash = try await Passwords.hash(new, cost: configuration.passwordCost)
            try await directory.updateAccount(account)
            // Every other session ends, and every access token; this browser gets a new session.
            try await directory.removeSessions(of: account.id)
            try await revokeAccessTokens(of: account.id)
            context.sessions.createSession(CareSession(account: account.id, isComplete: true, signedInDate: configuration.now()),
                                           expiresIn: configuration.idleTimeout)
            try await auditSession("password-change", account: account.id, outcome: .allowed, context: context)
            return accountPage(request, identity, message: HostText.passwordChanged.text(language))
        }
    }
}

extension CareHost {
    /// Revokes every access token of `account` still in use: a new password, or signing out everywhere, ends them
    /// all (someone who had the old password may have made one).
    func revokeAccessTokens(of account: CareAccountID) async throws {
        let now = configuration.now()
        for token in try await directory.accessTokens(of: account) where token.revokedDate == nil {
            _ = try await directory.revokeAccessToken(token.id, of: account, now: now)
        }
    }
}

/// Holds the dummy password hash once made.
final class DummyHash: Sendable {
    let value = Mutex<String?>(nil)
}
