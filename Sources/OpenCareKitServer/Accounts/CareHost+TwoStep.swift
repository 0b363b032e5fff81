import Foundation
import Hummingbird
import OpenCareKitStore
import OpenCareKitUI

/// Two-step sign-in: any account turns it on from its account page (the secret as text and as a QR code, confirmed
/// by a code from the app, then ten single-use recovery codes shown once); sign-in then asks for a code after the
/// password. Wrong codes count as failed sign-ins. `requiresTwoStepForClinicians` sends every clinician without it to
/// turn it on before anything else.
extension CareHost {
    func addTwoStepRoutes(to routes: inout HostRoutes) {
        let host = self
        routes.public(.get, "/sign-in/two-step") { request, context in
            guard let session = context.sessions.session, !session.isComplete else { return Response.redirect(to: "/sign-in", type: .normal) }
            return host.secondStepPage(request)
        }
        routes.public(.post, "/sign-in/two-step") { request, context in try await host.secondStep(request, context) }
        routes.account(.get, "/account/two-step") { request, context, identity in host.twoStepPage(request, context, identity) }
        routes.account(.post, "/account/two-step/confirm") { request, context, identity in
            let language = host.renderContext(for: request).localization.language
            return try await host.checkedForm(request, context) { fields in
                guard identity.account.totpSecret == nil, let secret = context.sessions.session?.pendingTwoStepSecret else {
                    return Response.redirect(to: "/account/two-step", type: .normal)
                }
                guard let step = TwoStep.step(of: fields.values["code"] ?? "", secret: secret, now: host.configuration.now()) else {
                    return host.twoStepPage(request, context, identity, message: AccountText.setupCodeWrong.text(language),
                                            status: .unprocessableContent)
                }
                let codes = TwoStep.newRecoveryCodes()
                var account = identity.account
                account.totpSecret = try host.configuration.secrets?.seal(secret) ?? secret
                account.recoveryCodeHashes = codes.map(TwoStep.hash(recoveryCode:))
                try await host.directory.updateAccount(account)
                // The code that turned it on does not also sign in.
                _ = try await host.directory.takeTwoStepCode(step: step, of: account.id)
                context.sessions.withLockedSession { $0?.pendingTwoStepSecret = nil }
                try await host.auditSession("two-step-on", account: account.id, outcome: .allowed, context: context)
                return host.hostPage(request, title: AccountText.twoStepOnTitle.text(language)) { _ in [
                    .element("h1", [:], [.text(AccountText.twoStepOnTitle.text(language))]),
                    .element("p", [:], [.text(AccountText.recoveryCodesHint.text(language))]),
                    .element("ul", ["class": "ock-recovery-codes"], codes.map { .element("li", [:], [.element("code", [:], [.text($0)])]) }),
                    .element("p", [:], [.element("a", ["href": "/account", "class": "ock-link-row"], [.text(HostText.account.text(language))])]),
                ] }
            }
        }
        routes.account(.post, "/account/two-step/disable") { request, context, identity in
            let language = host.renderContext(for: request).localization.language
            return try await host.checkedForm(request, context) { fields in
                guard try await Passwords.verify(fields.values["password"] ?? "", hash: identity.account.passwordHash) else {
                    return host.twoStepPage(request, context, identity, message: AccountText.wrongPassword.text(language), status: .unprocessableContent)
                }
                var account = identity.account
                account.totpSecret = nil
                account.recoveryCodeHashes = []
                try await host.directory.updateAccount(account)
                try await host.auditSession("two-step-off", account: account.id, outcome: .allowed, context: context)
                return Response.redirect(to: "/account/two-step", type: .normal)
            }
        }
    }

