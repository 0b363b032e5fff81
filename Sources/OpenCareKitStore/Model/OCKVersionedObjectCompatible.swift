import Foundation

/// The metadata every CareKit entity carries: dates, tags, remote and group identifiers, notes and the time zone it
/// was written in.
public protocol OCKObjectCompatible: Sendable {
    /// When the entity's first version was saved. The store sets it when an entity is added (unless the caller did) and
    /// every later version keeps it.
    var createdDate: Date? { get set }
    /// When the store saved this version.
    var updatedDate: Date? { get set }
    /// The version of CareKit's data schema the version was written with. This store stamps `3.0.0` (what CareKit 4's
    /// store writes) on every version it saves; versions merged from other stores keep theirs.
    var schemaVersion: OCKSemanticVersion? { get set }
    /// The entity's identifier on a remote server, if it has one; queries can filter on it (`remoteIDs`).
    var remoteID: String? { get set }
    /// A free-form identifier for grouping entities; queries can filter on it (`groupIdentifiers`).
    var groupIdentifier: String? { get set }
    /// Free-form tags; a query with `tags` matches entities that have any of them.
    var tags: [String]? { get set }
    /// Where the entity came from, such as an app, a device or a server.
    var source: String? { get set }
    /// Extra string values for app-specific data, kept and synchronized as they are.
    var userInfo: [String: String]? { get set }
    /// The name of an image or other asset.
    var asset: String? { get set }
    /// Notes attached to the entity.
    var notes: [OCKNote]? { get set }
    /// The time zone the entity was created in (`TimeZone.current` for the model's initializers).
    var timezone: TimeZone { get set }
}

/// An entity stored as a chain of versions: every version shares `id` and has its own `uuid`; `previousVersionUUIDs`
/// and `nextVersionUUIDs` link the versions, and each version applies from its `effectiveDate`.
///
/// CareKit keeps this protocol internal; it is public here so other backends (such as the PostgreSQL store) can be
/// written against it.
public protocol OCKVersionedObjectCompatible: OCKObjectCompatible {
    /// The user-chosen identifier shared by all versions of the entity, such as `"ibuprofen"`.
    var id: String { get }
    /// The identifier of this version. Adding an entity keeps the uuid it has; each update or delete appends a version
    /// with a new one.
    var uuid: UUID { get set }
    /// The uuids of the versions this one replaces: empty for a first version, one uuid after an update, several where
    /// synchronization joined edits made apart. The store sets it.
    var previousVersionUUIDs: [UUID] { get set }
    /// The uuids of the versions that replace this one; empty for the newest version. The store sets it.
    var nextVersionUUIDs: [UUID] { get set }
    /// When this version starts to apply. A query with a date interval returns, for each entity, the version in effect
    /// at the interval's end: the newest one effective before it.
    var effectiveDate: Date { get set }
    /// When the entity was deleted. Only a tombstone, the version a delete appends, has one; queries never return
    /// tombstones.
    var deletedDate: Date? { get set }
}

/// A string coding key, so entities can share the coding of their common fields.
struct EntityCodingKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

typealias EntityDecodingContainer = KeyedDecodingContainer<EntityCodingKey>
typealias EntityEncodingContainer = KeyedEncodingContainer<EntityCodingKey>

