import Foundation

/// The filters every entity query shares.
///
/// CareKit keeps this protocol internal; it is public here so store backends can be written against it.
public protocol OCKQueryProtocol: Hashable, Sendable {
    /// A query that matches every entity.
    init()
    /// Match these entity ids (empty: any).
    var ids: [String] { get set }
    /// Match these version uuids (empty: any).
    var uuids: [UUID] { get }
    /// Match these group identifiers; a nil entry matches entities without one (empty: any).
    var groupIdentifiers: [String?] { get }
    /// Match entities with any of these tags (empty: any).
    var tags: [String] { get }
    /// Match these remote ids; a nil entry matches entities without one (empty: any).
    var remoteIDs: [String?] { get }
    /// With an interval, the version of each entity in effect at the interval's end (the newest one effective before
    /// it); without, every version that is not a tombstone, of entities that are not deleted (CareKit also returns the
    /// versions of deleted entities). Outcome queries read it differently (see ``OCKOutcomeQuery``).
    var dateInterval: DateInterval? { get set }
    /// At most this many results; nil or 0 means no limit.
    var limit: Int? { get }
    /// Skip this many results first (for paging; use with a sort order).
    var offset: Int { get }
}

extension OCKQueryProtocol {
    /// A query for the versions effective during `dateInterval` (every version when nil).
    public init(dateInterval: DateInterval? = nil) {
        self.init()
        self.dateInterval = dateInterval
    }

    /// A query for the versions effective on the day of `date`, from its start to its last second, in `calendar`
    /// (CareKit always uses the current calendar).
    public init(for date: Date, calendar: Calendar = .current) {
        self.init(dateInterval: .careKitDay(containing: date, calendar: calendar))
    }

    /// A query for the entity with `id`.
    public init(id: String) {
        self.init()
        self.ids = [id]
    }
}

extension DateInterval {
    /// CareKit's day interval: from the start of the day of `date` to the last second of that day.
    static func careKitDay(containing date: Date, calendar: Calendar) -> DateInterval {
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: DateComponents(day: 1, second: -1), to: start) ?? start
        return DateInterval(start: start, end: max(start, end))
    }
}
