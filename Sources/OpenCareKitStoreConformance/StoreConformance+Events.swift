import Foundation
import OpenCareKitStore
import Testing

extension StoreConformance {
    static let events: [StoreCheck] = [
        StoreCheck("anEventsLastOutcomeDeletionIsItsNewestTombstone") { store in
            let store = try #require(store as? OCKStore)
            let task = try await store.addTask(Fixture.daily("med", hours: [8, 20]))
            #expect(try await store.lastOutcomeDeletion(taskUUID: task.uuid, occurrence: 19) == nil)
            let first = try await store.addOutcome(Fixture.done(task, 19))
            try await store.deleteOutcome(first)
            let firstDeletion = try #require(try await store.lastOutcomeDeletion(taskUUID: task.uuid, occurrence: 19))
            let second = try await store.addOutcome(Fixture.done(task, 19))
            // Done again: the last deletion is still the first's.
            #expect(try await store.lastOutcomeDeletion(taskUUID: task.uuid, occurrence: 19) == firstDeletion)
            try await store.deleteOutcome(second)
            let secondDeletion = try #require(try await store.lastOutcomeDeletion(taskUUID: task.uuid, occurrence: 19))
            #expect(secondDeletion >= firstDeletion)
            let tombstones = try await store.fetchOutcomes(query: OCKOutcomeQuery()).count
            #expect(tombstones == 0)
            // Another occurrence has none.
            #expect(try await store.lastOutcomeDeletion(taskUUID: task.uuid, occurrence: 18) == nil)
        },
        StoreCheck("eventsJoinOutcomesByOccurrence") { store in
            let task = try await store.addTask(Fixture.daily("med", hours: [8, 20]))
            try await store.addOutcome(Fixture.done(task, 19)) // Nov 10, 20:00
            let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(10)))
            #expect(events.map(\.scheduleEvent.occurrence) == [18, 19])
            #expect(events.map { $0.outcome != nil } == [false, true])
        },
        StoreCheck("eventsWalkTaskVersions") { store in
            // CareKit's example: meals at 07:30, 12:00 and 17:30; a new version takes effect at 17:30 on the 2nd.
            let calendar = Fixture.calendar
            func meals(_ day: Int, text: String) -> OCKSchedule {
                OCKSchedule(composing: [(7, 30), (12, 0), (17, 30)].map {
                    OCKScheduleElement(start: Fixture.date(day, $0.0, $0.1), end: nil, interval: DateComponents(day: 1),
                                       text: text, calendar: calendar)
                })
            }
            let first = try await store.addTask(OCKTask(id: "meals", title: nil, carePlanUUID: nil, schedule: meals(1, text: "v1")))
            var second = first
            second.schedule = meals(2, text: "v2")
            second.effectiveDate = Fixture.date(2, 17, 30)
            try await store.updateTask(second)
            let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(2)))
            #expect(events.map { $0.scheduleEvent.element.text } == ["v1", "v1", "v2"])
            #expect(events.map { calendar.component(.hour, from: $0.scheduleEvent.start) } == [7, 12, 17])
            let later = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(3)))
            #expect(later.map { $0.scheduleEvent.element.text } == ["v2", "v2", "v2"])
        },
        StoreCheck("sortingEventsGivesTheFetchOrder") { store in
            // Four tasks at 08:00 whose ids run the other way from their uuids; one also at 20:00. A fetch orders by
            // start, task uuid, occurrence (CareKit's order); sorting with `<` must give the same.
            for (index, id) in ["a", "b", "c", "d"].enumerated() {
                var task = Fixture.daily(id, hours: id == "b" ? [8, 20] : [8])
                task.uuid = UUID(uuidString: "0000000\(4 - index)-0000-0000-0000-000000000000")!
                try await store.addTask(task)
            }
            let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(10)))
            #expect(events.map(\.task.id) == ["d", "c", "b", "a", "b"])
            #expect(events.reversed().sorted() == events)
            for (earlier, later) in zip(events, events.dropFirst()) {
                #expect(earlier < later && !(later < earlier))
            }
        },
        StoreCheck("eventsIncludeThoseOverlappingTheInterval") { store in
            var task = Fixture.daily("night")
            task.schedule = OCKSchedule(composing: [OCKScheduleElement(start: Fixture.date(1, 22), end: nil, interval: DateComponents(day: 1),
                                                                       duration: .hours(4), calendar: Fixture.calendar)])
            try await store.addTask(task)
            let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(5)))
            #expect(events.map(\.scheduleEvent.occurrence) == [3, 4])
        },
        StoreCheck("fetchEventByOccurrence") { store in
            let task = try await store.addTask(Fixture.daily("med"))
            try await store.addOutcome(Fixture.done(task, 4))
            let event = try await store.fetchEvent(forTask: task, occurrence: 4)
            #expect(event.scheduleEvent.start == Fixture.date(5, 8))
            #expect(event.outcome?.taskOccurrenceIndex == 4)
            #expect(try await store.fetchEvent(forTask: task, occurrence: 5).outcome == nil)
            let added = try await store.addTask(Fixture.bounded("bounded", until: Fixture.date(2)))
            #expect(await failure { _ = try await store.fetchEvent(forTask: added, occurrence: 3) }?.isFetchFailed == true)
        },
        StoreCheck("adherenceCountsTasksThatImpactIt") { store in
            let med = try await store.addTask(Fixture.daily("med", hours: [8, 20]))
            var log = Fixture.daily("nausea")
            log.impactsAdherence = false
            try await store.addTask(log)
            try await store.addOutcome(Fixture.done(med, 8)) // Nov 5, 08:00
            let query = OCKAdherenceQuery(taskIDs: [], dateInterval: DateInterval(start: Fixture.date(4), end: Fixture.date(6)))
            let adherence = try await store.fetchAdherence(query: query, calendar: Fixture.calendar)
            #expect(adherence.prefix(2) == [.progress(0), .progress(0.5)])
            let before = OCKAdherenceQuery(taskIDs: [], dateInterval: DateInterval(start: Fixture.date(1, month: 10), end: Fixture.date(3, month: 10)))
            #expect(try await store.fetchAdherence(query: before, calendar: Fixture.calendar).allSatisfy { $0 == .noTasks })
        },
    ]
}
