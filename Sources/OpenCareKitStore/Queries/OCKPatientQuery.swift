import Foundation

/// A query for patients, as in CareKitStore. Empty filters match everything; the default order is newest
/// created first.
public struct OCKPatientQuery: OCKQueryProtocol, Codable {
    /// A sort order.
    public enum SortDescriptor: Codable, Hashable, Sendable {
        /// By group identifier; patients without one sort first when ascending.
        case groupIdentifier(ascending: Bool)
        /// By given name.
        case givenName(ascending: Bool)
        /// By family name.
        case familyName(ascending: Bool)
        /// By the version's effective date.
        case effectiveDate(ascending: Bool)
    }

    /// Sort orders, applied in turn.
    public var sortDescriptors: [SortDescriptor] = []
    public var ids: [String] = []
    public var uuids: [UUID] = []
    public var groupIdentifiers: [String?] = []
    public var tags: [String] = []
    public var remoteIDs: [String?] = []
    public var dateInterval: DateInterval?
    public var limit: Int?
    public var offset: Int = 0

    /// A query for every entity. `OCKQueryProtocol` adds `init(dateInterval:)`, `init(for:calendar:)` and
    /// `init(id:)`.
    public init() {}
}
