import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI
import Testing

/// The report for clinicians: its figures against the store's, its CSV's form, its range's bounds, and the audit of
/// every view and export.
@Suite struct ReportRoutesTests {
    /// The demo plan with three weeks of a demo patient's history (doses, check-ins, logs, weigh-ins, the consent).
    func fixture() async throws -> ServerFixture {
        let fixture = ServerFixture(surveys: true)
        let start = fixture.calendar.date(byAdding: .day, value: -20, to: fixture.calendar.startOfDay(for: fixture.now))!
        try await OCKDemoCarePlan(calendar: fixture.calendar, start: start).seed(into: fixture.store)
        var history = DemoHistory(calendar: fixture.calendar, habits: .init(adherence: 0.7, pain: 4), signerName: "Alex \"AJ\" Rivera",
                                  random: SeededRandomNumberGenerator(seed: 7))
        try await history.write(into: fixture.store, start: start, now: fixture.now)
        // A weigh-in with a note that CSV must quote, and a log whose text a spreadsheet would run as a formula.
        let weighIn = try await fixture.event("weigh-in", daysFromToday: -7 + ((9 - fixture.calendar.component(.weekday, from: fixture.now)) % 7))
        var weight = OCKOutcome(taskUUID: weighIn.task.uuid, taskOccurrenceIndex: weighIn.scheduleEvent.occurrence,
                                values: [OCKOutcomeValue(71.25, units: "kg", createdDate: fixture.now.addingTimeInterval(-3_600))])
        weight.notes = [OCKNote(author: "Alex", title: nil, content: "after breakfast, \"before\" meds\nfelt fine")]
        if let old = weighIn.outcome { try await fixture.store.deleteOutcome(old) }
        try await fixture.store.addOutcome(weight)
        let nausea = try await fixture.event("nausea")
        var log = OCKOutcomeValue("=1+1 <b>dizzy</b>", units: nil, createdDate: fixture.now.addingTimeInterval(-600))
        log.kind = "description"
        if let old = nausea.outcome { try await fixture.store.deleteOutcome(old) }
        try await fixture.store.addOutcome(OCKOutcome(taskUUID: nausea.task.uuid, taskOccurrenceIndex: nausea.scheduleEvent.occurrence, values: [log]))
        return fixture
    }

    func get(_ client: some TestClientProtocol, _ path: String, language: String = "en") async throws -> TestResponse {
        try await client.executeRequest(uri: path, method: .get, headers: [.acceptLanguage: language, .accept: "text/html"], body: nil)
    }

