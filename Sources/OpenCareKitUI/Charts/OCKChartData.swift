import Foundation

/// One value of a series, with optional text that says it better than the number ("3 of 4 doses").
public struct OCKDataPoint: Sendable, Hashable {
    /// The value; nil where nothing was recorded.
    public var value: Double?
    /// What assistive technology reads for this value; nil reads the number and the series' unit.
    public var label: String?

    public init(_ value: Double?, label: String? = nil) {
        self.value = value.flatMap { $0.isFinite ? $0 : nil }
        self.label = label
    }
}

/// A series of a cartesian chart: one value per position along the X axis.
public struct OCKDataSeries: Sendable, Hashable {
    /// How the series is drawn.
    public enum Mark: String, Sendable, Hashable {
        case bar, point, line
        /// A line with a symbol at every value.
        case lineWithPoints
    }

    /// The shape of a series' points and legend swatch: with the color and the fill pattern, it tells series apart
    /// without relying on color.
    public enum Symbol: String, Sendable, Hashable, CaseIterable {
        case circle, square, triangle, diamond
    }

    /// Which Y axis the series is measured against.
    public enum Axis: String, Sendable, Hashable {
        case leading, trailing
    }

    /// How values are combined when a long range is consolidated into weeks or months.
    public enum Aggregation: String, Sendable, Hashable {
        /// Counts, such as doses taken.
        case sum
        /// Levels, such as pain from 0 to 10.
        case average
    }

    public var title: String
    public var points: [OCKDataPoint]
    public var mark: Mark
    /// The unit, such as "doses" or "kg", read after values and shown at the top of the series' axis.
    public var unit: String?
    /// The symbol; nil picks one by the series' position.
    public var symbol: Symbol?
    public var axis: Axis
    public var aggregation: Aggregation

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

    public init(title: String, values: [Double?], mark: Mark = .bar, unit: String? = nil, symbol: Symbol? = nil,
                axis: Axis = .leading, aggregation: Aggregation? = nil) {
        self.init(title: title, points: values.map { OCKDataPoint($0) }, mark: mark, unit: unit, symbol: symbol,
                  axis: axis, aggregation: aggregation)
    }
}

/// The positions along a chart's X axis.
public enum OCKChartDomain: Sendable, Hashable {
    /// A period of time per position: the start of each day, week or month.
    case dates([Date], OCKChartPeriod)
    /// Named positions.
    case categories([String])

    public var count: Int {
        switch self {
        case let .dates(dates, _): dates.count
        case let .categories(names): names.count
        }
    }
}

/// The length of time one X position stands for.
public enum OCKChartPeriod: String, Sendable, Hashable {
    case day, week, month
}

/// The Y range of an axis.
public enum OCKChartRange: Sendable, Hashable {
    /// Fitted to the data with familiar tick values; bars always start at zero.
    case dynamic
    /// Fitted to the data, always including zero.
    case dynamicFromZero
    /// A fixed range, such as 0...10 for a pain scale.
    case fixed(ClosedRange<Double>)
}

/// How a chart with many dates is consolidated.
public enum OCKChartConsolidation: Sendable, Hashable {
    /// Days beyond two months become weeks, beyond half a year months.
    case automatic
    case none
    case weeks
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
