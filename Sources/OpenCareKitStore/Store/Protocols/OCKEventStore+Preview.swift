import Foundation

extension DateInterval {
    /// A query dated with this interval returns each entity's newest version (the one in effect at the end of time),
    /// not every version it ever had: what an editor lists, at a cost that does not grow with its history.
    public static let newestVersions = DateInterval(start: .distantPast, end: .distantFuture)
}

extension OCKReadOnlyEventStore where Task == OCKTask {
    /// The newest version of task `id` — the one an update replaces — or nil if there is none or it was deleted.
    public func newestVersion(ofTaskWithID id: String) async throws -> OCKTask? {
        var query = OCKTaskQuery()
        query.ids = [id]
        query.dateInterval = .newestVersions
        return try await fetchTasks(query: query).filter(\.nextVersionUUIDs.isEmpty)
            .max { ($0.effectiveDate, $0.updatedDate ?? .distantPast) < ($1.effectiveDate, $1.updatedDate ?? .distantPast) }
    }

    /// The events of `proposed`'s task that `query` would return if `proposed` were saved now: as an update of the
    /// task with its id (a new version from `proposed.effectiveDate`), or as a new task if there is none or it was
    /// deleted. Nothing is written. A plan editor shows these before saving; they are what the Care page will show,
    /// because they come from the same version walk as `fetchEvents(query:)`.
    ///
    /// For example:
    /// ```swift
    /// var changed = try await store.fetchTask(withID: "ibuprofen")
    /// changed.schedule = OCKSchedule.dailyAtTime(hour: 9, minutes: 0, start: start, end: nil, text: nil)
    /// changed.effectiveDate = tomorrow
    /// let days = try await store.previewEvents(of: changed, query: OCKEventQuery(for: tomorrow))
    /// ```
    ///
    /// - Throws: What `fetchEvents(query:)` throws.
    public func previewEvents(of proposed: OCKTask, query: OCKEventQuery) async throws -> [Event] {
        let interval = query.dateInterval
        let tip = try await newestVersion(ofTaskWithID: proposed.id)
        var version = proposed
        version.uuid = UUID.timeOrdered()
        version.previousVersionUUIDs = tip.map { [$0.uuid] } ?? []
        version.nextVersionUUIDs = []
        version.deletedDate = nil
        let newest: OCKTask
        if version.effectiveDate < interval.end {
            newest = version
        } else {
            var inEffect = query.taskQuery
            inEffect.ids = [proposed.id]
            guard let current = try await fetchTasks(query: inEffect).first else { return [] }
            newest = current
        }
        guard query.taskQuery.lists(newest) else { return [] }
        let chain = try await versionChain(from: newest, reaching: interval.start)
        var events: [Event] = []
        try Self.appendPartialEvents(chain, in: interval, to: &events)
        guard !events.isEmpty else { return [] }
        return try await joiningOutcomes(events, of: chain.map(\.uuid), in: interval)
    }
}