    @Test func theReportShowsTheStoresFiguresAndEveryExportIsAudited() async throws {
        let fixture = try await fixture()
        let host = fixture.hosted()
        let directory = try await host.preparedDirectory()
        let from = "2026-11-03", to = "2026-11-16"
        try await host.test(host.host(on: directory)) { client in
            let page = try await get(client, "/reports?from=\(from)&to=\(to)&paper=a4")
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("Care report") && html.contains("Prepared by Person on Nov 16, 2026"))
            // No Chromium here: no PDF link, the CSV's instead.
            #expect(html.contains(#"data-paper="a4""#) && !html.contains("report.pdf?"))
            #expect(html.contains("report.csv?from=\(from)&amp;to=\(to)&amp;paper=a4"))

            // Adherence per task and week, against the store's events counted here.
            let calendar = fixture.calendar
            let first = calendar.date(from: DateComponents(year: 2026, month: 11, day: 3))!
            let end = calendar.date(from: DateComponents(year: 2026, month: 11, day: 17))!
            let events = try await fixture.store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: first, end: end)))
                .filter { $0.scheduleEvent.start >= first && $0.task.impactsAdherence && $0.task.id != OCKDemoSurveys.onboardingTaskID }
            let ibuprofen = events.filter { $0.task.id == "ibuprofen" }
            let done = ibuprofen.filter { $0.outcome != nil }.count
            let overall = "\(Int((Double(done) / Double(ibuprofen.count) * 100).rounded()))% (\(done)/\(ibuprofen.count))"
            #expect(html.contains(overall), "\(overall)")
            // The week of Monday 9 November alone.
            let monday = calendar.date(from: DateComponents(year: 2026, month: 11, day: 9))!
            let week = ibuprofen.filter { $0.scheduleEvent.start >= monday && $0.scheduleEvent.start < monday.addingTimeInterval(7 * 86_400) }
            let weekDone = week.filter { $0.outcome != nil }.count
            #expect(html.contains("(\(weekDone)/\(week.count))"))
            // Check-ins, symptoms, values with units, notes, the consent: the text escaped, never markup.
            #expect(html.contains("Check-in answers") && html.contains("pain: "))
            #expect(html.contains("=1+1 &lt;b&gt;dizzy&lt;/b&gt;") && !html.contains("<b>dizzy"))
            #expect(html.contains("<td>Weekly Weigh-in</td><td>71.2 kg</td>"))
            #expect(html.contains("after breakfast, &quot;before&quot; meds"))
            #expect(html.contains("signed by Alex &quot;AJ&quot; Rivera"))
            #expect(html.contains("insight-completion"))

            // In Korean.
            let korean = String(buffer: try await get(client, "/reports?from=\(from)&to=\(to)", language: "ko").body)
            #expect(korean.contains("케어 보고서") && korean.contains("이행률") && korean.contains("체크인 답변"))

            // The CSV: RFC 4180, one row per value of the range's outcomes (the consent's are the consent section's).
            let csvResponse = try await get(client, "/reports/report.csv?from=\(from)&to=\(to)")
            #expect(csvResponse.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(csvResponse.headers[.contentDisposition] == "attachment; filename=\"care-report-\(from)-\(to).csv\"")
            let csv = String(buffer: csvResponse.body)
            #expect(csv.hasPrefix("\u{FEFF}Recorded,UTC offset,Task ID,Task,Event start,Occurrence,Kind,Value,Units,Type,Note\r\n"))
            let valueCount = try await fixture.store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: first, end: end)))
                .filter { $0.scheduleEvent.start >= first && $0.task.id != OCKDemoSurveys.onboardingTaskID }
                .map { $0.outcome?.values.count ?? 0 }.reduce(0, +)
            #expect(csv.components(separatedBy: "\r\n").count - 2 == valueCount)
            #expect(csv.contains(",weigh-in,Weekly Weigh-in,") && csv.contains(",71.25,kg,double,\"after breakfast, \"\"before\"\" meds\nfelt fine\"\r\n"))
            #expect(csv.contains(",description,'=1+1 <b>dizzy</b>,,text,"))
            #expect(csv.contains("\r\n2026-11-16 11:00:00,UTC+09:00,weigh-in,Weekly Weigh-in,2026-11-09 07:00:00,"))

            // Without Chromium the PDF says what is missing, and the page offers printing.
            let pdf = try await get(client, "/reports/report.pdf?from=\(from)&to=\(to)")
            #expect(pdf.status == .notImplemented && String(buffer: pdf.body).contains("PDF needs Chromium on the server"))
            #expect(html.contains("PDF needs Chromium") && html.contains(#"data-action="print""#))
        }
        // Each view and export is in the audit log, a download told from a view.
        let audit = try await directory.auditEntries(record: host.record, resource: "report", limit: 20)
        #expect(audit.map(\.draft.detail).sorted() == ["GET /records/{record}/reports", "GET /records/{record}/reports",
                                                "GET /records/{record}/reports/report.csv", "GET /records/{record}/reports/report.pdf"])
        #expect(Set(audit.filter { $0.draft.detail.hasSuffix(".csv") || $0.draft.detail.hasSuffix(".pdf") }.map(\.draft.action)) == [.execute])
    }

    @Test func csvGuardsEveryTextASpreadsheetWouldRunAsAFormula() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        let date = Date(timeIntervalSince1970: 1_795_957_200)
        let rows = ["=SUM(A1)", "+1", "-2", "@x", "\tx", "\rx", "plain", "a,\"b\""].map { text in
            CareReport.Row(taskID: "t", taskTitle: "T", occurrence: 0, eventStart: date, isAllDay: false,
                           value: OCKOutcomeValue(text, createdDate: date), note: "")
        }
        let report = CareReport(patientName: "", preparedBy: "", preparedDate: date, firstDay: date, lastDay: date, calendar: calendar,
                                weeks: [date], adherence: [], rows: rows + [CareReport.Row(
                                    taskID: "n", taskTitle: "N", occurrence: 1, eventStart: date, isAllDay: false,
                                    value: OCKOutcomeValue(-2.5, units: "kg", createdDate: date), note: "")],
                                rowsLeftOut: 0, notes: [], consents: [])
        let lines = CareServer.csv(report, language: .english).components(separatedBy: "\r\n")
        let values = lines.dropFirst().dropLast().map { $0.components(separatedBy: ",")[7] }
        #expect(Array(values.prefix(7)) == ["'=SUM(A1)", "'+1", "'-2", "'@x", "'\tx", "\"'\rx\"", "plain"])
        #expect(lines[8].contains(",\"a,\"\"b\"\"\",,text,"))
        // A number is a number, negative or not; and the offset a spreadsheet cannot take for a time.
        #expect(lines[9] == "2026-11-29 08:00:00,UTC-05:00,n,N,2026-11-29 08:00:00,1,,-2.5,kg,double,")
    }

    @Test func aRangeOutOfBoundsIsRefusedWithAReason() async throws {
        let fixture = try await fixture()
        try await fixture.hosted().test { client in
            for (query, reason) in [("from=2026-11-16&to=2026-11-01", "YYYY-MM-DD"), ("from=2026-13-01&to=2026-11-01", "YYYY-MM-DD"),
                                    ("from=yesterday", "YYYY-MM-DD"), ("from=2025-01-01&to=2026-11-16", "A report covers at most 366 days.")] {
                let response = try await get(client, "/reports?\(query)")
                #expect(response.status == .badRequest, "\(query)")
                #expect(String(buffer: response.body).contains(reason), "\(query)")
            }
            // The default: the last 30 days, on Letter paper in an American zone, A4 elsewhere (Seoul here).
            let page = String(buffer: try await get(client, "/reports").body)
            #expect(page.contains("from=2026-10-18&amp;to=2026-11-16&amp;paper=a4"))
        }
    }

    @Test func beyondItsLimitAReportKeepsTheNewestValuesAndCountsTheOthers() async throws {
        let fixture = try await fixture()
        let calendar = fixture.calendar
        let first = calendar.date(from: DateComponents(year: 2026, month: 11, day: 3))!, last = calendar.startOfDay(for: fixture.now)
        let whole = try await CareReport.make(store: fixture.store, firstDay: first, lastDay: last, calendar: calendar,
                                              onboardingTaskID: OCKDemoSurveys.onboardingTaskID, preparedBy: "", now: fixture.now)
        let cut = try await CareReport.make(store: fixture.store, firstDay: first, lastDay: last, calendar: calendar,
                                            onboardingTaskID: OCKDemoSurveys.onboardingTaskID, preparedBy: "", now: fixture.now, maximumRows: 5)
        #expect(whole.rows.count > 5 && whole.rowsLeftOut == 0)
        #expect(cut.rowsLeftOut == whole.rows.count - 5)
        #expect(cut.rows.map(\.value.createdDate) == whole.rows.suffix(5).map(\.value.createdDate))
    }

    @Test func chromiumPrintsThePageToAPDFOfTheChosenPaper() async throws {
        let chromium = try #require(ReportPrinter.findOnPath(), "Chromium is needed (scripts/test installs Debian's chromium)")
        let fixture = try await fixture()
        var configuration = fixture.configuration
        configuration.reportPrinter = ReportPrinter(chromium: chromium, stylesheet: OCKStylesheet.css(OCKStyler()) + HostStyles.css)
        try await fixture.hosted(configuration).test { client in
            let page = String(buffer: try await get(client, "/reports?from=2026-11-10&to=2026-11-16&paper=a4").body)
            #expect(page.contains("Download PDF") && !page.contains("PDF needs Chromium"))
            let response = try await get(client, "/reports/report.pdf?from=2026-11-10&to=2026-11-16&paper=a4")
            #expect(response.status == .ok && response.headers[.contentType] == "application/pdf")
            let pdf = String(decoding: Data(buffer: response.body), as: UTF8.self)
            #expect(pdf.hasPrefix("%PDF-"))
            // A4 (595 × 842 points), which only the report's stylesheet asks for (Chromium's own default is Letter): the
            // stylesheet beside the page is read, its content policy notwithstanding.
            #expect(pdf.contains("/MediaBox [0 0 594.9") && pdf.contains(" 841.9"))
        }
    }
}
