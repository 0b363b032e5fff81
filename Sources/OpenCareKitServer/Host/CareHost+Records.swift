import Foundation
import HTTPTypes
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore

/// The routes of care records: `/records/{id}/…`. Before a record's server is opened, each request is checked, in
/// order: a well-formed record id; someone signed in (or an access token, on JSON API routes only, for its own
/// record and within its scope); a membership in the record; a role holding the route's permission. A person who
/// is not a member gets the same 404 whether or not the record exists, so record ids cannot be probed. Every
/// decision is written to the audit log before the answer.
extension CareHost {
    static let recordPrefix = "/records/:record"

    /// The routes every record answers, with their policies and handlers.
    static var recordRouteList: [RecordRouteTable.Route] { RecordRouteTable.all.routes }

    /// What an access token needs for each JSON API route (`"GET /api/v1/tasks"`), for the OpenAPI document.
    static let apiPolicies: [String: RecordRoutePolicy.TokenAccess] =
        Dictionary(uniqueKeysWithValues: recordRouteList.compactMap { route in route.policy.tokenAccess.map { (route.key, $0) } })

    func addRecordRoutes(to routes: inout HostRoutes) {
        for route in recordRoutes {
            let host = self
            // Made once per route, not per request (the profile showed it).
            let detail = Self.auditDetail(route)
            routes.record(route.method, Self.recordPrefix + route.path, route.policy) { request, context in
                try await host.answer(route, detail: detail, request, context)
            }
        }
    }

    /// The route pattern as the audit log records it: `GET /records/{record}/contacts/{id}`.
    static func auditDetail(_ route: RecordRouteTable.Route) -> String {
        auditDetail(route.method, route.path)
    }

