import Foundation

/// An event named as a reminder index names it: the task version that owns it, its occurrence and its start.
package struct OCKEventKey: Hashable, Sendable {
    package var taskUUID: UUID
    package var occurrence: Int
    package var start: Date

    package init(taskUUID: UUID, occurrence: Int, start: Date) {
        (self.taskUUID, self.occurrence, self.start) = (taskUUID, occurrence, start)
    }
}

/// What became of events a reminder index found due (`OCKStore.eventStates`).
package struct OCKEventStates: Sendable {
    /// The events still to do, with their task version's title.
    package var undone: [OCKEventKey: String?] = [:]
    /// The events that are done (their occurrence has a current outcome).
    package var done: Set<OCKEventKey> = []
    // The others are no longer events: their version was deleted or replaced before their start.
}

extension OCKStore {
    /// What became of `events`: those that are still events — their version stored, not deleted and in effect at the
    /// event's start (no later version, a deletion's tombstone included, has taken over by then) — either done (the occurrence has a current outcome)
    /// or not, with their version's title; what `fetchEvents` answers for each over the second the event starts in,
    /// read from two indexed queries without decoding a task or an outcome. What a minute of reminders asks of each
    /// record it reminds (a task deleted at noon still had its 9:00 event).
    package func eventStates(_ events: [OCKEventKey]) async throws -> OCKEventStates {
        guard !events.isEmpty else { return OCKEventStates() }
        let taskUUIDs = Array(Set(events.map(\.taskUUID)))
        let occurrences = Array(Set(events.map(\.occurrence)))
        return try await read { db in
            var versions: [UUID: (title: String?, effective: Double, next: Double?)] = [:]
            for chunk in taskUUIDs.chunked(by: 500) {
                try await db.forEachRow("""
                    SELECT uuid, title, effective_date, next_effective_date FROM tasks
                    WHERE deleted_date IS NULL AND uuid IN (\(QuerySQL.placeholders(chunk.count)))
                    """, chunk.map(\.sqlValue)) { row in
                    versions[try row.uuid("uuid")] = (try row.optionalString("title"), try row.double("effective_date"),
                                                      try row.optionalDouble("next_effective_date"))
                }
            }
            var done: Set<OCKEventKeyWithoutStart> = []
            for chunk in taskUUIDs.chunked(by: 500) {
                try await db.forEachRow("""
                    SELECT task_uuid, occurrence FROM outcomes
                    WHERE next_effective_date IS NULL AND deleted_date IS NULL
                    AND task_uuid IN (\(QuerySQL.placeholders(chunk.count))) AND occurrence IN (\(QuerySQL.placeholders(occurrences.count)))
                    """, chunk.map(\.sqlValue) + occurrences.map(\.sqlValue)) { row in
                    done.insert(OCKEventKeyWithoutStart(taskUUID: try row.uuid("task_uuid"), occurrence: try row.int("occurrence")))
                }
            }
            var states = OCKEventStates()
            for event in events {
                guard let version = versions[event.taskUUID] else { continue }
                let start = event.start.storeValue
                guard version.effective <= start, version.next.map({ $0 > start }) ?? true else { continue }
                if done.contains(OCKEventKeyWithoutStart(taskUUID: event.taskUUID, occurrence: event.occurrence)) {
                    states.done.insert(event)
                } else {
                    states.undone[event] = version.title
                }
            }
            return states
        }
    }
}

private struct OCKEventKeyWithoutStart: Hashable {
    var taskUUID: UUID
    var occurrence: Int
}

extension Array {
    /// The array in consecutive pieces of at most `size` elements.
    fileprivate func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
