import Foundation
@testable import OpenCareKitFHIR
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// A FHIR search of Observations is paged and counted in the store's query (issue 38, finding 6: `_count=1` built the
/// whole record): the same answers as filtering the record's export, at the cost of a page.
@Suite struct FHIRSearchPagingTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        return calendar
    }()

    /// A record with what a search must leave out or keep: values of every kind (bytes are no Observation), updated
    /// outcomes (each version is one), a deleted outcome, a deleted task's outcomes, survey answers.
    static func record(days: Int) async throws -> (OCKStore, FHIRExport, Date) {
        let store = OCKStore(name: "fhir-search", type: .inMemory)
        let start = calendar.date(from: DateComponents(year: 2026, month: 1, day: 1, hour: 8))!
        func daily(_ id: String) -> OCKTask {
            OCKTask(id: id, title: id.capitalized, carePlanUUID: nil, schedule: .dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: nil))
        }
        let walk = try await store.addTask(daily("walk"))
        let gone = try await store.addTask(daily("gone"))
        let checkIn = try await store.addTask(daily(OCKDemoSurveys.checkInTaskID))
        var outcomes: [OCKOutcome] = []
        for day in 0..<days {
            let time = start.addingTimeInterval(Double(day) * 86_400 + Double(day % 5) * 3_600)
            let values: [any OCKOutcomeValueUnderlyingType] = [day, Double(day) / 4, day % 2 == 0, "note \(day)", Data([1, 2]), time]
            var outcome = OCKOutcome(taskUUID: walk.uuid, taskOccurrenceIndex: day, values: values.enumerated().map { index, value in
                OCKOutcomeValue(value, units: index == 1 ? "kg" : nil, createdDate: time.addingTimeInterval(Double(index) * 60))
            })
            outcome.createdDate = time
            outcomes.append(outcome)
            outcomes.append(OCKOutcome(taskUUID: gone.uuid, taskOccurrenceIndex: day, values: [OCKOutcomeValue(day, createdDate: time)]))
            outcomes.append(OCKOutcome(taskUUID: checkIn.uuid, taskOccurrenceIndex: day, values: [OCKOutcomeValue(3, createdDate: time)]))
        }
        // The consent task (no survey here): its signed consent is a Consent, its other outcome an Observation.
        let consent = try await store.addTask(daily("consent"))
        outcomes.append(OCKOutcome(taskUUID: consent.uuid, taskOccurrenceIndex: 0,
                                   values: try OCKDemoSurveys.signedOnboarding(signerName: "Alex Rivera", at: start)))
        outcomes.append(OCKOutcome(taskUUID: consent.uuid, taskOccurrenceIndex: 1, values: [OCKOutcomeValue(true, createdDate: start)]))
        // A value 0.3 ms before a day begins: its effectiveDateTime says the day has begun, and the search reads that.
        let dayFive = calendar.date(from: DateComponents(year: 2026, month: 1, day: 5))!
        outcomes.append(OCKOutcome(taskUUID: walk.uuid, taskOccurrenceIndex: days + 5, values: [OCKOutcomeValue(5, createdDate: dayFive.addingTimeInterval(-0.000_3))]))
        let added = try await store.addOutcomes(outcomes)
        let walks = added.filter { $0.taskUUID == walk.uuid }
        var updated = walks[2]
        updated.values = [OCKOutcomeValue(99, createdDate: walks[2].values[0].createdDate.addingTimeInterval(30))]
        try await store.updateOutcome(updated)
        try await store.deleteOutcome(walks[4])
        try await store.deleteTask(gone)
        let export = FHIRExport(patientID: "p", surveys: [OCKDemoSurveys.checkInTaskID: OCKDemoSurveys.checkIn], consentTaskID: "consent",
                                timeZone: "Asia/Seoul",
                                now: start.addingTimeInterval(86_400 * Double(days)))
        return (store, export, start)
    }

    @Test func aPageIsWhatFilteringTheExportGives() async throws {
        let (store, export, _) = try await Self.record(days: 12)
        let all = try await export.resources(of: store, only: "Observation")
        #expect(all.count > 40)
        #expect(try await export.resources(of: store, only: "Consent").count == 1)
        #expect(all.contains { $0["effectiveDateTime"]?.string == "2026-01-04T15:00:00.000Z" })
        let instants = FHIRInstants()
        let filters: [[String]] = [[], ["ge2026-01-05"], ["lt2026-01-04T10:00:00+09:00"], ["ne2026-01-03"], ["eq2026-01"],
                                   ["ge2026-01-02", "le2026-01-08"], ["gt2026-01-07T09:00:00+09:00"], ["eq2025"]]
        for texts in filters {
            let parsed = try texts.map { try #require(FHIRSearch.DateFilter($0, calendar: Self.calendar)) }
            let matches = all.filter { resource in
                guard let date = resource["effectiveDateTime"]?.string.flatMap(instants.date) else { return false }
                return parsed.allSatisfy { $0.matches(date) }
            }
            for (offset, count) in [(0, 500), (0, 1), (3, 7), (matches.count - 2, 5), (matches.count + 3, 5)] where offset >= 0 {
                let page = try await export.observationPage(of: store, conditions: parsed, offset: offset, count: count, counting: true)
                #expect(page.total == matches.count, "\(texts)")
                let expected = Array(matches.dropFirst(offset).prefix(count))
                #expect(page.page.map { $0["id"]?.string } == expected.map { $0["id"]?.string }, "\(texts) \(offset) \(count)")
                #expect(page.page == expected, "\(texts) \(offset) \(count): the same ids, not the same resources")
            }
            // Page by page through the next cursors: the same Observations, uncounted.
            var walked: [FHIRJSON] = []
            var cursor: OCKOutcomeValueCursor?
            repeat {
                let page = try await export.observationPage(of: store, conditions: parsed, after: cursor, count: 4)
                #expect(page.total == nil)
                walked += page.page
                cursor = page.next
            } while cursor != nil && walked.count <= matches.count
            #expect(walked == matches, "\(texts)")
        }
    }

    @Test func aSmallPageOfALargeRecordCostsAPageNotTheRecord() async throws {
        let (store, export, _) = try await Self.record(days: 1_500)
        // What the page reads from the database is the page: one outcome version decoded of 1,500 (the others are
        // counted and ordered in SQL).
        let raw = try await store.outcomeValuePage(excludingTaskIDs: [OCKDemoSurveys.checkInTaskID], conditions: [], offset: 4_000, limit: 1, counting: true)
        #expect(raw.keys.count == 1 && raw.outcomes.count == 1 && (raw.total ?? 0) > 7_000, "\(String(describing: raw.total))")
        let wide = try await store.outcomeValuePage(excludingTaskIDs: [OCKDemoSurveys.checkInTaskID], conditions: [], offset: 4_000, limit: 12)
        #expect(wide.keys.count == 12 && wide.outcomes.count <= 4)
        // The figures beside their reference, measured in the same run (printed, not compared: other tests running at
        // once decide timings more than the code does). The fastest of five runs each.
        let clock = ContinuousClock()
        var whole = Duration.seconds(3_600), page = Duration.seconds(3_600)
        for _ in 0..<5 {
            whole = min(whole, try await clock.measure { _ = try await export.resources(of: store, only: "Observation") })
            page = min(page, try await clock.measure { _ = try await export.observationPage(of: store, conditions: [], after: raw.next, count: 1) })
        }
        print("FHIR search of \(raw.total ?? 0) Observations: a page of 1 after the 4,000th \(page), the whole record \(whole)")
    }
}
