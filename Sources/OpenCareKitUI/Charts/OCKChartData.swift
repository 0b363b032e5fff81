import Foundation

/// One value of a series, with optional text that says it better than the number ("3 of 4 doses").
///
/// For example:
/// ```swift
/// let taken = OCKDataPoint(3, label: "3 of 4 doses")
/// let missing = OCKDataPoint(nil) // read as "no data"
/// ```
public struct OCKDataPoint: Sendable, Hashable {
    /// The value; nil where nothing was recorded.
    public var value: Double?
    /// What assistive technology reads for this value; nil reads the number and the series' unit.
    public var label: String?

    /// Creates a point.
    ///
    /// - Parameters:
    ///   - value: The value, or nil where nothing was recorded; a value that is not finite counts as nil.
    ///   - label: What assistive technology reads for the value, or nil for the number and the series' unit.
    public init(_ value: Double?, label: String? = nil) {
        self.value = value.flatMap { $0.isFinite ? $0 : nil }
        self.label = label
    }
}

/// A series of a cartesian chart: one value per position along the X axis, drawn as bars, points or a line.
///
/// Values are matched to the chart's positions in order: values past the last position are not drawn, and a
/// position without a value or label reads as "no data".
///
/// For example:
/// ```swift
/// let doses = OCKDataSeries(title: "Doses taken", values: [3, 4, 2, nil, 3, 1, 4], mark: .bar, unit: "doses")
/// let pain = OCKDataSeries(title: "Pain (0–10)", values: [6, 5, 5, 4, 4, 3, 3], mark: .lineWithPoints,
///                          axis: .trailing)
/// ```
public struct OCKDataSeries: Sendable, Hashable {
    /// How the series is drawn.
    public enum Mark: String, Sendable, Hashable {
        /// `bar`: a bar from zero, stacked with the axis' other bar series when the chart is stacked; `point`: a symbol
        /// at each value; `line`: a line through the values, broken where a value is missing (a value alone is a dot).
        case bar, point, line
        /// A line with a symbol at every value.
        case lineWithPoints
    }

    /// The shape of a series' points and legend swatch: with the color and the fill pattern, it tells series apart
    /// without relying on color.
    public enum Symbol: String, Sendable, Hashable, CaseIterable {
        /// The shapes, in the order series without a symbol of their own take them.
        case circle, square, triangle, diamond
    }

    /// Which Y axis the series is measured against.
    public enum Axis: String, Sendable, Hashable {
        /// `leading`: the axis on the left, whose ticks the grid lines follow; `trailing`: a second scale on the right,
        /// for a series in other units.
        case leading, trailing
    }

    /// How values are combined when a long range is consolidated into weeks or months.
    public enum Aggregation: String, Sendable, Hashable {
        /// Counts, such as doses taken.
        case sum
        /// Levels, such as pain from 0 to 10.
        case average
    }

    /// The series' name: shown in the legend, and read before each value when the chart has several series.
    public var title: String
    /// The values, one per position of the chart's domain, in order.
    public var points: [OCKDataPoint]
    /// How the series is drawn.
    public var mark: Mark
    /// The unit, such as "doses" or "kg", read after values and shown at the top of the series' axis.
    public var unit: String?
    /// The symbol; nil picks one by the series' position.
    public var symbol: Symbol?
    /// The Y axis the series is measured against.
    public var axis: Axis
    /// How values combine when a long range of days is consolidated into weeks or months.
    public var aggregation: Aggregation

    /// Creates a series from points, which may carry their own spoken labels.
    ///
    /// - Parameters:
    ///   - title: The series' name.
    ///   - points: The values, one per position.
    ///   - mark: How the series is drawn; bars by default.
    ///   - unit: The unit, such as "doses", or nil.
    ///   - symbol: The points' and legend's shape, or nil to pick one by position.
    ///   - axis: The Y axis the series is measured against; the leading one by default.
    ///   - aggregation: How values combine when consolidated, or nil for ``Aggregation/sum`` with bars and
    ///     ``Aggregation/average`` with the other marks.
    public init(title: String, points: [OCKDataPoint], mark: Mark = .bar, unit: String? = nil, symbol: Symbol? = nil,
                axis: Axis = .leading, aggregation: Aggregation? = nil) {
        self.title = title
        self.points = points
        self.mark = mark
        self.unit = unit
        self.symbol = symbol
        self.axis = axis
        self.aggregation = aggregation ?? (mark == .bar ? .sum : .average)
    }

