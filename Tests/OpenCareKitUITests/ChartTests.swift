import Foundation
import Testing
@testable import OpenCareKitUI

@Suite struct ChartTests {
    let context = OCKRenderContext(localization: OCKLocalization(language: .english, timeZone: TimeZone(identifier: "UTC")!))
    var calendar: Calendar { context.localization.calendar }

    func days(_ count: Int, from start: String = "2026-11-16") -> [Date] {
        let first = ISO8601DateFormatter().date(from: start + "T00:00:00Z")!
        return (0..<count).map { calendar.date(byAdding: .day, value: $0, to: first)! }
    }

    func adherence() -> OCKCartesianChartView {
        OCKCartesianChartView(title: "Medication adherence", domain: .dates(days(7), .day), series: [
            OCKDataSeries(title: "Doses", points: [3, 4, 2, 4, 3, 1, 4].map { OCKDataPoint($0, label: "\(Int($0)) of 4 doses") },
                          mark: .bar, unit: "doses"),
        ], identifier: "c")
    }

    @Test func familiarTicksCoverTheData() {
        #expect(ChartScale.fitted(to: [3, 4, 2], fromZero: true).ticks == [0, 1, 2, 3, 4])
        #expect(ChartScale.fitted(to: [0, 23], fromZero: true).ticks == [0, 10, 20, 30])
        #expect(ChartScale.fitted(to: [72.0, 72.9], fromZero: false) == ChartScale(lower: 72, upper: 73, step: 0.5))
        #expect(ChartScale.fitted(to: [3380, 8214], fromZero: false).ticks == [2000, 4000, 6000, 8000, 10000])
        #expect(ChartScale.fitted(to: [], fromZero: true).ticks == [0, 1, 2, 3, 4, 5])
        #expect(ChartScale.fitted(to: [5, 5], fromZero: false).ticks == [4, 4.5, 5, 5.5, 6])
        #expect(ChartScale.fixed(0...10).ticks == [0, 5, 10])
        #expect(ChartScale.fixed(0...7).ticks == [0, 2, 4, 6])
        #expect(ChartScale.fixed(5...5) == ChartScale(lower: 0, upper: 5, step: 1))
    }

    @Test func barsStartAtZeroAndPointsFitTheData() {
        let bars = ChartLayout.scale(for: [OCKDataSeries(title: "w", values: [72, 73], mark: .bar)], stacked: false, range: .dynamic)
        #expect(bars.lower == 0)
        let points = ChartLayout.scale(for: [OCKDataSeries(title: "w", values: [72, 73], mark: .point)], stacked: false, range: .dynamic)
        #expect(points.lower == 72 && points.upper == 73)
        let fromZero = ChartLayout.scale(for: [OCKDataSeries(title: "w", values: [72, 73], mark: .line)], stacked: false,
                                         range: .dynamicFromZero)
        #expect(fromZero.lower == 0)
        let stacked = ChartLayout.scale(for: [OCKDataSeries(title: "a", values: [3, 1]), OCKDataSeries(title: "b", values: [4, 1])],
                                        stacked: true, range: .dynamic)
        #expect(stacked.upper >= 7)
    }

    @Test func everyDayIsAFocusableGroupWithAContextualLabel() {
        let html = adherence().render(in: context).rendered
        #expect(html.components(separatedBy: #"class="ock-chart-column""#).count == 8)
        #expect(html.contains(#"aria-label="Monday, November 16: 3 of 4 doses" class="ock-chart-column" data-index="0" role="img">"#))
        #expect(html.contains(#"aria-label="Sunday, November 22: 4 of 4 doses" class="ock-chart-column" data-index="6" role="img">"#))
        // Axes are hidden from assistive technology; the readout is a polite live region.
        #expect(html.contains(#"<g aria-hidden="true" class="ock-chart-axes">"#))
        #expect(html.contains(#"<p aria-live="polite" class="ock-chart-readout" id="c-readout"></p>"#))
        #expect(html.contains(#"<h2 class="ock-header-title" id="c-title">Medication adherence</h2>"#))
        #expect(html.contains(#"aria-describedby="c-summary" aria-labelledby="c-title""#) && html.contains(#"data-ock-hint="c-hint""#))
        #expect(!html.contains("tabindex")) // the script makes the columns keyboard stops
        #expect(html.contains(">Mon</text>") && html.contains(">Sun</text>"))
        #expect(html.contains(#"data-ock-audio-graph="3,4,2,4,3,1,4""#))
        #expect(html.contains(#"hidden="hidden""#))
    }

    @Test func aSummaryIsWrittenWhenNoneIsGiven() {
        let html = adherence().render(in: context).rendered
        let average = 21.0 / 7
        #expect(html.contains("Doses ranges from 1 doses to 4 doses, averaging \(context.localization.number(average)) doses."))
        let empty = OCKCartesianChartView(title: "Nausea", domain: .dates(days(7), .day),
                                          series: [OCKDataSeries(title: "Nausea", values: Array(repeating: nil, count: 7))])
        let emptyHTML = empty.render(in: context).rendered
        #expect(emptyHTML.contains("No data recorded for this period."))
        #expect(emptyHTML.contains("Monday, November 16: no data"))
        #expect(!emptyHTML.contains("ock-bar"))
    }

