import Foundation
import OpenCareKitSurveys

/// Surveys in progress, kept in memory until they are finished or cancelled: nothing reaches the store before the
/// last step, so a cancelled, abandoned or failed survey saves nothing.
///
/// A session belongs to the browser that started it (its CSRF cookie) and has a random id. Finished and cancelled
/// ids are remembered, so a replayed submission is told apart from an unknown one. Sessions idle for two hours
/// expire, and at most `capacity` are kept (the oldest go first).
actor SurveySessions {
    struct Entry: Sendable {
        var session: OCKSurveySession
        /// The CSRF token of the browser that started it.
        let owner: String
        let taskID: String
        let taskUUID: UUID
        let occurrence: Int
        /// The Care page's day, `YYYY-MM-DD`, to go back to.
        let day: String
        var lastUsed: Date
    }

    /// What became of a session that is no longer open.
    enum Closed: Sendable {
        /// Its answers were saved.
        case finished
        case cancelled
        /// Its answers could not be saved: the event was answered elsewhere meanwhile, or its task changed.
        case discarded
    }

    enum Lookup: Sendable {
        case open(Entry)
        case closed(Closed)
        case unknown
    }

    let capacity: Int
    /// Sessions one browser may have open at once (one per survey it is answering).
    let capacityPerOwner: Int
    let lifetime: TimeInterval
    private var entries: [String: Entry] = [:]
    private var closed: [String: Closed] = [:]
    private var closedOrder: [String] = []

    init(capacity: Int = 256, capacityPerOwner: Int = 4, lifetime: TimeInterval = 2 * 3600) {
        self.capacity = capacity
        self.capacityPerOwner = capacityPerOwner
        self.lifetime = lifetime
    }

    /// Opens a session and returns its id. The browser's open session for the same event is returned instead (a
    /// second "Start survey" continues it); a browser's oldest session goes when it has too many, and the oldest of
    /// all when the store is full.
    func open(_ entry: Entry) -> String {
        expire(now: entry.lastUsed)
        if let existing = entries.first(where: {
            $0.value.owner == entry.owner && $0.value.taskUUID == entry.taskUUID && $0.value.occurrence == entry.occurrence
        }) {
            return existing.key
        }
        let mine = entries.filter { $0.value.owner == entry.owner }
        if mine.count >= capacityPerOwner, let oldest = mine.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            entries.removeValue(forKey: oldest)
        }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            entries.removeValue(forKey: oldest)
        }
        let id = CSRF.newToken()
        entries[id] = entry
        return id
    }

    /// The session `id` if `owner` started it; someone else's session is as unknown as one that never was.
    func lookup(_ id: String, owner: String?, now: Date) -> Lookup {
        expire(now: now)
        if let entry = entries[id] {
            guard let owner, entry.owner == owner else { return .unknown }
            return .open(entry)
        }
        return closed[id].map(Lookup.closed) ?? .unknown
    }

    /// Keeps the session's new state.
    func update(_ id: String, _ session: OCKSurveySession, now: Date) {
        entries[id]?.session = session
        entries[id]?.lastUsed = now
    }

    /// Closes the session, returning it if it was still open: of two submissions racing to finish, one gets it.
    func close(_ id: String, as outcome: Closed) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        closed[id] = outcome
        closedOrder.append(id)
        if closedOrder.count > capacity * 4 {
            closed.removeValue(forKey: closedOrder.removeFirst())
        }
        return entry
    }

    /// Records what became of a closed session (a finish that could not save).
    func mark(_ id: String, as outcome: Closed) {
        if closed[id] != nil { closed[id] = outcome }
    }

    /// Reopens a session whose finishing failed to save, so the participant can try again.
    func reopen(_ id: String, _ entry: Entry) {
        closed.removeValue(forKey: id)
        closedOrder.removeAll { $0 == id }
        entries[id] = entry
    }

    private func expire(now: Date) {
        entries = entries.filter { now.timeIntervalSince($0.value.lastUsed) < lifetime }
    }
}