    /// Creates a series from plain values, each read as its number and the unit.
    ///
    /// - Parameters:
    ///   - title: The series' name.
    ///   - values: The values, one per position; nil where nothing was recorded.
    ///   - mark: How the series is drawn; bars by default.
    ///   - unit: The unit, such as "kg", or nil.
    ///   - symbol: The points' and legend's shape, or nil to pick one by position.
    ///   - axis: The Y axis the series is measured against; the leading one by default.
    ///   - aggregation: How values combine when consolidated, or nil for ``Aggregation/sum`` with bars and
    ///     ``Aggregation/average`` with the other marks.
    public init(title: String, values: [Double?], mark: Mark = .bar, unit: String? = nil, symbol: Symbol? = nil,
                axis: Axis = .leading, aggregation: Aggregation? = nil) {
        self.init(title: title, points: values.map { OCKDataPoint($0) }, mark: mark, unit: unit, symbol: symbol,
                  axis: axis, aggregation: aggregation)
    }
}

/// The positions along a chart's X axis, which name each column for assistive technology.
public enum OCKChartDomain: Sendable, Hashable {
    /// A period of time per position: the start of each day, week or month, labelled in the reader's locale
    /// ("Mon", "Nov 16") and read in full ("Monday, November 16", "Week of Nov 16", "November 2026").
    case dates([Date], OCKChartPeriod)
    /// Named positions, labelled and read by their names.
    case categories([String])

    /// The number of positions.
    public var count: Int {
        switch self {
        case let .dates(dates, _): dates.count
        case let .categories(names): names.count
        }
    }
}

/// The length of time one X position stands for.
public enum OCKChartPeriod: String, Sendable, Hashable {
    /// `day`: labelled by weekday for a week or less and by short date beyond; `week`: labelled by the week's first
    /// day; `month`: labelled by the month's short name.
    case day, week, month
}

/// The Y range of an axis.
public enum OCKChartRange: Sendable, Hashable {
    /// Fitted to the data with familiar tick values; bars always start at zero.
    case dynamic
    /// Fitted to the data, always including zero.
    case dynamicFromZero
    /// A fixed range, such as 0...10 for a pain scale. A range that is empty or not finite falls back to 0 through 5.
    case fixed(ClosedRange<Double>)
}

/// How a chart with many dates is consolidated.
///
/// Only a domain of days is consolidated. Each series' values in a week or month combine by its
/// ``OCKDataSeries/aggregation``; a week or month without values has none. An axis with a fixed range and a summed
/// series is refitted from zero, since sums outgrow a daily range.
public enum OCKChartConsolidation: Sendable, Hashable {
    /// Days beyond two months become weeks, beyond half a year months.
    case automatic
    /// Every day keeps its own position.
    case none
    /// Days become weeks, however few there are.
    case weeks
    /// Days become months, however few there are.
    case months
}