extension OCKVersionedObjectCompatible {
    /// Reads the shared fields, keeping the current value for those that are absent (`uuid`, the version links).
    mutating func decodeSharedFields(from container: EntityDecodingContainer, effectiveDateRequired: Bool = true) throws {
        if effectiveDateRequired {
            effectiveDate = try container.decode(Date.self, forKey: "effectiveDate")
        } else if let effectiveDate = try container.decodeIfPresent(Date.self, forKey: "effectiveDate") {
            self.effectiveDate = effectiveDate
        }
        uuid = try container.decodeIfPresent(UUID.self, forKey: "uuid") ?? uuid
        previousVersionUUIDs = try container.decodeIfPresent([UUID].self, forKey: "previousVersionUUIDs") ?? []
        nextVersionUUIDs = try container.decodeIfPresent([UUID].self, forKey: "nextVersionUUIDs") ?? []
        deletedDate = try container.decodeIfPresent(Date.self, forKey: "deletedDate")
        createdDate = try container.decodeIfPresent(Date.self, forKey: "createdDate")
        updatedDate = try container.decodeIfPresent(Date.self, forKey: "updatedDate")
        schemaVersion = try container.decodeIfPresent(OCKSemanticVersion.self, forKey: "schemaVersion")
        remoteID = try container.decodeIfPresent(String.self, forKey: "remoteID")
        groupIdentifier = try container.decodeIfPresent(String.self, forKey: "groupIdentifier")
        tags = try container.decodeIfPresent([String].self, forKey: "tags")
        source = try container.decodeIfPresent(String.self, forKey: "source")
        userInfo = try container.decodeIfPresent([String: String].self, forKey: "userInfo")
        asset = try container.decodeIfPresent(String.self, forKey: "asset")
        notes = try container.decodeIfPresent([OCKNote].self, forKey: "notes")
        timezone = try container.decode(TimeZone.self, forKey: "timezone")
    }

    func encodeSharedFields(to container: inout EntityEncodingContainer) throws {
        try container.encode(id, forKey: "id")
        try container.encode(uuid, forKey: "uuid")
        try container.encode(previousVersionUUIDs, forKey: "previousVersionUUIDs")
        try container.encode(nextVersionUUIDs, forKey: "nextVersionUUIDs")
        try container.encode(effectiveDate, forKey: "effectiveDate")
        try container.encodeIfPresent(deletedDate, forKey: "deletedDate")
        try container.encodeIfPresent(createdDate, forKey: "createdDate")
        try container.encodeIfPresent(updatedDate, forKey: "updatedDate")
        try container.encodeIfPresent(schemaVersion, forKey: "schemaVersion")
        try container.encodeIfPresent(remoteID, forKey: "remoteID")
        try container.encodeIfPresent(groupIdentifier, forKey: "groupIdentifier")
        try container.encodeIfPresent(tags, forKey: "tags")
        try container.encodeIfPresent(source, forKey: "source")
        try container.encodeIfPresent(userInfo, forKey: "userInfo")
        try container.encodeIfPresent(asset, forKey: "asset")
        try container.encodeIfPresent(notes, forKey: "notes")
        try container.encode(timezone, forKey: "timezone")
    }

    /// Checks the shared fields: a non-empty id of at most 1,024 bytes, dates within 1900…4001, a non-negative
    /// schema version.
    func validateSharedFields() throws(OCKValidationError) {
        try Self.validateIdentifier(id, field: "id")
        try DateBounds.check(effectiveDate, field: "effectiveDate")
        if let createdDate { try DateBounds.check(createdDate, field: "createdDate") }
        if let updatedDate { try DateBounds.check(updatedDate, field: "updatedDate") }
        if let deletedDate { try DateBounds.check(deletedDate, field: "deletedDate") }
        if let schemaVersion { try schemaVersion.validate() }
    }

    static func validateIdentifier(_ id: String, field: String) throws(OCKValidationError) {
        guard id.utf8.count <= 1_024 else {
            throw OCKValidationError(field: field, reason: "must not be longer than 1024 bytes")
        }
        var hasVisibleCharacter = false
        for scalar in id.unicodeScalars {
            let value = scalar.value
            // C0 and C1 control characters, and DEL.
            if value < 0x20 || (0x7F...0x9F).contains(value) {
                throw OCKValidationError(field: field, reason: "must not contain control characters")
            }
            if !hasVisibleCharacter {
                hasVisibleCharacter = value < 0x80 ? value != 0x20 : !scalar.properties.isWhitespace
            }
        }
        guard hasVisibleCharacter else { throw OCKValidationError(field: field, reason: "must not be empty") }
    }
}
