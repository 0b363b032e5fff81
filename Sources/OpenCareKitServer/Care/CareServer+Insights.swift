import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

/// The Insights tab's periods: the last week, month or year up to today.
enum InsightsPeriod: String, CaseIterable {
    case week, month, year

    var days: Int {
        switch self {
        case .week: 7
        case .month: 30
        case .year: 365
        }
    }

    var title: OCKStringKey {
        switch self {
        case .week: .periodWeek
        case .month: .periodMonth
        case .year: .periodYear
        }
    }
}

extension CareServer {
    static func addInsightsRoutes(to routes: inout RecordRouteTable) {
        routes.get("/insights", .page("insights"), handler: CareServer.getInsights)
    }

    /// The days of `period` ending today.
    func days(of period: InsightsPeriod) -> [Date] {
        let today = calendar.startOfDay(for: configuration.now())
        return (0..<period.days).reversed().compactMap { calendar.date(byAdding: .day, value: -$0, to: today) }
    }

    /// The charts: task completion per day from the store's adherence, then the configured charts.
    func insightCharts(period: InsightsPeriod, context: OCKRenderContext) async throws -> [OCKCartesianChartView] {
        try await insightCharts(days: days(of: period), context: context)
    }

    /// The Insights tab's charts over `days` (the starts of consecutive days).
    func insightCharts(days: [Date], context: OCKRenderContext) async throws -> [OCKCartesianChartView] {
        guard let first = days.first, let last = days.last else { return [] }
        let environment = OCKSynchronizationEnvironment(render: context, actions: nil)
        let adherence = try await store.fetchAdherence(
            query: OCKAdherenceQuery(taskIDs: [], dateInterval: DateInterval(start: first, end: page.day(containing: last).end)),
            calendar: calendar)
        let completion: [Double?] = adherence.map { if case let .progress(value) = $0 { value } else { nil } }
        let known = completion.compactMap { $0 }
        let summary = known.isEmpty ? nil
            : context.string(.averageCompletion, context.localization.percent(known.reduce(0, +) / Double(known.count)))
        var charts = [OCKCartesianChartViewSynchronizer(
            title: context.string(.taskCompletion), summary: summary, configurations: [
                OCKDataSeriesConfiguration(taskIDs: [], legendTitle: context.string(.taskCompletion), dailyValue: .completion),
            ], yRange: .fixed(0...100), identifier: "insight-completion",
        ).view(for: OCKChartData(days: days, values: [Array(completion.prefix(days.count))]), environment: environment)]
        for (index, chart) in configuration.insights.enumerated() {
            var synchronizer = chart
            if synchronizer.identifier == nil { synchronizer.identifier = "insight-\(index)" }
            let data = try await OCKChartData.fetch(chart.configurations, days: days, calendar: calendar, from: store)
            charts.append(synchronizer.view(for: data, environment: environment))
        }
        return charts
    }

    func insightsPage(_ request: Request) async throws -> Response {
        let context = renderContext(for: request)
        let text = request.uri.queryParameters.get("period") ?? "week"
        guard let period = InsightsPeriod(rawValue: text) else {
            throw LocalizedRefusal(.badRequest, PageMessage(ErrorText.badPeriod))
        }
        let charts = try await insightCharts(period: period, context: context)
        let periods = HTML.element("nav", ["class": "ock-day-nav", "aria-label": context.string(.period)], [
            .element("ul", [:], InsightsPeriod.allCases.map { item in
                var attributes = ["href": url("/insights?period=\(item.rawValue)")]
                if item == period { attributes["aria-current"] = "page" }
                return .element("li", [:], [.element("a", attributes, [.text(context.string(item.title))])])
            }),
        ])
        let main: [HTML] = [
            .element("div", ["class": "ock-care-header"], [
                .element("h1", ["class": "ock-day-heading"], [.text(context.string(.insightsTab))]),
                periods,
            ]),
            .element("div", ["class": "ock-page-grid"], charts.map { $0.render(in: context) }),
        ]
        return AppPage.response(AppPage(title: context.string(.insightsTab), base: basePath, idleSeconds: idleSeconds, tab: .insights, main: main,
                                        metadata: ["ock-refresh": url("/insights?period=\(period.rawValue)")]).render(in: context))
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/insights`.
    func getInsights(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await insightsPage(request)
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
