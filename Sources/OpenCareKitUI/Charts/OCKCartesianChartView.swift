import Foundation

/// CareKit's cartesian chart as an accessible SVG card: bar, point and line marks for several series, a legend by
/// shape, pattern and color, axes with familiar ticks and units, an optional trailing axis, stacked bars, a title and
/// a one-sentence summary.
///
/// Each X position is a group with a label that reads in context ("Monday, November 16: 3 of 4 doses"); axis text
/// is hidden from assistive technology. With the page's script (``OCKScript``), the arrow keys, touch and two step
/// buttons move along the X axis with a visible selection and a live readout, and a button plays the first series
/// with values as an audio graph. Long date ranges are consolidated into weeks or months.
///
/// For example:
/// ```swift
/// let localization = OCKLocalization(language: .english)
/// let today = localization.calendar.startOfDay(for: Date())
/// let week = (-6...0).map { localization.calendar.date(byAdding: .day, value: $0, to: today)! }
/// let taken: [Double] = [3, 4, 2, 4, 3, 1, 4]
/// let chart = OCKCartesianChartView(
///     title: "Medication adherence", detail: "This week",
///     domain: .dates(week, .day),
///     series: [OCKDataSeries(title: "Doses taken",
///                            points: taken.map { OCKDataPoint($0, label: "\(Int($0)) of 4 doses") },
///                            unit: "doses")],
///     yRange: .fixed(0...4))
/// let html = chart.render(in: OCKRenderContext(localization: localization)).rendered
/// ```
public struct OCKCartesianChartView: OCKComponent {
    /// The chart's title: the card's heading, which also names the chart's SVG for assistive technology.
    public var title: String
    /// A line under the title, such as "This week"; nil shows none.
    public var detail: String?
    /// One sentence that says what the chart shows, read as the chart's description; nil writes one from the first
    /// series with a value ("Doses taken ranges from 1 doses to 4 doses, averaging 3 doses.").
    public var summary: String?
    /// The X positions: dates or named categories. Each series gives one value per position.
    public var domain: OCKChartDomain
    /// The series, drawn and listed in the legend in order; each takes the next color, dash, symbol and pattern.
    public var series: [OCKDataSeries]
    /// The leading Y axis' range.
    public var yRange: OCKChartRange
    /// The trailing Y axis' range, used when a series is on the trailing axis.
    public var trailingYRange: OCKChartRange
    /// Stack the bar series on each axis instead of setting them side by side.
    public var isStacked: Bool
    /// How a long range of days is consolidated into weeks or months.
    public var consolidation: OCKChartConsolidation
    /// The element id, and the prefix of the ids inside; nil derives one from the title and series.
    public var identifier: String?