    /// The route pattern of `method` and `path` (relative to the record) as the audit log records it.
    static func auditDetail(_ method: HTTPRequest.Method, _ path: String) -> String {
        let path = (recordPrefix + path).split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }.joined(separator: "/")
        return "\(method.rawValue) \(path)"
    }

    /// Who is asking, in which record, with which membership: what `authorize` found.
    struct RecordAccess: Sendable {
        let identity: CareIdentity
        let record: CareRecordID
        let membership: CareMembership

        /// Only `authorize`, in this file, grants an access.
        fileprivate init(identity: CareIdentity, record: CareRecordID, membership: CareMembership) {
            (self.identity, self.record, self.membership) = (identity, record, membership)
        }
    }

    /// Checks who asks for `policy` on the record in the path (or `record`, for the FHIR endpoints, which name it as
    /// the Patient), in the order above, and writes the decision to the audit log: the access, or the refusal to
    /// answer with.
    func authorize(_ policy: RecordRoutePolicy, detail: String, _ request: Request,
                   _ context: CareRequestContext, record: String? = nil) async throws -> RecordAccess {
        let isAPI = policy.tokenAccess != nil
        guard let text = record ?? context.parameters.get("record"), let recordID = CareRecordID(text) else {
            throw Self.noSuchRecord
        }
        guard let identity = context.identity else {
            if request.headers[.authorization] != nil || isAPI {
                throw ClientError(status: .unauthorized, message: "Sign in, or send a valid access token as Authorization: Bearer.",
                                  headers: [.wwwAuthenticate: "Bearer realm=\"OpenCareKit\""])
            }
            throw SignInRequired()
        }
        func audit(_ outcome: AuditEntry.Outcome) async throws {
            try await self.audit.record(AuditEntry.Draft(
                recorded: configuration.now(), account: identity.account.id, token: identity.token?.id, record: recordID,
                resource: policy.resource, action: policy.action, outcome: outcome, address: context.clientAddress, detail: detail))
        }
        if let token = identity.token {
            // A token opens only its own record's JSON API, within its scope.
            guard token.record == recordID, let access = policy.tokenAccess else {
                try await audit(.denied)
                throw Self.noSuchRecord
            }
            guard let scope = try? SMARTScope.parseList(token.scope), SMARTScope.allows(scope, access) else {
                try await audit(.denied)
                let needed = access.operation == RecordRoutePolicy.TokenAccess.anyChange ? "a scope that creates, updates or deletes"
                    : access.resourceTypes.map { "patient/\($0).\(access.operation)" }.joined(separator: " and ")
                throw ClientError(status: .forbidden, message: "The access token's scope does not allow this (it needs \(needed)).")
            }
        }
        guard let membership = try await directory.membership(record: recordID, account: identity.account.id) else {
            try await audit(.denied)
            throw Self.noSuchRecord
        }
        let record = policy.permission.dependsOnRecord ? try await directory.record(recordID) : nil
        guard policy.permission.isGranted(to: membership, in: record) else {
            try await audit(.denied)
            throw LocalizedRefusal(.forbidden, policy.permission == .editPlan ? PageMessage(EditorText.notAllowedToEdit)
                                       : PageMessage(ErrorText.roleDoesNotAllow, membership.role.rawValue))
        }
        try await audit(.allowed)
        return RecordAccess(identity: identity, record: recordID, membership: membership)
    }

    /// The open server of the record `access` was granted (opened if it is not, from the directory's entry), or nil
    /// if there is no such record. Request handlers reach a record only so: a `RecordAccess` is made by `authorize`
    /// alone.
    func server(for access: RecordAccess) async throws -> CareServer? {
        try await records.server(for: access.record, load: { try await directory.record(access.record) })
    }

    /// The open server of `record` for the host's own work, which no request asks for (the reminder service's
    /// rounds); never for a request's handler.
    func serverForBackgroundWork(of record: CareRecordID) async throws -> CareServer? {
        try await records.server(for: record, load: { try await directory.record(record) })
    }

    /// The gate of every record route: authorization (`authorize`), the record's server, then — for an unsafe method
    /// asked with a session — the CSRF token (`CSRF.verify`; a request with an access token is not sent by a browser
    /// on its own, so it needs none); then the handler, with the `RecordContext` made here and nowhere else.
    func answer(_ route: RecordRouteTable.Route, detail: String, _ request: Request, _ context: CareRequestContext) async throws -> Response {
        let access = try await authorize(route.policy, detail: detail, request, context)
        guard let server = try await server(for: access) else { throw Self.noSuchRecord }
        let recordContext = RecordContext(
            base: context, access: access, auditTrail: auditTrail(access, request: request, context: context),
            accessCheck: AccessCheck(interval: configuration.liveAccessInterval) { [self] in
                await self.isStillAllowed(request, access: access, policy: route.policy)
            },
            writeAccess: { try await self.writeAccess(access) })
        var request = request
        if route.isUnsafe { try await refuseAnotherAccountsChange(request, access) }
        do {
            let limit = try await route.formLimit?(server)(request, recordContext)
            try await refuseForgery(&request, context, access: access, policy: route.policy, detail: detail,
                                    unsafe: route.isUnsafe, formLimit: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            guard let tooLarge = route.tooLarge else { throw error }
            return try await tooLarge(server)(request, recordContext)
        }
        // What this request reads includes every commit another app server acknowledged before it came, even
        // one whose notification has not arrived yet (the store's caches key on its change count).
        try await server.store.catchUp()
        var response = try await route.handler(server)(request, recordContext)
        if request.method == .get, access.identity.token == nil, let cookie = try await deviceAccountCookie(access, request) {
            response.setCookie(cookie)
        }
        return response
    }

    /// The cookie that tells the app's script on a device whose kept pages and queued changes are (`DeviceData`
    /// in `Resources/app.js`): a pseudonym of the signed-in account (an HMAC under the directory's log key, which
    /// says nothing of the person), set on a record's pages when it is missing or another account's. Readable by
    /// the script (not HttpOnly); it grants nothing. Sign-out clears it.
    func deviceAccountCookie(_ access: RecordAccess, _ request: Request) async throws -> Cookie? {
        let cookie = try await deviceAccountCookie(for: access.identity.account.id)
        return request.cookieValue(Self.deviceAccountCookieName) == Substring(cookie.value) ? nil : cookie
    }

    /// The device-account cookie naming `account` (set at sign-in too). It outlives an idle session on purpose: the
    /// sign-in page, where an ended session leads, clears it, and a page without it locks the device's data.
    func deviceAccountCookie(for account: CareAccountID) async throws -> Cookie {
        Cookie(name: Self.deviceAccountCookieName, value: try await devicePseudonym(of: account),
               maxAge: 30 * 86_400, path: "/",
               secure: configuration.usesSecureCookies, httpOnly: false, sameSite: .lax)
    }

    static let deviceAccountCookieName = "ock_account"
    /// The header in which the app's queue names the account (its pseudonym) whose change it sends.
    static let queuedAccountHeader = HTTPField.Name("X-OCK-Account")!

    /// A change the app queued on a device for one account, sent while another is signed in there (its session
    /// ended, and another person signed in): refused (409, field `account`), so that it is never made as the wrong
    /// person; the app keeps it until its own account signs in again.
    func refuseAnotherAccountsChange(_ request: Request, _ access: RecordAccess) async throws {
        guard let named = request.headers[Self.queuedAccountHeader] else { return }
        guard named != (try await devicePseudonym(of: access.identity.account.id)) else { return }
        throw ClientError(status: .conflict, field: "account",
                        message: "This change was made by another account on this device; sign in as that account to send it.")
    }

    /// The account's pseudonym on devices: the first 64 bits of an HMAC of its id under the directory's log key.
    func devicePseudonym(of account: CareAccountID) async throws -> String {
        RecordLogID.pseudonym(of: "device-account:\(account)", key: try await logKey.value(in: directory, now: configuration.now()))
    }

    /// The device-account cookie, expired: sent with sign-out, sign-in and the sign-in page (a device whose session
    /// ended holds no one's pages).
    func expiredDeviceAccountCookie() -> Cookie {
        Cookie(name: Self.deviceAccountCookieName, value: "", maxAge: 0, path: "/", secure: configuration.usesSecureCookies,
               httpOnly: false, sameSite: .lax)
    }

    /// The CSRF half of the gate: for an unsafe method asked with a session (a request with an access token is not
    /// sent by a browser on its own, so it needs none), the refusal when the request does not carry the reader's
    /// token (`CSRF.verify`: a form's field, read up to `formLimit`, or the `X-CSRF-Token` header); nil to go on.
    /// Throws the body's error (413 beyond the limit). A refusal is audited as denied, after `authorize`'s entry.
    func refuseForgery(_ request: inout Request, _ context: CareRequestContext, access: RecordAccess, policy: RecordRoutePolicy,
                       detail: String, unsafe: Bool, formLimit: Int?) async throws {
        guard unsafe, access.identity.token == nil,
              try await !CSRF.verify(&request, formLimit: formLimit ?? context.maxUploadSize) else { return }
        try await audit.record(AuditEntry.Draft(
            recorded: configuration.now(), account: access.identity.account.id, token: nil, record: access.record,
            resource: policy.resource, action: policy.action, outcome: .denied, address: context.clientAddress,
            detail: detail + " (no CSRF token)"))
        throw LocalizedRefusal(.forbidden, field: CSRF.fieldName, CSRF.expiredMessage)
    }

    /// What the person of `access` may change in the record: their role's permissions, and their token's scopes.
    func writeAccess(_ access: RecordAccess) async throws -> RecordWriteAccess {
        let record = try await directory.record(access.record)
        let granted = Set(RecordPermission.allCases.filter { $0.isGranted(to: access.membership, in: record) })
        return RecordWriteAccess(granted: granted, scopes: try access.identity.token.map { try SMARTScope.parseList($0.scope) })
    }

    /// The audit trail of the record of `access`, writing as the person asking.
    func auditTrail(_ access: RecordAccess, request: Request, context: CareRequestContext) -> RecordAuditTrail {
        let audit = self.audit, directory = self.directory, now = configuration.now, address = context.clientAddress
        return RecordAuditTrail(
            write: { resource, action, detail in
                try await audit.record(AuditEntry.Draft(
                    recorded: now(), account: access.identity.account.id, token: access.identity.token?.id, record: access.record,
                    resource: resource, action: action, outcome: .allowed, address: address, detail: detail))
            },
            read: { resource, limit in try await directory.auditEntries(record: access.record, resource: resource, limit: limit) },
            accountName: { id in try await directory.account(id)?.name },
            memberName: { id in
                try await directory.membership(record: access.record, account: id) == nil ? nil : try await directory.account(id)?.name
            },
            askerName: access.identity.account.name)
    }

    /// Whether the person of `access` may still do what `policy` allows: their session (or token) is still valid
    /// and their membership still grants it. A failure to look counts as no.
    func isStillAllowed(_ request: Request, access: RecordAccess, policy: RecordRoutePolicy) async -> Bool {
        do {
            guard await isStillSignedIn(request, account: access.identity.account.id) else { return false }
            guard let membership = try await directory.membership(record: access.record, account: access.identity.account.id) else {
                return false
            }
            let record = policy.permission.dependsOnRecord ? try await directory.record(access.record) : nil
            return policy.permission.isGranted(to: membership, in: record)
        } catch {
            return false
        }
    }

    /// Whether the session (or access token) `request` came with is still valid, for `account`. A failure to look
    /// counts as no.
    func isStillSignedIn(_ request: Request, account: CareAccountID) async -> Bool {
        do {
            if let authorization = request.headers[.authorization] {
                return try await identity(authorization: authorization)?.account.id == account
            }
            guard let id = request.cookieValue(Self.sessionCookie).map(String.init),
                  let session = try await sessionDriver.get(key: "session." + id, as: CareSession.self) else { return false }
            return session.isComplete && session.account == account
        } catch {
            return false
        }
    }

    /// The refusal of a record that does not exist or that the person has no access to: the same for both.
    static var noSuchRecord: LocalizedRefusal { LocalizedRefusal(.notFound, PageMessage(ErrorText.noSuchRecord)) }
}