    func secondStepPage(_ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let language = renderContext(for: request).localization.language
        let next = SafeRedirect.path(request.uri.queryParameters.get("next"))
        return hostPage(request, title: AccountText.twoStepTitle.text(language), status: status, signedIn: false) { token in [
            .element("h1", [:], [.text(AccountText.twoStepTitle.text(language))]),
            Self.notice(error),
            .element("form", ["method": "post", "action": "/sign-in/two-step", "class": "ock-account-form"], [
                Self.hidden(CSRF.fieldName, token), Self.hidden("next", next),
                .element("p", ["class": "ock-field"], [
                    .element("label", ["for": "code"], [.text(AccountText.secondStepCodeLabel.text(language))]),
                    .element("input", ["id": "code", "name": "code", "type": "text", "autocomplete": "one-time-code",
                                       "required": "required", "maxlength": "20"], []),
                ]),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.signIn.text(language))]),
            ]),
        ] }
    }

    func secondStep(_ request: Request, _ context: CareRequestContext) async throws -> Response {
        let language = renderContext(for: request).localization.language
        return try await checkedForm(request, context) { fields in
            // A password changed since the first step voids it.
            guard let session = context.sessions.session, !session.isComplete,
                  var account = try await directory.account(session.account), let stored = account.totpSecret,
                  session.passwordStamp == CareSession.passwordStamp(account.passwordHash) else {
                return Response.redirect(to: "/sign-in", type: .normal)
            }
            let secret = try SecretBox.open(stored, with: configuration.secrets)
            let now = configuration.now()
            if let wait = signInLimiter.retryAfter(email: account.email, address: context.clientAddress, now: now) {
                return tooManyFailures(request, wait: wait)
            }
            if let locked = account.lockedUntil, locked > now { return tooManyFailures(request, wait: locked.timeIntervalSince(now)) }
            let code = fields.values["code"] ?? ""
            // A code is taken once: the same code again (a replay, or a second tab) is wrong.
            var valid = false
            if let step = TwoStep.step(of: code, secret: secret, now: now) {
                valid = try await directory.takeTwoStepCode(step: step, of: account.id)
            }
            if !valid, let index = account.recoveryCodeHashes.firstIndex(of: TwoStep.hash(recoveryCode: code)) {
                // A recovery code works once.
                account.recoveryCodeHashes.remove(at: index)
                try await directory.updateAccount(account)
                valid = true
            }
            guard valid else {
                signInLimiter.noteFailure(email: account.email, address: context.clientAddress, now: now)
                _ = try await directory.noteFailedSignIn(account.id, now: now, threshold: Self.lockThreshold, lockout: Self.lockDuration)
                try await auditSession("sign-in-second-step", account: account.id, outcome: .denied, context: context)
                return secondStepPage(request, error: AccountText.secondStepCodeWrong.text(language), status: .unauthorized)
            }
            signInLimiter.reset(email: account.email)
            try await directory.noteSuccessfulSignIn(account.id)
            return try await startSession(for: account, request, context, next: fields.values["next"], secondStepDone: true)
        }
    }

    func twoStepPage(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity, message: String? = nil,
                     status: HTTPResponse.Status = .ok) -> Response {
        let language = renderContext(for: request).localization.language
        let required = request.uri.queryParameters.get("required") != nil ? AccountText.twoStepRequired.text(language) : nil
        if identity.account.totpSecret != nil {
            return hostPage(request, title: AccountText.twoStepTitle.text(language), status: status) { token in [
                .element("h1", [:], [.text(AccountText.twoStepTitle.text(language))]),
                Self.notice(message),
                .element("p", [:], [.text(AccountText.twoStepOnStatus.text(language, String(identity.account.recoveryCodeHashes.count)))]),
                .element("form", ["method": "post", "action": "/account/two-step/disable", "class": "ock-account-form"], [
                    Self.hidden(CSRF.fieldName, token),
                    Self.field(HostText.password.text(language), name: "password", type: "password", autocomplete: "current-password", id: "password"),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(AccountText.turnOff.text(language))]),
                ]),
                .element("p", [:], [.element("a", ["href": "/account", "class": "ock-link-row"], [.text(HostText.account.text(language))])]),
            ] }
        }
        let secret = context.sessions.session?.pendingTwoStepSecret ?? {
            let secret = TwoStep.newSecret()
            context.sessions.withLockedSession { $0?.pendingTwoStepSecret = secret }
            return secret
        }()
        let url = TwoStep.authenticatorURL(secret: secret, email: identity.account.email)
        let qr = (try? QRCode(url))?.svg(label: AccountText.qrLabel.text(language)) ?? .empty
        return hostPage(request, title: AccountText.turnOnTitle.text(language), status: status) { token in [
            .element("h1", [:], [.text(AccountText.turnOnTitle.text(language))]),
            Self.notice(message ?? required),
            .element("p", [:], [.text(AccountText.scanHint.text(language))]),
            .element("figure", ["class": "ock-qr"], [qr]),
            .element("p", [:], [.text(AccountText.key.text(language)), .element("code", ["id": "two-step-key"], [.text(TwoStep.typedSecret(url))])]),
            .element("form", ["method": "post", "action": "/account/two-step/confirm", "class": "ock-account-form"], [
                Self.hidden(CSRF.fieldName, token),
                .element("p", ["class": "ock-field"], [
                    .element("label", ["for": "code"], [.text(AccountText.codeFromApp.text(language))]),
                    .element("input", ["id": "code", "name": "code", "type": "text", "inputmode": "numeric", "autocomplete": "one-time-code",
                                       "required": "required", "maxlength": "6"], []),
                ]),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(AccountText.turnOn.text(language))]),
            ]),
            .element("p", [:], [.element("a", ["href": "/account", "class": "ock-link-row"], [.text(HostText.account.text(language))])]),
        ] }
    }
}
