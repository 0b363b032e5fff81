import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// One series of a chart drawn from the store: which tasks, and what number each day gives (CareKit's
/// OCKDataSeriesConfiguration, with the day's value chosen here rather than by a progress closure).
///
/// For example, doses taken per day as bars, and the average pain answered in the daily check-in as a line against
/// the trailing axis:
/// ```swift
/// let doses = OCKDataSeriesConfiguration(taskIDs: ["ibuprofen"], legendTitle: "Ibuprofen doses", unit: "doses",
///                                        dailyValue: .completedEvents)
/// let pain = OCKDataSeriesConfiguration(taskIDs: ["check-in"], legendTitle: "Pain (0 to 10)", mark: .lineWithPoints,
///                                       axis: .trailing, dailyValue: .average, kind: "pain")
/// ```
public struct OCKDataSeriesConfiguration: Sendable {
    /// What a day's events add up to.
    public enum DailyValue: Sendable, Hashable {
        /// Events with an outcome (doses taken).
        case completedEvents
        /// Logged values, however many per event (nausea episodes).
        case loggedValues
        /// The sum of the numeric values (glasses of water).
        case sum
        /// The mean of the numeric values (weight, pain).
        case average
        /// The share of the day's events that are done, 0 to 1.
        case completion
    }

    /// The tasks whose events the series counts, by id (every version of each); an empty list counts nothing.
    public var taskIDs: [String]
    /// The series' name in the chart's legend and its value labels.
    public var legendTitle: String
    /// How the series is drawn: bars (the default), points, a line, or a line with points.
    public var mark: OCKDataSeries.Mark
    /// The unit the chart's labels give the values in ("doses", "kg"); nil for none. A `.completion` series is
    /// always in percent, whatever this says.
    public var unit: String?
    /// The Y axis the series is measured against: leading (the default) or trailing.
    public var axis: OCKDataSeries.Axis
    /// What number each day gives.
    public var dailyValue: DailyValue
    /// Only outcome values of this kind count toward `sum` and `average` (a survey's answer to one question, whose
    /// kind is the question's id); nil counts every value.
    public var kind: String?

    /// A series of the given tasks.
    ///
    /// - Parameters:
    ///   - taskIDs: The tasks whose events the series counts.
    ///   - legendTitle: The series' name in the legend.
    ///   - mark: How the series is drawn; bars by default.
    ///   - unit: The unit of the values, such as "kg"; none by default.
    ///   - axis: The Y axis it is measured against; the leading one by default.
    ///   - dailyValue: What number each day gives.
    ///   - kind: Only outcome values of this kind count toward `.sum` and `.average`; nil (the default) counts all.
    public init(taskIDs: [String], legendTitle: String, mark: OCKDataSeries.Mark = .bar, unit: String? = nil,
                axis: OCKDataSeries.Axis = .leading, dailyValue: DailyValue, kind: String? = nil) {
        self.taskIDs = taskIDs
        self.kind = kind
        self.legendTitle = legendTitle
        self.mark = mark
        self.unit = unit
        self.axis = axis
        self.dailyValue = dailyValue
    }

    /// The day's value from its events of these tasks; nil when nothing was scheduled or recorded.
    func value(of events: [OCKAnyEvent]) -> Double? {
        let mine = events.filter { taskIDs.contains($0.task.id) }
        let numbers = mine.flatMap { $0.outcome?.values ?? [] }.filter { kind == nil || $0.kind == kind }
            .compactMap { $0.numberValue?.doubleValue }
        switch dailyValue {
        case .completedEvents: return mine.isEmpty ? nil : Double(mine.filter(\.isComplete).count)
        case .loggedValues: return mine.isEmpty ? nil : Double(mine.reduce(0) { $0 + ($1.outcome?.values.count ?? 0) })
        case .sum: return numbers.isEmpty ? nil : numbers.reduce(0, +)
        case .average: return numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
        case .completion: return mine.isEmpty ? nil : Double(mine.filter(\.isComplete).count) / Double(mine.count)
        }
    }
}

/// A chart's data: the days and, per configured series, each day's value.
///
/// For example, the last seven days of the demo's doses-and-nausea chart, read from the store:
/// ```swift
/// let chart = OCKDemoCarePlan.insights[0]
/// let today = calendar.startOfDay(for: Date())
/// let days = (0..<7).reversed().compactMap { calendar.date(byAdding: .day, value: -$0, to: today) }
/// let data = try await OCKChartData.fetch(chart.configurations, days: days, calendar: calendar, from: store)
/// ```
public struct OCKChartData: Sendable {
    /// The X axis: the start of each day shown, earliest first.
    public var days: [Date]
    /// Per series, in the order of the configurations, one value per day of ``days``; nil where the day had nothing
    /// to count (a gap in the chart).
    public var values: [[Double?]]

    /// Data given as is, such as values computed elsewhere (the store's adherence, for a completion chart).
    ///
    /// - Parameters:
    ///   - days: The start of each day shown, earliest first.
    ///   - values: Per series, one value (or nil) per day.
    public init(days: [Date], values: [[Double?]]) {
        self.days = days
        self.values = values
    }