/// No one is signed in: a browser is sent to sign in and back, a script gets 401.
struct SignInRequired: HTTPResponseError {
    var status: HTTPResponse.Status { .unauthorized }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        if request.wantsJSON || request.headers[.accept]?.contains("text/event-stream") == true {
            return try ClientError(status: .unauthorized, message: "Sign in first.").response(from: request, context: context)
        }
        let next = request.method == .get ? request.uri.description : nil
        return Response.redirect(to: "/sign-in" + (next.map { "?next=" + SafeRedirect.encode($0) } ?? ""), type: .normal)
    }
}

extension Request {
    /// Whether a script asked for JSON.
    var wantsJSON: Bool { headers[.accept]?.contains("application/json") == true }
}

/// What a record route's handler is given: the request's context and the access `CareHost`'s gate resolved for it —
/// who asks, in which record, with which membership — with the record's audit trail for that person, the live check of
/// their access and what they may change. Made only by the gate (`CareHost.answer`, in this file), after authorization
/// and CSRF; a handler gets no other context, so there is no record route without a resolved access.
@dynamicMemberLookup
struct RecordContext: Sendable {
    /// The request's own context (parameters, identity, client address, upload size).
    let base: CareRequestContext
    /// Who asks, in which record, with which membership.
    let access: CareHost.RecordAccess
    /// The record's audit trail, writing as the person asking.
    let auditTrail: RecordAuditTrail
    /// Whether the person may still see the record, and how often a live stream asks.
    let accessCheck: AccessCheck
    /// What the person asking may change (for routes whose input decides what they need, as a sync push).
    let writeAccess: @Sendable () async throws -> RecordWriteAccess

    fileprivate init(base: CareRequestContext, access: CareHost.RecordAccess, auditTrail: RecordAuditTrail, accessCheck: AccessCheck,
                     writeAccess: @escaping @Sendable () async throws -> RecordWriteAccess) {
        (self.base, self.access, self.auditTrail, self.accessCheck, self.writeAccess) = (base, access, auditTrail, accessCheck, writeAccess)
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<CareRequestContext, Value>) -> Value {
        base[keyPath: keyPath]
    }

    /// The person asking.
    var identity: CareIdentity { access.identity }
}
