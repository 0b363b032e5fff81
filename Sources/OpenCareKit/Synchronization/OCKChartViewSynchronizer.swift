import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// One series of a chart drawn from the store: which tasks, and what number each day gives (CareKit's
/// OCKDataSeriesConfiguration, with the day's value chosen here rather than by a progress closure).
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

    public var taskIDs: [String]
    public var legendTitle: String
    public var mark: OCKDataSeries.Mark
    public var unit: String?
    public var axis: OCKDataSeries.Axis
    public var dailyValue: DailyValue
    /// Only outcome values of this kind count toward `sum` and `average` (a survey's answer to one question, whose
    /// kind is the question's id); nil counts every value.
    public var kind: String?

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
public struct OCKChartData: Sendable {
    public var days: [Date]
    public var values: [[Double?]]

    public init(days: [Date], values: [[Double?]]) {
        self.days = days
        self.values = values
    }

    /// Fetches the events of the configured tasks over the days and computes each series' daily values.
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
public struct OCKCartesianChartViewSynchronizer: OCKViewSynchronizing {
    public var title: String
    public var detail: String?
    public var summary: String?
    public var configurations: [OCKDataSeriesConfiguration]
    public var yRange: OCKChartRange
    public var trailingYRange: OCKChartRange
    public var identifier: String?

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
