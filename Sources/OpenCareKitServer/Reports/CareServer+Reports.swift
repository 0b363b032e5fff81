import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// The report for clinicians (`/reports?from=YYYY-MM-DD&to=YYYY-MM-DD&paper=a4|letter`): a page with a print
/// stylesheet, its PDF (by headless Chromium, `ReportPrinter`) and its values as CSV (RFC 4180). Each is a route of
/// its own, so the audit log tells a view from a download.
extension CareServer {
    /// The paper a report is printed on.
    enum Paper: String, CaseIterable, Sendable {
        case a4, letter
    }

    /// What a report request asks for.
    struct ReportRequest: Sendable {
        let firstDay: Date
        let lastDay: Date
        let paper: Paper
        /// The query string that asks for the same report.
        let query: String
    }

    static func addReportRoutes(to routes: inout RecordRouteTable) {
        routes.get("/reports", .page("report"), handler: CareServer.getReports)
        routes.get("/reports/report.csv", .page("report", action: .execute), handler: CareServer.getReportsReportCsv)
        routes.get("/reports/report.pdf", .page("report", action: .execute), handler: CareServer.getReportsReportPdf)
    }

    /// The report page's HTML for the days from `firstDay` through `lastDay`, as the route makes it (the report
    /// benchmark times this).
    package func reportPageHTML(firstDay: Date, lastDay: Date, language: OCKLanguage, preparedBy: String) async throws -> String {
        let render = renderContexts[language] ?? OCKRenderContext(localization: OCKLocalization(language: language, timeZone: configuration.timeZone))
        let asked = ReportRequest(firstDay: firstDay, lastDay: lastDay, paper: .a4, query: "")
        let report = try await report(firstDay: firstDay, lastDay: lastDay, preparedBy: preparedBy, maximumRows: CareReport.maximumRows)
        return try await reportPage(report, asked, render).render(in: render)
    }

    /// The report's CSV for the same days (for the benchmark).
    package func reportCSV(firstDay: Date, lastDay: Date, preparedBy: String) async throws -> String {
        let report = try await report(firstDay: firstDay, lastDay: lastDay, preparedBy: preparedBy, maximumRows: CareReport.maximumCSVRows)
        return Self.csv(report, language: .english)
    }

    /// The record's report of the days from `firstDay` through `lastDay`.
    func report(firstDay: Date, lastDay: Date, preparedBy: String, maximumRows: Int) async throws -> CareReport {
        try await CareReport.make(store: store, firstDay: firstDay, lastDay: lastDay, calendar: calendar,
                                  onboardingTaskID: configuration.onboardingTaskID, preparedBy: preparedBy, now: configuration.now(),
                                  maximumRows: maximumRows)
    }

    /// Reads the report the request asks for and answers with `body`, or with a page naming what is wrong.
    private func reportResponse(_ request: Request, _ context: RecordContext, maximumRows: Int = CareReport.maximumRows,
                                _ body: (CareReport, ReportRequest, OCKRenderContext) async throws -> Response) async throws -> Response {
        let render = renderContext(for: request)
        let asked: ReportRequest
        switch reportRequest(request) {
        case let .success(value): asked = value
        case let .failure(message): throw LocalizedRefusal(.badRequest, PageMessage(message.text, String(CareReport.maximumDays)))
        }
        // A report reads days of the record: heavy work, bounded per person and for the server (beyond: 503).
        return try await heavyWork.run(for: context.identity.account.id.description) {
            let report: CareReport
            do {
                report = try await self.report(firstDay: asked.firstDay, lastDay: asked.lastDay,
                                               preparedBy: context.auditTrail.askerName, maximumRows: maximumRows)
            } catch OCKStoreError.invalidValue {
                throw LocalizedRefusal(.unprocessableContent, PageMessage(ReportText.tooManyEvents))
            }
            return try await body(report, asked, render)
        }
    }

