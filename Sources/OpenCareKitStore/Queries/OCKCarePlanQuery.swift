import Foundation

/// A query for care plans, as in CareKitStore. Empty filters match everything; the default order is newest
/// created first.
public struct OCKCarePlanQuery: OCKQueryProtocol, Codable {
    /// A sort order.
    public enum SortDescriptor: Codable, Hashable, Sendable {
        /// By title.
        case title(ascending: Bool)
        /// By the version's effective date.
        case effectiveDate(ascending: Bool)
    }

    /// Only plans for the patients with these ids (whichever patient version they name).
    public var patientIDs: [String] = []
    /// Only plans whose `patientUUID` is one of these patient versions.
    public var patientUUIDs: [UUID] = []
    /// Only plans for the patients with these remote ids (whichever patient version they name).
    public var patientRemoteIDs: [String] = []
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