    /// Fetches the events of the configured tasks over the days and computes each series' daily values.
    ///
    /// An event counts toward the day its start falls on in `calendar`. Empty `days` give data with no values.
    ///
    /// - Parameters:
    ///   - configurations: The series, each with its tasks and daily value.
    ///   - days: The starts of consecutive days in `calendar`, earliest first.
    ///   - calendar: The calendar the days are in (the patient's time zone).
    ///   - store: The store to read the events from.
    /// - Returns: The days and, per configuration in order, each day's value.
    /// - Throws: What the store's event fetch throws.
    public static func fetch<Store: OCKReadOnlyEventStore>(_ configurations: [OCKDataSeriesConfiguration], days: [Date],
                                                           calendar: Calendar, from store: Store) async throws -> OCKChartData {
        guard let first = days.first, let last = days.last,
              let end = calendar.dateInterval(of: .day, for: last)?.end else { return OCKChartData(days: days, values: []) }
        var query = OCKEventQuery(dateInterval: DateInterval(start: first, end: end))
        query.taskIDs = Array(Set(configurations.flatMap(\.taskIDs)))
        let events = try await store.fetchEvents(query: query).map(\.anyEvent)
        var byDay = [[OCKAnyEvent]](repeating: [], count: days.count)
        for event in events {
            let index = calendar.dateComponents([.day], from: first, to: calendar.startOfDay(for: event.scheduleEvent.start)).day ?? -1
            if byDay.indices.contains(index) { byDay[index].append(event) }
        }
        return OCKChartData(days: days, values: configurations.map { configuration in byDay.map(configuration.value) })
    }
}

/// CareKit's cartesian chart synchronizer: a chart of the configured series over days, with labels per day that
/// read the values and units.
///
/// Its view model is ``OCKChartData`` for its ``configurations``, in the same order. A `.completion` series is drawn
/// in percent (0 to 100) with labels such as "80% complete". When the chart consolidates a long range into weeks or
/// months, counts (`.completedEvents`, `.loggedValues`, `.sum`) are added up and the other series averaged.
///
/// For example, the weight recorded over the last week:
/// ```swift
/// let weight = OCKCartesianChartViewSynchronizer(title: "Weight", configurations: [
///     OCKDataSeriesConfiguration(taskIDs: ["weigh-in"], legendTitle: "Weight", mark: .lineWithPoints, unit: "kg",
///                                dailyValue: .average),
/// ])
/// let data = try await OCKChartData.fetch(weight.configurations, days: days, calendar: calendar, from: store)
/// let chart = weight.view(for: data, environment: environment)
/// ```
public struct OCKCartesianChartViewSynchronizer: OCKViewSynchronizing {
    /// The chart's heading.
    public var title: String
    /// A line under the heading, such as the period shown; nil for none.
    public var detail: String?
    /// One sentence that says what the chart shows; nil lets the chart write one from its first series.
    public var summary: String?
    /// The series, in the order of the view model's values.
    public var configurations: [OCKDataSeriesConfiguration]
    /// The range of the leading Y axis; `.dynamic` (fitted to the values) by default.
    public var yRange: OCKChartRange
    /// The range of the trailing Y axis, for series on `.trailing`; `.dynamic` by default.
    public var trailingYRange: OCKChartRange
    /// The chart's element id in the page (and the prefix of the ids inside it); nil lets the chart derive one from
    /// its title and series.
    public var identifier: String?

    /// A chart synchronizer.
    ///
    /// - Parameters:
    ///   - title: The chart's heading.
    ///   - detail: A line under the heading; none by default.
    ///   - summary: One sentence that says what the chart shows; by default the chart writes one.
    ///   - configurations: The series.
    ///   - yRange: The leading Y axis' range; `.dynamic` by default.
    ///   - trailingYRange: The trailing Y axis' range; `.dynamic` by default.
    ///   - identifier: The chart's element id in the page; by default derived from the title and series.
    public init(title: String, detail: String? = nil, summary: String? = nil, configurations: [OCKDataSeriesConfiguration],
                yRange: OCKChartRange = .dynamic, trailingYRange: OCKChartRange = .dynamic, identifier: String? = nil) {
        self.title = title
        self.detail = detail
        self.summary = summary
        self.configurations = configurations
        self.yRange = yRange
        self.trailingYRange = trailingYRange
        self.identifier = identifier
    }

    public func makeView() -> OCKCartesianChartView {
        OCKCartesianChartView(title: title, domain: .categories([]), series: [])
    }

    public func updateView(_ view: inout OCKCartesianChartView, context: OCKSynchronizationContext<OCKChartData>) {
        let data = context.viewModel
        let l10n = context.environment.render.localization
        view.title = title
        view.detail = detail
        view.summary = summary
        view.identifier = identifier
        view.yRange = yRange
        view.trailingYRange = trailingYRange
        view.domain = .dates(data.days, .day)
        view.series = zip(configurations, data.values).map { configuration, values in
            let points = values.map { value -> OCKDataPoint in
                guard let value, configuration.dailyValue == .completion else { return OCKDataPoint(value) }
                return OCKDataPoint(value * 100, label: context.environment.render.string(.ringCompletion, l10n.percent(value)))
            }
            return OCKDataSeries(title: configuration.legendTitle, points: points, mark: configuration.mark,
                                 unit: configuration.dailyValue == .completion ? "%" : configuration.unit, axis: configuration.axis,
                                 aggregation: [.sum, .completedEvents, .loggedValues].contains(configuration.dailyValue) ? .sum : .average)
        }
    }
}