    @Test func severalSeriesDifferByShapeAndPatternNotOnlyColor() {
        let chart = OCKCartesianChartView(title: "Doses and pain", domain: .dates(days(7), .day), series: [
            OCKDataSeries(title: "Morning", values: [1, 1, 1, 1, 1, 0, 1], mark: .bar),
            OCKDataSeries(title: "Evening", values: [1, 2, 0, 2, 1, 1, 2], mark: .bar),
            OCKDataSeries(title: "Pain", values: [6, 5, 5, 4, nil, 3, 3], mark: .lineWithPoints, axis: .trailing),
        ], trailingYRange: .fixed(0...10), isStacked: true, identifier: "s")
        let html = chart.render(in: context).rendered
        // The second bar series is hatched; the line is dashed with triangle points.
        #expect(html.contains(#"id="s-pattern-1" patternTransform="rotate(45)""#))
        #expect(html.contains(#"fill="url(#s-pattern-1)""#))
        #expect(html.contains("ock-dash-2"))
        #expect(html.components(separatedBy: "<polygon").count - 1 == 6 + 1) // six pain values and the legend's
        // The line breaks where a value is missing.
        let path = html.components(separatedBy: #" d="M"#)[1].prefix(while: { $0 != "\"" })
        #expect(path.filter { $0 == "M" }.count == 1) // one more M after the first
        #expect(!html.contains(#"class=" "#) && !html.contains(#"height="0""#))
        // Stacked segments are separated; the trailing axis has its own ticks.
        #expect(html.contains("ock-stack-separator"))
        #expect(html.contains(#"class="ock-tick ock-tick-trailing""#))
        #expect(html.contains("Monday, November 16: Morning: 1; Evening: 1; Pain: 6"))
        #expect(html.components(separatedBy: #"<li class="ock-legend-item">"#).count == 4)
    }

    @Test func aYearOfDaysIsConsolidatedByMonthAndAQuarterByWeek() {
        let year = days(365, from: "2025-11-23")
        let chart = OCKCartesianChartView(title: "Steps", domain: .dates(year, .day), series: [
            OCKDataSeries(title: "Steps", values: year.indices.map { _ in 10 }, mark: .bar),
        ], identifier: "y")
        let html = chart.render(in: context).rendered
        let columns = html.components(separatedBy: #"class="ock-chart-column""#).count - 1
        #expect(columns == 13)
        #expect(html.contains("November 2025: 80"))
        #expect(html.contains("December 2025: 310"))
        let quarter = Array(year.prefix(100))
        let (domain, series) = ChartConsolidator.consolidate(.dates(quarter, .day), [
            OCKDataSeries(title: "Pain", values: quarter.indices.map { Double($0 % 2) * 4 }, mark: .line),
        ], how: .automatic, calendar: calendar)
        guard case let .dates(weeks, period) = domain else { Issue.record("not dates"); return }
        #expect(period == .week)
        #expect(weeks.count == 15)
        #expect(series[0].points.allSatisfy { ($0.value ?? 0) <= 4 }) // averages, not sums
        let (same, _) = ChartConsolidator.consolidate(.dates(days(7), .day), [], how: .automatic, calendar: calendar)
        #expect(same == .dates(days(7), .day))
    }

    @Test func koreanLabelsAndTicks() {
        let korean = OCKRenderContext(localization: OCKLocalization(language: .korean, timeZone: TimeZone(identifier: "UTC")!))
        let chart = OCKCartesianChartView(title: "체중", domain: .dates(days(7), .day), series: [
            OCKDataSeries(title: "체중", values: [72.5, nil, 72, 72, 72, 72, 72], mark: .point, unit: "kg"),
        ], identifier: "k")
        let html = chart.render(in: korean).rendered
        #expect(html.contains(#"aria-label="11월 16일 월요일: 72.5kg""#))
        #expect(html.contains(#"aria-label="11월 17일 화요일: 데이터 없음""#))
        #expect(html.contains(">월</text>"))
        #expect(html.contains("체중 오디오 그래프 재생"))
    }
}

/// Data from outside: extreme values, gaps and odd shapes draw a chart and never crash.
@Suite struct ChartEdgeCaseTests {
    let context = OCKRenderContext(localization: OCKLocalization(language: .english, timeZone: TimeZone(identifier: "UTC")!))

    @Test(arguments: [[1e19], [1.6e308], [-1e308, 1e308], [-.greatestFiniteMagnitude, 0], [.infinity, .nan, 3]])
    func extremeValuesDrawWithoutCrashing(values: [Double]) {
        for mark in [OCKDataSeries.Mark.bar, .line, .point] {
            let chart = OCKCartesianChartView(title: "x", domain: .categories(values.map { _ in "a" }),
                                              series: [OCKDataSeries(title: "s", values: values, mark: mark)], isStacked: true)
            let html = chart.render(in: context).rendered
            #expect(html.contains("ock-chart-column"))
            for bad in ["\"nan", "\"inf", "\"-inf", " nan", " inf", ">nan", ">inf", "NaN"] { #expect(!html.contains(bad), "\(bad)") }
        }
        #expect(ChartLayout.coordinate(1e19) == "1000000000000" && ChartLayout.coordinate(.nan) == "0")
    }

    @Test func tickLabelsKeepTheDecimalsTheStepNeeds() {
        let scale = ChartScale.fitted(to: [0, 0.2], fromZero: true)
        #expect(scale.ticks.count == 5 && scale.fractionDigits == 2)
        let html = OCKCartesianChartView(title: "x", domain: .categories(["a", "b"]),
                                         series: [OCKDataSeries(title: "s", values: [0, 0.2], mark: .line)])
            .render(in: context).rendered
        for tick in ["0", "0.05", "0.1", "0.15", "0.2"] { #expect(html.contains(">\(tick)</text>"), "\(tick)") }
        #expect(ChartScale.fixed(1...10).ticks == [5, 10])
    }

    @Test func consolidatedSumsLeaveAFixedRange() {
        let first = ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z")!
        let days = (0..<100).map { first.addingTimeInterval(Double($0) * 86_400) }
        let html = OCKCartesianChartView(title: "Doses", domain: .dates(days, .day),
                                         series: [OCKDataSeries(title: "Doses", values: days.map { _ in 4 }, mark: .bar)],
                                         yRange: .fixed(0...4)).render(in: context).rendered
        #expect(html.contains(">28</text>") || html.contains(">30</text>")) // the axis reaches a week's total
    }

    @Test func aLoneLineValueIsADotAndStacksOnBothAxesSitSideBySide() {
        let lone = OCKCartesianChartView(title: "x", domain: .categories(["a", "b", "c"]),
                                         series: [OCKDataSeries(title: "s", values: [nil, 5, nil], mark: .line)]).render(in: context).rendered
        #expect(lone.contains(" l0.1 0\""))
        let both = OCKCartesianChartView(title: "x", domain: .categories(["a"]), series: [
            OCKDataSeries(title: "l", values: [2], mark: .bar),
            OCKDataSeries(title: "t", values: [3], mark: .bar, axis: .trailing),
        ], isStacked: true).render(in: context).rendered
        let xs = both.components(separatedBy: "ock-bar").dropFirst().compactMap { part in
            part.components(separatedBy: #"x=""#).dropFirst().first?.prefix(while: { $0 != "\"" })
        }
        #expect(xs.count == 2 && Set(xs).count == 2)
    }

    @Test func theSummaryDescribesASeriesWithData() {
        let html = OCKCartesianChartView(title: "x", domain: .categories(["a", "b"]), series: [
            OCKDataSeries(title: "Empty", values: [nil, nil]),
            OCKDataSeries(title: "Pain", values: [2, 4], mark: .line),
        ]).render(in: context).rendered
        #expect(html.contains("Pain ranges from 2 to 4, averaging 3."))
        #expect(html.contains("Play audio graph of Pain"))
        #expect(html.contains(#"data-ock-audio-graph="2,4""#))
    }
}

@Suite struct ReviewRegressionTests {
    @Test func backslashesAndFullWidthDigitsAreRefused() {
        #expect(SafeURL(#"\\evil.example/x"#) == nil)
        #expect(SafeURL(#"/\evil.example"#) == nil)
        #expect(OCKColor(hex: "#ＡＡＡＡＡＡ") == nil)
    }

    @Test func aRingWithNothingToDoSaysSo() {
        #expect(OCKCompletionRingView(fraction: nil).render().rendered.contains(#"aria-label="No tasks""#))
    }

    @Test func weeksHaveSevenDaysFromTheLocalesFirstWeekday() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let thursday = ISO8601DateFormatter().date(from: "2026-11-19T12:00:00Z")!
        calendar.firstWeekday = 1
        let sundayWeek = OCKWeekCalendarView.week(containing: thursday, calendar: calendar)
        #expect(sundayWeek.count == 7 && calendar.component(.day, from: sundayWeek[0]) == 15)
        calendar.firstWeekday = 2
        #expect(calendar.component(.day, from: OCKWeekCalendarView.week(containing: thursday, calendar: calendar)[0]) == 16)
    }

    @Test func customLogTitlesFollowTheLanguagesWordOrder() {
        let korean = OCKRenderContext(localization: OCKLocalization(language: .korean))
        #expect(OCKLogTaskView(title: "메스꺼움", logTitle: "추가", logAction: nil, entries: []).render(in: korean).rendered
            .contains(#"aria-label="메스꺼움 추가""#))
        #expect(OCKLogTaskView(title: "Nausea", logTitle: "Add", logAction: nil, entries: []).render().rendered
            .contains(#"aria-label="Add Nausea""#))
    }
}