    /// The days and paper of the request: the last 30 days by default, at most `CareReport.maximumDays`.
    func reportRequest(_ request: Request) -> Result<ReportRequest, ReportRangeProblem> {
        let today = calendar.startOfDay(for: configuration.now())
        let parameters = request.uri.queryParameters
        let last = parameters.get("to").map { day(from: $0) } ?? today
        let first = parameters.get("from").map { day(from: $0) } ?? last.flatMap { calendar.date(byAdding: .day, value: -29, to: $0) }
        guard let first, let last, first <= last else { return .failure(ReportRangeProblem(.badRange)) }
        guard (calendar.dateComponents([.day], from: first, to: last).day ?? .max) < CareReport.maximumDays else {
            return .failure(ReportRangeProblem(.tooLong))
        }
        let paper = parameters.get("paper").flatMap(Paper.init(rawValue:)) ?? (configuration.timeZone.identifier.hasPrefix("America/") ? .letter : .a4)
        let query = "from=\(dayString(first))&to=\(dayString(last))&paper=\(paper.rawValue)"
        return .success(ReportRequest(firstDay: first, lastDay: last, paper: paper, query: query))
    }

    struct ReportRangeProblem: Error {
        let text: ReportText
        init(_ text: ReportText) { self.text = text }
    }

    func reportFileName(_ asked: ReportRequest, extension suffix: String) -> String {
        "care-report-\(dayString(asked.firstDay))-\(dayString(asked.lastDay)).\(suffix)"
    }

    // MARK: The page

