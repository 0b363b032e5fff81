import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// Findings 1 and 2 of the hostile probe, through the JSON API: schedules that flood a day are refused naming the
/// field, and lists come in bounded pages.
@Suite struct ScheduleFloodTests {
    /// A task body whose one element has `interval`, as a client would send it.
    func taskBody(_ fixture: ServerFixture, id: String = "flood", elements: [[String: Int]]) throws -> ByteBuffer {
        let element = OCKScheduleElement(start: fixture.calendar.startOfDay(for: fixture.now), end: nil, interval: DateComponents(day: 1),
                                         calendar: fixture.calendar)
        let task = OCKTask(id: id, title: "Flood", carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
        var object = try #require(JSONSerialization.jsonObject(with: try JSONEncoder().encode(task)) as? [String: Any])
        var schedule = try #require(object["schedule"] as? [String: Any])
        let template = try #require((schedule["elements"] as? [[String: Any]])?.first)
        schedule["elements"] = elements.map { interval in template.merging(["interval": interval]) { $1 } }
        object["schedule"] = schedule
        return ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    @Test func anIntervalThatCancelsItselfIsRefusedNamingTheField() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            // Moves one second per event: accepted (201) before this fix, with 86,400 events a day.
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: APIRoutesTests.json,
                                     body: try taskBody(fixture, elements: [["day": 1, "second": -86_399]])) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try APIRoutesTests().problem(response)
                #expect(problem.field == "schedule.elements[0].interval")
            }
            // Updating an existing task into it is refused the same way.
            try await client.execute(uri: "/api/v1/tasks/ibuprofen", method: .get) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: APIRoutesTests.json,
                                     body: try taskBody(fixture, id: "steady", elements: [["hour": 8]])) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/api/v1/tasks/steady", method: .put, headers: APIRoutesTests.json,
                                     body: try taskBody(fixture, id: "steady", elements: [["day": 1, "hour": -23]])) { response in
                #expect(response.status == .unprocessableContent)
                let field = try APIRoutesTests().problem(response).field
                #expect(field == "schedule.elements[0].interval")
            }
        }
    }

    @Test func twentyElementsOfAMinuteAreRefusedAndTheLimitIsPerTask() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let minutes = Array(repeating: ["minute": 1], count: 20)
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: APIRoutesTests.json,
                                     body: try taskBody(fixture, elements: minutes)) { response in
                #expect(response.status == .unprocessableContent)
                let field = try APIRoutesTests().problem(response).field
                #expect(field == "schedule.elements")
                #expect(String(buffer: response.body).contains("48 events a day"))
            }
            // Two half-hourly elements are 96 a day: also refused; one is allowed.
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: APIRoutesTests.json,
                                     body: try taskBody(fixture, elements: [["minute": 30], ["minute": 30]])) { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: APIRoutesTests.json,
                                     body: try taskBody(fixture, elements: [["minute": 30]])) { response in
                #expect(response.status == .created)
            }
            // Then the day lists its 48 events, and the two hour-long ones of the evening before that reach into it
            // (CareKit lists events overlapping the day), in pages of at most 500, 100 by default.
            var seen = 0
            var next: String? = "/api/v1/events?taskID=flood&date=2026-11-17&limit=20"
            while let uri = next {
                next = nil
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    let page = try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [Any])
                    #expect(page.count <= 20)
                    seen += page.count
                    if let link = response.headers[.link] {
                        #expect(link.hasSuffix(#">; rel="next""#))
                        next = String(link.dropFirst().prefix { $0 != ">" })
                    }
                }
            }
            #expect(seen == 50)
            try await client.execute(uri: "/api/v1/events?taskID=flood&date=2026-11-17", method: .get) { response in
                let page = try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [Any])
                #expect(page.count == 50 && response.headers[.link] == nil)
            }
            for bad in ["limit=0", "limit=501", "limit=ten", "offset=-1", "limit=１"] {
                try await client.execute(uri: "/api/v1/events?\(bad)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @Test func aPlanCannotPassTheEventsADayOfARecordWhoeverWritesIt() async throws {
        // 105 tasks at the limit of 48 a day: each valid, together 5,040 events a day — refused where tasks are written.
        let fixture = ServerFixture()
        try await fixture.test { client in
            let start = fixture.calendar.startOfDay(for: fixture.now)
            let tasks = (0..<105).map { index in
                OCKTask(id: "busy-\(index)", title: "Busy", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                    OCKScheduleElement(start: start, end: nil, interval: DateComponents(minute: 30), calendar: fixture.calendar),
                ]))
            }
            await #expect(throws: OCKStoreError.invalidValue(reason: OCKStoreLimits.tooManyEventsPerDay)) {
                try await fixture.store.addTasks(tasks)
            }
            #expect(try await fixture.store.fetchTasks(query: OCKTaskQuery()).allSatisfy { !$0.id.hasPrefix("busy-") })
            // The JSON API is refused the same way, task by task once the plan is full.
            var added = 0
            for task in tasks {
                let response = try await client.execute(uri: "/api/v1/tasks", method: .post,
                                                        headers: [.contentType: "application/json", .accept: "application/json"],
                                                        body: ByteBuffer(bytes: try JSONEncoder().encode(task)))
                if response.status == .created { added += 1; continue }
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("at most \(OCKStoreLimits.maximumEventsPerDay) events a day"))
                break
            }
            let planned = try await fixture.store.fetchTasks(query: OCKTaskQuery(dateInterval: DateInterval(start: start, duration: 86_400)))
            let perDay = planned.compactMap(\.schedule.maximumEventsOnOneDay).reduce(0, +)
            #expect(added > 0 && perDay <= OCKStoreLimits.maximumEventsPerDay && perDay + 48 > OCKStoreLimits.maximumEventsPerDay)
        }
    }

    @Test func aPastDayOfOlderVersionsBeyondAPageIsAnHTMLPageInTheReadersLanguage() async throws {
        // Each round adds 39 tasks of 48 events a day, then makes them daily from the 18th: the plan's current tasks
        // stay within the store's limit, but the 17th keeps every older version — 5,616 events.
        let fixture = ServerFixture()
        try await fixture.test { client in
            let start = fixture.calendar.startOfDay(for: fixture.now)
            let later = fixture.calendar.date(byAdding: .day, value: 2, to: start)!
            for round in 0..<3 {
                let tasks = (0..<39).map { index in
                    OCKTask(id: "busy-\(round)-\(index)", title: "Busy", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                        OCKScheduleElement(start: start, end: nil, interval: DateComponents(minute: 30), calendar: fixture.calendar),
                    ]))
                }
                let added = try await fixture.store.addTasks(tasks)
                try await fixture.store.updateTasks(added.map { task in
                    var sparse = task
                    sparse.schedule = OCKSchedule(composing: [OCKScheduleElement(start: later, end: nil, interval: DateComponents(day: 1),
                                                                                 calendar: fixture.calendar)])
                    sparse.effectiveDate = later
                    return sparse
                })
            }
            for (language, words) in [("en", "more than 5000 events"), ("ko", "5000개를 넘어")] {
                try await client.execute(uri: "/care?date=2026-11-17", method: .get, headers: [.acceptLanguage: language]) { response in
                    #expect(response.status == .unprocessableContent)
                    #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                    #expect(String(buffer: response.body).contains(words), "\(language)")
                }
            }
            // The API lists the same day in pages.
            try await client.execute(uri: "/api/v1/events?date=2026-11-17&limit=500", method: .get) { response in
                #expect(response.status == .ok && response.headers[.link] != nil)
            }
        }
    }
}
