import Foundation
@testable import OpenCareKitStore
import Testing

/// Reads whose cost follows what they return, on every engine: pages of outcome values found and counted in the
/// database (FHIR searches of Observations), and pulls that start at the first vector their device may not know.
extension StoreConformance {
    static let paging: [StoreCheck] = [
        StoreCheck("outcomeValuePagesAreTheValuesOfTheOutcomesInTheirOrder") { store in
            let store = try #require(store as? OCKStore)
            let (walk, gone, survey) = (try await store.addTask(Fixture.daily("walk")), try await store.addTask(Fixture.daily("gone")),
                                        try await store.addTask(Fixture.daily("survey")))
            var outcomes: [OCKOutcome] = []
            for day in 0..<8 {
                let time = Fixture.date(1 + day, 8 + day % 3)
                let values: [any OCKOutcomeValueUnderlyingType] = [day, Double(day) / 2, day % 2 == 0, "note", Data([1]), time]
                var outcome = OCKOutcome(taskUUID: walk.uuid, taskOccurrenceIndex: day, values: values.enumerated().map { index, value in
                    OCKOutcomeValue(value, createdDate: time.addingTimeInterval(Double(index) * 60))
                })
                // Two outcomes created at the same moment: their uuids order them.
                outcome.createdDate = Fixture.date(1 + day - day % 2, 8)
                outcomes.append(outcome)
                outcomes.append(OCKOutcome(taskUUID: gone.uuid, taskOccurrenceIndex: day, values: [OCKOutcomeValue(day, createdDate: time)]))
                outcomes.append(OCKOutcome(taskUUID: survey.uuid, taskOccurrenceIndex: day, values: [OCKOutcomeValue(day, createdDate: time)]))
            }
            let added = try await store.addOutcomes(outcomes).filter { $0.taskUUID == walk.uuid }
            var updated = added[3]
            updated.values = [OCKOutcomeValue(42, createdDate: Fixture.date(4, 20))]
            try await store.updateOutcome(updated)
            try await store.deleteOutcome(added[5])
            try await store.deleteTask(gone)
            // An outcome from a device that wrote no creation date: it comes first (no date sorts before every date).
            var undated = OCKOutcome(taskUUID: walk.uuid, taskOccurrenceIndex: 30, values: [OCKOutcomeValue(7, createdDate: Fixture.date(3, 9))])
            undated.createdDate = nil
            let device = UUID()
            try await store.mergeRevisions([OCKRevisionRecord(entities: [.outcome(undated)], knowledgeVector: .init([device: 1]))],
                                           deviceKnowledge: .init([device: 1]))

            // What the page must be, from the outcomes as a fetch gives them.
            let kept = Set(try await store.fetchTasks(query: OCKTaskQuery()).filter { $0.id != "survey" }.map(\.uuid))
            let ordered = try await store.fetchOutcomes(query: OCKOutcomeQuery()).filter { kept.contains($0.taskUUID) }.sorted { a, b in
                let (x, y) = (a.createdDate ?? .distantPast, b.createdDate ?? .distantPast)
                return x != y ? x < y : a.uuid.precedes(b.uuid)
            }
            func expected(_ conditions: [OCKValueDateCondition]) -> [OCKOutcomeValueKey] {
                ordered.flatMap { outcome in
                    outcome.values.enumerated().compactMap { position, value -> OCKOutcomeValueKey? in
                        guard !(value.value is Data), conditions.allSatisfy({ condition in
                            let date = value.createdDate
                            return switch condition {
                            case let .before(end): date < end
                            case let .notBefore(start): date >= start
                            case let .within(start, end): date >= start && date < end
                            case let .outside(start, end): date < start || date >= end
                            }
                        }) else { return nil }
                        return OCKOutcomeValueKey(outcome: outcome.uuid, position: position)
                    }
                }
            }
            let cases: [[OCKValueDateCondition]] = [[], [.notBefore(Fixture.date(4))], [.before(Fixture.date(3, 8, 30))],
                                                    [.within(Fixture.date(2), Fixture.date(6))], [.outside(Fixture.date(3), Fixture.date(5))],
                                                    [.notBefore(Fixture.date(2)), .before(Fixture.date(7))], [.before(Fixture.date(1))]]
            for conditions in cases {
                let all = expected(conditions)
                for (offset, limit) in [(0, 1_000), (0, 1), (5, 4), (max(0, all.count - 2), 10), (all.count + 1, 3)] {
                    let page = try await store.outcomeValuePage(excludingTaskIDs: ["survey"], conditions: conditions, offset: offset, limit: limit,
                                                                counting: true)
                    #expect(page.total == all.count, "\(conditions)")
                    #expect(page.keys == Array(all.dropFirst(offset).prefix(limit)), "\(conditions) \(offset) \(limit)")
                    #expect((page.next != nil) == (offset + limit < all.count), "\(conditions) \(offset) \(limit)")
                    // Every outcome version of the page, whole, as a fetch gives it.
                    #expect(Set(page.outcomes) == Set(ordered.filter { outcome in page.keys.contains { $0.outcome == outcome.uuid } }))
                }
                // Page after page by the cursor (through its text, as a link carries it), uncounted: every value once,
                // in order, and no next after the last.
                for limit in [1, 3, 7] {
                    var walked: [OCKOutcomeValueKey] = []
                    var cursor: OCKOutcomeValueCursor?
                    repeat {
                        let page = try await store.outcomeValuePage(excludingTaskIDs: ["survey"], conditions: conditions,
                                                                    after: cursor.flatMap { OCKOutcomeValueCursor(token: $0.token) }, limit: limit)
                        #expect(page.total == nil && page.keys.count <= limit)
                        walked += page.keys
                        if let next = page.next { #expect(next.key == page.keys.last && next.token != cursor?.token) }
                        cursor = page.next
                    } while cursor != nil && walked.count <= all.count
                    #expect(walked == all, "\(conditions) by \(limit)")
                }
            }
            #expect(expected([]).count > 30)
            #expect(ordered.first?.createdDate == nil && ordered.first?.uuid == undated.uuid)
            // A cursor's text is exact, and nothing else reads as one.
            let cursor = OCKOutcomeValueCursor(createdDate: 0.1 + 0.2, key: OCKOutcomeValueKey(outcome: walk.uuid, position: 3))
            #expect(OCKOutcomeValueCursor(token: cursor.token) == cursor)
            #expect(OCKOutcomeValueCursor(token: OCKOutcomeValueCursor(createdDate: nil, key: cursor.key).token)?.createdDate == nil)
            for text in ["", "-", "x_\(walk.uuid)_1", "3ff0000000000000_\(walk.uuid)", "7ff0000000000000_\(walk.uuid)_1",
                         "3ff0000000000000_nope_1", "3ff0000000000000_\(walk.uuid)_-1", "3ff0000000000000_\(walk.uuid)_1_2"] {
                #expect(OCKOutcomeValueCursor(token: text) == nil, "\(text)")
            }
        },
        StoreCheck("eventStatesAreWhatFetchEventsSays") { store in
            let store = try #require(store as? OCKStore)
            // A daily task whose second version takes over at noon on the 5th, an all-day task whose second version
            // takes over at 10:00 on the 6th (that day's event stays the first's), a task of two versions deleted, events
            // done, an outcome deleted.
            let walk = try await store.addTask(Fixture.daily("walk"))
            var walk2 = walk
            walk2.title = "Walk further"
            walk2.effectiveDate = Fixture.date(5, 12)
            let walkLater = try await store.updateTask(walk2)
            var nap = OCKTask(id: "nap", title: "Nap", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                OCKScheduleElement(start: Fixture.date(1), end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: Fixture.calendar)]))
            nap = try await store.addTask(nap)
            var nap2 = nap
            nap2.title = "Rest"
            nap2.effectiveDate = Fixture.date(6, 10)
            let napLater = try await store.updateTask(nap2)
            let gone = try await store.addTask(Fixture.daily("gone", hours: [9]))
            var gone2 = gone
            gone2.title = "Gone later"
            gone2.effectiveDate = Fixture.date(4, 12)
            let goneLater = try await store.updateTask(gone2)
            _ = try await store.addOutcomes([Fixture.done(walk, 1), Fixture.done(walkLater, 6), Fixture.done(nap, 2), Fixture.done(napLater, 7)])
            let undone = try await store.addOutcome(Fixture.done(walk, 3))
            try await store.deleteOutcome(undone)
            try await store.deleteTask(goneLater)
            // Every event of every version over ten days, and what fetchEvents says of each.
            var keys: [OCKEventKey] = []
            var expected = OCKEventStates()
            for version in [walk, walkLater, nap, napLater, gone, goneLater] {
                for event in version.schedule.events(from: Fixture.date(1), to: Fixture.date(11)) {
                    keys.append(OCKEventKey(taskUUID: version.uuid, occurrence: event.occurrence, start: event.start))
                }
            }
            // Each event as fetchEvents gives it over the second it starts in (a day's query leaves out a version
            // replaced by a tombstone later that day: the deleted task's event at 9:00 before its deletion at noon).
            for key in keys {
                for event in try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: key.start, duration: 1)))
                where event.task.uuid == key.taskUUID && event.scheduleEvent.occurrence == key.occurrence && event.scheduleEvent.start == key.start {
                    if event.outcome != nil { expected.done.insert(key) } else { expected.undone[key] = event.task.title }
                }
            }
            // A key of no stored version.
            keys += [OCKEventKey(taskUUID: UUID(), occurrence: 0, start: Fixture.date(1, 8))]
            let states = try await store.eventStates(keys)
            #expect(states.done == expected.done)
            #expect(states.undone == expected.undone, "\(Set(expected.undone.map { "\($0.value ?? "") \($0.key.occurrence)" }).symmetricDifference(states.undone.map { "\($0.value ?? "") \($0.key.occurrence)" }).sorted())")
            // Ten days of two tasks of two versions each (walk 1-5 then 6-10; nap 1-6 then 7-10), four done; the deleted
            // task's first version until its second took over (9:00 on the 1st to the 4th), the second's none.
            #expect(expected.done.count == 4 && expected.undone.count == 20, "\(expected.done.count) \(expected.undone.count)")
            #expect(Set(states.undone.values) == ["walk", "Walk further", "Nap", "Rest", "gone"])
            // Keys fetchEvents never gives are no events (the deleted task's, the replaced versions' later days).
            #expect(keys.count > expected.done.count + expected.undone.count)
            #expect(try await store.eventStates([]).undone.isEmpty)
        },
        StoreCheck("aPullStartsAtTheFirstVectorItsDeviceMayNotKnow") { store in
            let store = try #require(store as? OCKStore)
            let task = try await store.addTask(Fixture.daily("walk"))
            _ = try await store.revisions(since: .init())
            let device = UUID()
            // 300 vectors of one device's writes (one merge), after the store's own first one.
            let records = (1...300).map { clock in
                OCKRevisionRecord(entities: [.outcome(Fixture.done(task, clock))], knowledgeVector: .init([device: clock]))
            }
            try await store.mergeRevisions(records, deviceKnowledge: .init([device: 300]))
            let full = try await store.knowledgeVector()
            #expect(try await store.firstVectorRead(since: full) == 257)
            #expect(try await store.firstVectorRead(since: .init()) == 0)
            var behind = full
            behind.processes[device] = 200
            #expect(try await store.firstVectorRead(since: behind) == 0)
            let page = try await store.revisions(since: behind, limit: 10_000)
            let occurrences = page.revisions.flatMap(\.entities).compactMap { entity -> Int? in
                if case let .outcome(outcome) = entity { outcome.taskOccurrenceIndex } else { nil }
            }
            #expect(occurrences == Array(201...300))
            #expect(try await store.revisions(since: full).revisions.isEmpty)
        },
    ]
}
