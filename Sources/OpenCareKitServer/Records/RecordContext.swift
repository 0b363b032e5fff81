import Hummingbird
import OpenCareKitStore

/// What a record route's handler is given: the request's context and the access `CareHost` resolved for it — who
/// asks, in which record, with which membership — with the record's audit trail for that person, the live check of
/// their access and what they may change. A handler is reached only through `CareHost`'s gate (authorization, then
/// CSRF on every unsafe method), and this is the only context it gets: there is no record route without a resolved
/// access, and `CareHost.RecordAccess` is made only by that gate.
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

    subscript<Value>(dynamicMember keyPath: KeyPath<CareRequestContext, Value>) -> Value {
        base[keyPath: keyPath]
    }

    /// The person asking.
    var identity: CareIdentity { access.identity }
}