    /// Creates a chart.
    ///
    /// - Parameters:
    ///   - title: The chart's title.
    ///   - detail: A line under the title, or nil.
    ///   - summary: One sentence about the chart, or nil for one written from the data.
    ///   - domain: The X positions.
    ///   - series: The series, in order.
    ///   - yRange: The leading Y axis' range; fitted to the data by default.
    ///   - trailingYRange: The trailing Y axis' range; fitted to the data by default.
    ///   - isStacked: Whether bar series on the same axis are stacked.
    ///   - consolidation: How long ranges of days are consolidated; automatic by default.
    ///   - identifier: The chart's `id` and the prefix of the ids inside it, or nil to derive one.
    public init(title: String, detail: String? = nil, summary: String? = nil, domain: OCKChartDomain,
                series: [OCKDataSeries], yRange: OCKChartRange = .dynamic, trailingYRange: OCKChartRange = .dynamic,
                isStacked: Bool = false, consolidation: OCKChartConsolidation = .automatic, identifier: String? = nil) {
        self.title = title
        self.detail = detail
        self.summary = summary
        self.domain = domain
        self.series = series
        self.yRange = yRange
        self.trailingYRange = trailingYRange
        self.isStacked = isStacked
        self.consolidation = consolidation
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let (domain, series) = ChartConsolidator.consolidate(domain, series, how: consolidation,
                                                             calendar: context.localization.calendar)
        let consolidated = domain != self.domain
        let layout = ChartLayout(
            domain: domain, series: series, isStacked: isStacked,
            yRange: consolidated ? ChartConsolidator.range(yRange, afterConsolidating: series, axis: .leading) : yRange,
            trailingYRange: consolidated ? ChartConsolidator.range(trailingYRange, afterConsolidating: series, axis: .trailing)
                : trailingYRange)
        let id = identifier ?? Self.derivedIdentifier(title: title, series: series)
        let labels = (0..<domain.count).map { layout.columnLabel($0, context: context) }
        let described = series.first { $0.points.contains { $0.value != nil } } ?? series.first
        let summaryText = summary ?? Self.defaultSummary(described, context: context)

        let svg = HTML.element("svg", [
            "class": "ock-chart-plot", "viewBox": "0 0 \(ChartLayout.coordinate(ChartLayout.width)) \(ChartLayout.coordinate(ChartLayout.height))",
            "role": "group", "aria-labelledby": "\(id)-title", "aria-describedby": "\(id)-summary",
            "data-ock-hint": "\(id)-hint",
            "data-ock-chart": "", "focusable": "false",
        ], [layout.definitions(id: id), layout.axes(context: context), layout.lines(), layout.columns(labels: labels, id: id)])

        let legend = HTML.element("ul", ["class": "ock-chart-legend", "aria-label": context.string(.legend)],
                                  series.enumerated().map { index, item in
                                      .element("li", ["class": "ock-legend-item"], [
                                          layout.swatch(index, id: id),
                                          .element("span", [:], [.text(item.title)]),
                                      ])
                                  })
        let audioValues = described?.points.map { $0.value.map { ChartLayout.coordinate($0) } ?? "" }.joined(separator: ",") ?? ""
        var header = OCKHeaderView(title: title, detail: detail)
        header.titleID = "\(id)-title"
        return OCKCardView(header: header, contentStack: [
            HTML.element("p", ["class": "ock-chart-summary", "id": "\(id)-summary"], [.text(summaryText)]),
            // The script adds this hint to the chart's description when it enables the arrow keys.
            HTML.element("p", ["class": "ock-visually-hidden", "id": "\(id)-hint"], [.text(context.string(.chartKeyboardHint))]),
            svg,
            // The readout, between buttons that step through the columns (shown by the script): a 44 px target for each
            // column however narrow it is on a phone (WCAG 2.5.8; a month's column is 7–9 px there).
            HTML.element("div", ["class": "ock-chart-stepper"], [
                .element("button", ["type": "button", "class": "ock-chart-step", "data-ock-step": "-1", "hidden": "hidden",
                                    "aria-controls": "\(id)-readout", "aria-describedby": "\(id)-title"],
                         [.element("span", ["aria-hidden": "true"], [.text("‹")]), .text(" " + context.string(.chartPrevious))]),
                .element("p", ["class": "ock-chart-readout", "aria-live": "polite", "id": "\(id)-readout"], []),
                .element("button", ["type": "button", "class": "ock-chart-step", "data-ock-step": "1", "hidden": "hidden",
                                    "aria-controls": "\(id)-readout", "aria-describedby": "\(id)-title"],
                         [.text(context.string(.chartNext) + " "), .element("span", ["aria-hidden": "true"], [.text("›")])]),
            ]),
            legend,
            HTML.element("button", ["type": "button", "class": "ock-audio-graph-button", "hidden": "hidden",
                                    "data-ock-audio-graph": audioValues], [
                OCKIcon.audio.html,
                .element("span", [:], [.text(context.string(.playAudioGraph, described?.title ?? title))]),
            ]),
        ], identifier: id).render(in: context).withClass("ock-chart")
    }

    /// An id from the title, the series and their values. Two identical charts on one page need identifiers.
    static func derivedIdentifier(title: String, series: [OCKDataSeries]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let values = series.map { $0.points.map { $0.value.map { "\($0)" } ?? "-" }.joined(separator: ",") }
        for byte in ([title] + series.map(\.title) + values).joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "ock-chart-" + String(hash, radix: 36)
    }

    /// "Doses ranges from 1 to 4, averaging 2.8.", or that nothing was recorded.
    static func defaultSummary(_ series: OCKDataSeries?, context: OCKRenderContext) -> String {
        let values = series?.points.compactMap(\.value) ?? []
        guard let series, let low = values.min(), let high = values.max() else { return context.string(.chartEmpty) }
        let format = { (value: Double) in context.localization.number(value, unit: series.unit) }
        let average = values.reduce(0, +) / Double(values.count)
        return context.string(.chartSummary, series.title, format(low), format(high), format(average))
    }
}

