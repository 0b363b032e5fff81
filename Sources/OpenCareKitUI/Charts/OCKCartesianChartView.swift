import Foundation

/// CareKit's cartesian chart as an accessible SVG card: bar, point and line marks for several series, a legend by
/// shape, pattern and color, axes with familiar ticks and units, an optional trailing axis, stacked bars, a title and
/// a one-sentence summary.
///
/// Each X position is a group with a label that reads in context ("Monday, November 16: 3 of 4 doses"); axis text
/// is hidden from assistive technology. With the page's script, the arrow keys move along the X axis with a visible
/// focus and a live region reads each value, and a button plays the first series as an audio graph. Long date ranges
/// are consolidated into weeks or months.
public struct OCKCartesianChartView: OCKComponent {
    public var title: String
    public var detail: String?
    /// One sentence that says what the chart shows; nil writes one from the first series.
    public var summary: String?
    public var domain: OCKChartDomain
    public var series: [OCKDataSeries]
    public var yRange: OCKChartRange
    public var trailingYRange: OCKChartRange
    /// Stack the bar series on each axis instead of setting them side by side.
    public var isStacked: Bool
    public var consolidation: OCKChartConsolidation
    /// The element id, and the prefix of the ids inside; nil derives one from the title and series.
    public var identifier: String?

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