/// Buckets of a long date range, combined per series by its aggregation.
enum ChartConsolidator {
    /// The domain and series after consolidation, or the inputs if none applies.
    static func consolidate(_ domain: OCKChartDomain, _ series: [OCKDataSeries], how: OCKChartConsolidation,
                            calendar: Calendar) -> (OCKChartDomain, [OCKDataSeries]) {
        guard case let .dates(dates, period) = domain, period == .day else { return (domain, series) }
        let target: OCKChartPeriod? = switch how {
        case .none: nil
        case .weeks: .week
        case .months: .month
        case .automatic: dates.count > 186 ? .month : dates.count > 62 ? .week : nil
        }
        guard let target else { return (domain, series) }
        let component: Calendar.Component = target == .week ? .weekOfYear : .month
        var starts: [Date] = []
        var bucketOf: [Int] = []
        for date in dates {
            let start = calendar.dateInterval(of: component, for: date)?.start ?? date
            if starts.last != start { starts.append(start) }
            bucketOf.append(starts.count - 1)
        }
        let combined = series.map { item -> OCKDataSeries in
            var sums = [Double](repeating: 0, count: starts.count)
            var counts = [Int](repeating: 0, count: starts.count)
            for (index, point) in item.points.enumerated() where index < bucketOf.count {
                guard let value = point.value else { continue }
                sums[bucketOf[index]] += value
                counts[bucketOf[index]] += 1
            }
            var copy = item
            copy.points = zip(sums, counts).map { sum, count in
                guard count > 0 else { return OCKDataPoint(nil) }
                return OCKDataPoint(item.aggregation == .sum ? sum : sum / Double(count))
            }
            return copy
        }
        return (.dates(starts, target), combined)
    }

    /// A fixed range no longer fits sums of several days: an axis with a summed series is refitted from zero.
    static func range(_ range: OCKChartRange, afterConsolidating series: [OCKDataSeries], axis: OCKDataSeries.Axis) -> OCKChartRange {
        guard case .fixed = range, series.contains(where: { $0.axis == axis && $0.aggregation == .sum }) else { return range }
        return .dynamicFromZero
    }
}

/// A Y axis scale with familiar tick values: steps of 1, 2 or 5 times a power of ten.
struct ChartScale: Equatable {
    var lower: Double
    var upper: Double
    var step: Double

    /// The scale used when the data cannot be scaled (nothing recorded, or values beyond what a chart can draw).
    static let standard = ChartScale(lower: 0, upper: 5, step: 1)

    /// The multiples of `step` from `lower` to `upper` (at most a few dozen).
    var ticks: [Double] {
        guard step > 0, step.isFinite, lower.isFinite, upper.isFinite else { return [] }
        let first = (lower / step - 1e-9).rounded(.up)
        let last = (upper / step + 1e-9).rounded(.down)
        guard last >= first, last - first < 50 else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step + 0 } // + 0 turns -0 into 0
    }

    /// Decimals that tell the ticks apart: none for whole steps, two for 0.05.
    var fractionDigits: Int {
        guard step > 0, step.isFinite else { return 0 }
        return min(max(0, Int((-log10(step)).rounded(.up))), 6)
    }

    /// A scale covering `values`, starting at zero when `fromZero`, with about `intervals` steps.
    static func fitted(to values: [Double], fromZero: Bool, intervals: Int = 4) -> ChartScale {
        let values = values.filter(\.isFinite)
        var low = values.min() ?? 0
        var high = values.max() ?? 0
        if fromZero { low = min(low, 0); high = max(high, 0) }
        if low == high {
            if values.isEmpty || high == 0 { return ChartScale(lower: 0, upper: 5, step: 1) }
            low -= 1
            high += 1
            if fromZero { low = min(low, 0) }
        }
        let step = niceStep((high - low) / Double(intervals))
        let lower = (low / step).rounded(.down) * step
        var upper = (high / step).rounded(.up) * step
        if upper == lower { upper += step }
        let scale = ChartScale(lower: lower, upper: upper, step: step)
        return (upper - lower).isFinite && !scale.ticks.isEmpty ? scale : .standard
    }

    /// A fixed scale with familiar ticks inside it.
    static func fixed(_ range: ClosedRange<Double>, intervals: Int = 4) -> ChartScale {
        guard range.upperBound > range.lowerBound, (range.upperBound - range.lowerBound).isFinite else { return .standard }
        let step = niceStep((range.upperBound - range.lowerBound) / Double(intervals))
        let scale = ChartScale(lower: range.lowerBound, upper: range.upperBound, step: step)
        return scale.ticks.isEmpty ? .standard : scale
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / magnitude
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * magnitude
    }

    /// Where `value` falls, from 0 at `lower` to 1 at `upper` (clamped).
    func position(_ value: Double) -> Double {
        guard upper > lower else { return 0 }
        return min(max((value - lower) / (upper - lower), 0), 1)
    }
}
