import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import OpenCareKitDirectory
import OpenCareKitStore

/// Finds who is asking: the holder of a valid access token in `Authorization: Bearer`, or the person of a complete
/// session. A session's idle time restarts when the person does something (not for live updates or a page's own
/// background refresh), at most once a minute, which also renews the cookie.
struct CareAuthenticator: RouterMiddleware {
    typealias Context = CareRequestContext
    let host: CareHost

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let failure = SessionLoadFailure.current?.recorded { throw failure }
        var context = context
        if let authorization = request.headers[.authorization] {
            context.identity = try await host.identity(authorization: authorization)
        } else if let session = context.sessions.session, session.isComplete {
            if let account = try await host.directory.account(session.account) {
                context.identity = CareIdentity(account: account, token: nil)
                let now = host.configuration.now()
                // A page's "Stay signed in" always restarts the idle time.
                let isKeepAlive = request.uri.path == "/session/keep-alive"
                if Self.isPersonActive(request), isKeepAlive || now.timeIntervalSince(session.lastActiveDate) >= 60 {
                    let idle = host.configuration.idleTimeout
                    context.sessions.withLockedSession { data in
                        data?.lastActiveDate = now
                        data?.expiresIn = idle
                    }
                }
            } else {
                context.sessions.clearSession()
            }
        }
        if let identity = context.identity, try await host.mustTurnOnTwoStep(identity, path: request.uri.path) {
            if identity.token != nil || request.wantsJSON {
                throw ClientError(status: .forbidden, message: "This server asks clinicians to use two-step sign-in: turn it on in the account page.")
            }
            return Response.redirect(to: "/account/two-step?required=1", type: .normal)
        }
        return try await next(request, context)
    }

    /// Whether the request comes from something the person did, rather than a live stream or a page refreshing
    /// itself after a change (`X-OCK-Background`).
    static func isPersonActive(_ request: Request) -> Bool {
        let path = request.uri.path
        return !path.hasSuffix("/live") && !path.hasSuffix("/live/changes") && request.headers[.ockBackground] == nil
    }
}

extension HTTPField.Name {
    static let ockBackground = Self("X-OCK-Background")!
}

extension CareHost {
    /// Whether the server requires two-step sign-in of clinicians and `identity` is a clinician without it, asking for
    /// anything but turning it on, the account page or signing out.
    func mustTurnOnTwoStep(_ identity: CareIdentity, path: String) async throws -> Bool {
        guard configuration.requiresTwoStepForClinicians, identity.account.totpSecret == nil,
              !path.hasPrefix("/account"), !path.hasPrefix("/sign-out"), !path.hasPrefix("/assets/"), path != "/session/keep-alive" else {
            return false
        }
        return try await directory.memberships(of: identity.account.id).contains { $0.membership.role == .clinician }
    }

    /// The identity of a bearer token, or nil if the header is not a valid, unrevoked token of an existing account.
    func identity(authorization: String) async throws -> CareIdentity? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", let secret = AccessTokens.secret(String(parts[1])) else { return nil }
        guard let token = try await directory.accessToken(secretHash: AccessTokens.hash(secret)), token.revokedDate == nil,
              let account = try await directory.account(token.account) else { return nil }
        try await AccessTokens.noteUse(of: token, in: directory, now: configuration.now())
        return CareIdentity(account: account, token: token)
    }
}

/// Personal access tokens: `ock_` and 52 random letters and digits (256 bits), stored as their SHA-256.
enum AccessTokens {
    static func make() -> String { "ock_\(RandomIdentifier.random())\(RandomIdentifier.random())" }

    /// The token if `text` has a token's form.
    static func secret(_ text: String) -> String? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("ock_"), text.utf8.count == 56,
              RandomIdentifier(String(text.dropFirst(4).prefix(26))) != nil, RandomIdentifier(String(text.suffix(26))) != nil else { return nil }
        return text
    }

    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).hexEncoded
    }

    /// Records that `token` was used, at most once a minute (a token used in a burst writes once).
    static func noteUse(of token: CareAccessToken, in directory: any CareDirectory, now: Date) async throws {
        if token.lastUsedDate.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            try await directory.noteAccessTokenUse(token.id, now: now)
        }
    }
}