    /// The report as an app page, with its controls (left out of print).
    func reportPage(_ report: CareReport, _ asked: ReportRequest, _ render: OCKRenderContext) async throws -> AppPage {
        let language = render.localization.language
        let printer = configuration.reportPrinter
        let pdf = url("/reports/report.pdf?" + asked.query), csv = url("/reports/report.csv?" + asked.query)
        let controls = HTML.element("div", ["class": "ock-report-controls ock-no-print"], [
            .element("form", ["method": "get", "action": url("/reports"), "class": "ock-report-range"], [
                Self.dateField("from", ReportText.from.text(language), dayString(asked.firstDay)),
                Self.dateField("to", ReportText.to.text(language), dayString(asked.lastDay)),
                .element("p", ["class": "ock-field"], [
                    .element("label", ["for": "paper"], [.text(ReportText.paper.text(language))]),
                    .element("select", ["id": "paper", "name": "paper"], Paper.allCases.map { paper in
                        var attributes = ["value": paper.rawValue]
                        if paper == asked.paper { attributes["selected"] = "selected" }
                        return .element("option", attributes, [.text((paper == .a4 ? ReportText.a4 : ReportText.letter).text(language))])
                    }),
                ]),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(ReportText.show.text(language))]),
            ]),
            .element("p", ["class": "ock-report-actions"], [
                .element("button", ["type": "button", "class": "ock-button", "data-action": "print"], [.text(ReportText.print.text(language))]),
                printer?.chromium == nil ? .empty
                    : .element("a", ["class": "ock-button", "href": pdf, "download": reportFileName(asked, extension: "pdf")],
                               [.text(ReportText.downloadPDF.text(language))]),
                .element("a", ["class": "ock-button", "href": csv, "download": reportFileName(asked, extension: "csv")],
                         [.text(ReportText.downloadCSV.text(language))]),
                .element("button", ["type": "button", "class": "ock-button", "data-action": "share",
                                    "data-share-url": printer?.chromium == nil ? csv : pdf,
                                    "data-share-name": reportFileName(asked, extension: printer?.chromium == nil ? "csv" : "pdf"),
                                    "data-share-title": ReportText.title.text(language) + " – " + report.patientName],
                         [.text(ReportText.share.text(language))]),
            ]),
            printer?.chromium == nil
                ? .element("p", ["class": "ock-notice", "role": "status"], [.text(ReportText.pdfMissing.text(language, ReportPrinter.executableNames[0]))])
                : .empty,
        ])
        let body = try await reportBody(report, asked, render)
        return AppPage(title: ReportText.title.text(language), base: basePath, idleSeconds: idleSeconds, tab: nil, main: [controls, body])
    }

    /// The report as a whole page for Chromium to print: its stylesheet beside it, no scripts, no controls.
    func reportDocument(_ report: CareReport, _ asked: ReportRequest, _ render: OCKRenderContext) async throws -> String {
        let page = HTML.element("html", ["lang": render.localization.languageTag], [
            .element("head", [:], [
                .element("meta", ["charset": "utf-8"], []),
                .element("meta", ["http-equiv": "Content-Security-Policy", "content": "default-src 'none'; style-src 'self' file:; img-src data:"], []),
                .element("title", [:], [.text(ReportText.title.text(render.localization.language) + " – " + report.patientName)]),
                .element("link", ["rel": "stylesheet", "href": "report.css"], []),
            ]),
            .element("body", ["class": "ock-report-document"], [try await reportBody(report, asked, render)]),
        ])
        return "<!DOCTYPE html>\n" + page.rendered
    }

    static func dateField(_ name: String, _ label: String, _ value: String) -> HTML {
        .element("p", ["class": "ock-field"], [
            .element("label", ["for": name], [.text(label)]),
            .element("input", ["type": "date", "id": name, "name": name, "value": value, "required": "required"], []),
        ])
    }

    /// The report itself: what the page, the print and the PDF show.
    func reportBody(_ report: CareReport, _ asked: ReportRequest, _ render: OCKRenderContext) async throws -> HTML {
        let language = render.localization.language
        let dates = render.localization
        func time(_ date: Date) -> String { dates.dateAndTime(date) }
        func day(_ date: Date) -> String { dates.dateWithYear(date) }
        func section(_ id: String, _ title: ReportText, _ content: [HTML]) -> HTML {
            .element("section", ["class": "ock-report-section", "aria-labelledby": "report-\(id)"],
                     [.element("h2", ["id": "report-\(id)"], [.text(title.text(language))])] + content)
        }
        func table(_ caption: String, _ headers: [String], _ rows: [[String]]) -> HTML {
            guard !rows.isEmpty else { return .element("p", [:], [.text(ReportText.noValues.text(language))]) }
            // It scrolls sideways on a phone: focusable, so that a keyboard can scroll it too (its section names it).
            return .element("div", ["class": "ock-table-scroll", "tabindex": "0"],
                            [.element("table", ["class": "ock-report-table"], [
                .element("caption", ["class": "ock-visually-hidden"], [.text(caption)]),
                .element("thead", [:], [.element("tr", [:], headers.map { .element("th", ["scope": "col"], [.text($0)]) })]),
                .element("tbody", [:], rows.map { row in
                    .element("tr", [:], row.enumerated().map { index, cell in
                        index == 0 ? .element("th", ["scope": "row"], [.text(cell)]) : .element("td", [:], [.text(cell)])
                    })
                }),
            ])])
        }
        func percent(_ completed: Int, _ total: Int) -> String {
            total == 0 ? "–" : "\(dates.percent(Double(completed) / Double(total))) (\(completed)/\(total))"
        }

        // Adherence: a row per week, a column per task.
        let tasks = report.adherence
        // Weeks with nothing scheduled (before the plan began, say) are left out.
        var adherenceRows = report.weeks.indices.filter { index in tasks.contains { $0.weeks[index].total > 0 } }.map { index in
            [dates.shortDate(report.weeks[index])] + tasks.map { percent($0.weeks[index].completed, $0.weeks[index].total) }
        }
        if !tasks.isEmpty { adherenceRows.append([ReportText.overall.text(language)] + tasks.map { percent($0.completed, $0.total) }) }
        let adherence: [HTML] = tasks.isEmpty ? [.element("p", [:], [.text(ReportText.noAdherence.text(language))])] : [
            .element("p", [:], [.text(ReportText.adherenceHint.text(language))]),
            table(ReportText.adherence.text(language), [ReportText.week.text(language)] + tasks.map(\.title), adherenceRows),
        ]

        // Values: check-in answers (survey tasks), logged symptoms (tasks that do not count toward adherence), and
        // every other value with a unit or a number.
        let surveys = Set(configuration.surveys.keys)
        let logs = Set(report.rows.filter { !surveys.contains($0.taskID) && !tasks.map(\.taskID).contains($0.taskID) }.map(\.taskID))
        func text(_ value: OCKOutcomeValue) -> String {
            let shown: String = switch value.value {
            case let number as Double: dates.number(number)
            case let date as Date: time(date)
            case is Data: "–"
            default: value.description
            }
            return value.units.map { shown + " " + $0 } ?? shown
        }
        var checkIns: [(key: String, values: [CareReport.Row])] = []
        for row in report.rows where surveys.contains(row.taskID) {
            let key = "\(row.taskID)/\(row.occurrence)"
            if checkIns.last?.key == key { checkIns[checkIns.count - 1].values.append(row) } else { checkIns.append((key, [row])) }
        }
        let checkInRows = checkIns.map { entry in
            [time(entry.values[0].value.createdDate), entry.values[0].taskTitle,
             entry.values.map { ($0.value.kind.map { $0 + ": " } ?? "") + text($0.value) }.joined(separator: ", ")]
        }
        let symptomRows = report.rows.filter { logs.contains($0.taskID) }.map { row in
            [time(row.value.createdDate), row.taskTitle, (row.value.kind.map { $0 + ": " } ?? "") + text(row.value)]
        }
        let measurementRows = report.rows.filter {
            !surveys.contains($0.taskID) && !logs.contains($0.taskID) && ($0.value.units != nil || $0.value.type == .integer || $0.value.type == .double)
        }.map { row in [time(row.value.createdDate), row.taskTitle, text(row.value)] }
        let headers = [ReportText.time.text(language), ReportText.task.text(language)]

        let charts = try await insightCharts(days: report.days, context: render)
        let consents: [HTML] = report.consents.isEmpty ? [.element("p", [:], [.text(ReportText.noConsent.text(language))])]
            : report.consents.map { consent in
                .element("div", ["class": "ock-report-consent"], [
                    .element("p", [:], [.text(ReportText.signedBy.text(language, consent.documentTitle, consent.signerName, time(consent.signedDate)))]),
                    .element("p", ["class": "ock-report-hash"], [.text(ReportText.documentVersion.text(language, consent.documentVersion, consent.textSHA256))]),
                ])
            }
        return .element("article", ["class": "ock-report", "data-paper": asked.paper.rawValue], [
            .element("header", ["class": "ock-report-header"], [
                .element("h1", [:], [.text(ReportText.title.text(language) + (report.patientName.isEmpty ? "" : " – " + report.patientName))]),
                .element("p", [:], [.text(ReportText.range.text(language, day(report.firstDay), day(report.lastDay), calendar.timeZone.identifier))]),
                .element("p", [:], [.text(ReportText.preparedBy.text(language, report.preparedBy, time(report.preparedDate)))]),
            ]),
            section("adherence", .adherence, adherence),
            section("charts", .charts, [.element("div", ["class": "ock-report-charts"], charts.map { $0.render(in: render) })]),
            section("check-ins", .checkIns, [table(ReportText.checkIns.text(language), headers + [ReportText.answer.text(language)], checkInRows)]),
            section("symptoms", .symptoms, [table(ReportText.symptoms.text(language), headers + [ReportText.value.text(language)], symptomRows)]),
            section("measurements", .measurements, [table(ReportText.measurements.text(language), headers + [ReportText.value.text(language)], measurementRows)]),
            section("notes", .notes, [table(ReportText.notes.text(language), headers + [ReportText.notes.text(language)],
                                           report.notes.map { [time($0.date), $0.taskTitle, $0.text + ($0.author.map { " (\($0))" } ?? "")] })]),
            report.rowsLeftOut > 0 ? .element("p", ["class": "ock-notice"], [.text(ReportText.leftOut.text(language, String(report.rowsLeftOut)))]) : .empty,
            section("consent", .consent, consents),
        ])
    }

    // MARK: CSV

    /// The report's values as CSV (RFC 4180: CRLF line ends, fields quoted where they hold a comma, a quote or a line
    /// end), UTF-8 with a byte-order mark so that spreadsheets read it as UTF-8: one row per outcome value, dates as
    /// `YYYY-MM-DD HH:MM:SS` in the record's zone (which spreadsheets read as dates) with the UTC offset beside them,
    /// numbers with a dot, units in a column of their own. Text that a spreadsheet would run as a formula (starting
    /// with `=`, `+`, `-`, `@`, a tab or a carriage return) is written after an apostrophe.
    static func csv(_ report: CareReport, language: OCKLanguage) -> String {
        let calendar = report.calendar
        let zone = calendar.timeZone
        func local(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return String(format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                          parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        }
        func offset(_ date: Date) -> String {
            let seconds = zone.secondsFromGMT(for: date)
            // "UTC-05:00": a bare "-05:00" is read by spreadsheets as a negative time.
            return String(format: "UTC%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3_600, abs(seconds) % 3_600 / 60)
        }
        func field(_ text: String, isText: Bool = true) -> String {
            var text = text
            if isText, let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        let headers: [ReportText] = [.csvDate, .csvZone, .csvTaskID, .csvTask, .csvEventStart, .csvOccurrence, .csvKind, .csvValue, .csvUnits,
                                     .csvType, .csvNote]
        var output = "\u{FEFF}" + headers.map { field($0.text(language)) }.joined(separator: ",") + "\r\n"
        for row in report.rows {
            let value = row.value
            let (shown, isText): (String, Bool) = switch value.value {
            case let number as Int: (String(number), false)
            case let number as Double: (number.isFinite ? "\(number)" : "", false)
            case let flag as Bool: (flag ? "true" : "false", false)
            case let date as Date: (local(date), false)
            case let text as String: (text, true)
            default: ("", false)
            }
            let cells = [field(local(value.createdDate)), offset(value.createdDate), field(row.taskID), field(row.taskTitle),
                         field(local(row.eventStart)), String(row.occurrence), field(value.kind ?? ""), field(shown, isText: isText),
                         field(value.units ?? ""), value.type.rawValue, field(row.note)]
            output += cells.joined(separator: ",") + "\r\n"
        }
        return output
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/reports`.
    func getReports(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await reportResponse(request, context) { report, asked, render in
            AppPage.response(try await reportPage(report, asked, render).render(in: render))
        }
    }

    /// `GET /records/{record}/reports/report.csv`.
    func getReportsReportCsv(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await reportResponse(request, context, maximumRows: CareReport.maximumCSVRows) { report, asked, render in
            guard report.rowsLeftOut == 0 else {
                throw LocalizedRefusal(.unprocessableContent, PageMessage(ReportText.tooManyEvents))
            }
            return Response(status: .ok, headers: [
                .contentType: "text/csv; charset=utf-8; header=present", .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"\(reportFileName(asked, extension: "csv"))\"",
            ], body: .init(byteBuffer: ByteBuffer(string: Self.csv(report, language: render.localization.language))))
        }
    }

    /// `GET /records/{record}/reports/report.pdf`.
    func getReportsReportPdf(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await reportResponse(request, context) { report, asked, render in
            guard let printer = configuration.reportPrinter, printer.chromium != nil else {
                return errorPage(PageMessage(ReportText.pdfMissing, ReportPrinter.executableNames[0]), status: .notImplemented, context: render)
            }
            do {
                let pdf = try await printer.pdf(of: reportDocument(report, asked, render))
                return Response(status: .ok, headers: [
                    .contentType: "application/pdf", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"\(reportFileName(asked, extension: "pdf"))\"",
                ], body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
            } catch ReportPrinter.Failure.busy {
                throw LocalizedRefusal(.serviceUnavailable, PageMessage(ReportText.pdfBusy), headers: [.retryAfter: "5"])
            } catch {
                // The server's fault (logged with an id and the failure's type), with what the person can do instead.
                throw LocalizedRefusal(.internalServerError, PageMessage(ReportText.pdfFailed), cause: error)
            }
        }
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
