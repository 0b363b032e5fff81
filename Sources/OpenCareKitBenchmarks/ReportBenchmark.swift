import Foundation
import OpenCareKitDirectory
import OpenCareKitServer
import OpenCareKitStore

/// The report for clinicians: the HTML page of one year for a record with three years of the demo patient's
/// outcomes (an on-disk store, as `serve` keeps it), beside the reference measured in the same run — reading that
/// year's events, which any report must do. Target: the page in at most 1 s.
struct ReportBenchmark {
    var years = 3
    var reportDays = 365
    var rounds = 5

    func run() async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        let now = Date(timeIntervalSince1970: 1_795_957_200)  // 2026-11-29 08:00 in New York
        let directory = FileManager.default.temporaryDirectory.appending(path: "ock-report-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OCKStore(name: "report", type: .onDisk(), directory: directory)
        let seeded = ContinuousClock.now
        try await DemoHistory.seed(into: store, calendar: calendar, days: years * 365, now: now)
        let outcomes = try await store.fetchOutcomes(query: OCKOutcomeQuery()).count
        print("Report benchmark: the demo plan with \(years) years of history (\(outcomes) outcomes, written in "
              + "\(String(format: "%.1f", seconds(ContinuousClock.now - seeded))) s), America/New_York; a report of the last \(reportDays) days")
        let server = CareServer(store: store, configuration: .demo(timeZone: calendar.timeZone, now: { now }),
                                directory: try SQLiteCareDirectory(path: nil), record: .random(), watchesExternalChanges: false)
        let lastDay = calendar.startOfDay(for: now)
        let firstDay = calendar.date(byAdding: .day, value: -(reportDays - 1), to: lastDay)!
        var page = 0, csv = 0, rows = 0, csvRows = 0
        var pageTimes: [Double] = [], csvTimes: [Double] = [], readTimes: [Double] = []
        for _ in 0..<rounds {
            var start = ContinuousClock.now
            let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(
                start: firstDay, end: calendar.date(byAdding: .day, value: 1, to: lastDay)!)))
            readTimes.append(seconds(ContinuousClock.now - start))
            precondition(!events.isEmpty, "the year has no events: the benchmark measures nothing")
            start = ContinuousClock.now
            let html = try await server.reportPageHTML(firstDay: firstDay, lastDay: lastDay, language: .english, preparedBy: "Dr. Jordan Lee")
            (page, rows) = (html.utf8.count, html.components(separatedBy: "<tr>").count - 1)
            pageTimes.append(seconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            let text = try await server.reportCSV(firstDay: firstDay, lastDay: lastDay, preparedBy: "Dr. Jordan Lee")
            (csv, csvRows) = (text.utf8.count, text.components(separatedBy: "\r\n").count - 2)
            csvTimes.append(seconds(ContinuousClock.now - start))
        }
        func median(_ values: [Double]) -> String { String(format: "%8.1f", values.sorted()[values.count / 2] * 1_000) }
        print("")
        print("                                              median ms   (of \(rounds))   size")
        print("report page (HTML)                            \(median(pageTimes))               \(page / 1_024) KiB   (target ≤ 1000 ms)")
        print("report CSV                                    \(median(csvTimes))               \(csv / 1_024) KiB")
        print("reference: reading the year's events          \(median(readTimes))")
        print("the page has \(rows) table rows; the CSV \(csvRows) values")
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
