import Foundation

/// The geometry of a cartesian chart in a fixed SVG coordinate space, and the SVG for its parts.
struct ChartLayout {
    static let width = 360.0
    static let height = 220.0
    static let top = 22.0
    static let bottom = 194.0

    let domain: OCKChartDomain
    let series: [OCKDataSeries]
    let isStacked: Bool
    let leadingScale: ChartScale
    let trailingScale: ChartScale?
    let left: Double
    let right: Double

    init(domain: OCKChartDomain, series: [OCKDataSeries], isStacked: Bool, yRange: OCKChartRange,
         trailingYRange: OCKChartRange) {
        self.domain = domain
        self.series = series
        self.isStacked = isStacked
        let hasTrailing = series.contains { $0.axis == .trailing }
        leadingScale = Self.scale(for: series.filter { $0.axis == .leading }, stacked: isStacked, range: yRange)
        trailingScale = hasTrailing ? Self.scale(for: series.filter { $0.axis == .trailing }, stacked: isStacked,
                                                 range: trailingYRange) : nil
        left = 40
        right = Self.width - (hasTrailing ? 40 : 12)
    }

    /// The scale for the series on one axis: the range asked for, fitted to the values (stack totals when stacked).
    static func scale(for series: [OCKDataSeries], stacked: Bool, range: OCKChartRange) -> ChartScale {
        if case let .fixed(bounds) = range { return .fixed(bounds) }
        var values = series.filter { !(stacked && $0.mark == .bar) }.flatMap { $0.points.compactMap(\.value) }
        let bars = series.filter { $0.mark == .bar }
        if stacked, !bars.isEmpty {
            let count = bars.map(\.points.count).max() ?? 0
            for index in 0..<count {
                let column = bars.compactMap { index < $0.points.count ? $0.points[index].value : nil }
                values.append(column.filter { $0 > 0 }.reduce(0, +))
                values.append(column.filter { $0 < 0 }.reduce(0, +))
            }
        }
        let fromZero = range == .dynamicFromZero || !bars.isEmpty
        return .fitted(to: values, fromZero: fromZero)
    }

    var slotWidth: Double { (right - left) / Double(max(domain.count, 1)) }

    func center(_ index: Int) -> Double { left + (Double(index) + 0.5) * slotWidth }

    func y(_ value: Double, axis: OCKDataSeries.Axis) -> Double {
        let scale = axis == .trailing ? (trailingScale ?? leadingScale) : leadingScale
        return Self.bottom - scale.position(value) * (Self.bottom - Self.top)
    }

    /// SVG numbers: one decimal, locale-independent; values beyond ±1e12 (never a coordinate) are clamped.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (min(max(value, -1e12), 1e12) * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

    // MARK: Labels

    /// The full label of an X position for assistive technology: "Monday, November 16: 3 of 4 doses".
    func columnLabel(_ index: Int, context: OCKRenderContext) -> String {
        let values = series.map { item -> String in
            let point = index < item.points.count ? item.points[index] : OCKDataPoint(nil)
            let text = point.label ?? point.value.map { context.localization.number($0, unit: item.unit) }
                ?? context.string(.noValue)
            return series.count == 1 ? text : context.string(.seriesValue, item.title, text)
        }
        let joined = values.dropFirst().reduce(values.first ?? "") { context.string(.listJoin, $0, $1) }
        return context.string(.seriesValue, fullName(index, context: context), joined)
    }

    func fullName(_ index: Int, context: OCKRenderContext) -> String {
        let l10n = context.localization
        switch domain {
        case let .categories(names): return names[index]
        case let .dates(dates, period):
            switch period {
            case .day: return l10n.fullDay(dates[index])
            case .week: return context.string(.weekOf, l10n.shortDate(dates[index]))
            case .month: return l10n.monthAndYear(dates[index])
            }
        }
    }

    func tickName(_ index: Int, context: OCKRenderContext) -> String {
        let l10n = context.localization
        switch domain {
        case let .categories(names): return names[index]
        case let .dates(dates, period):
            switch period {
            case .day: return dates.count <= 7 ? l10n.weekdayShort(dates[index]) : l10n.shortDate(dates[index])
            case .week: return l10n.shortDate(dates[index])
            case .month: return l10n.monthShort(dates[index])
            }
        }
    }

    // MARK: Parts

    /// Fill patterns: the second and later bar series are hatched, so bars differ by more than color.
    func definitions(id: String) -> HTML {
        let patterns = series.indices.filter { barIndex(of: $0) ?? 0 > 0 }.map { index -> HTML in
            let hatch = barIndex(of: index) ?? 1
            let angles = [45, -45, 90, 0, 22]
            return .element("pattern", ["id": "\(id)-pattern-\(index)", "width": "6", "height": "6",
                                        "patternUnits": "userSpaceOnUse",
                                        "patternTransform": "rotate(\(angles[(hatch - 1) % angles.count]))"], [
                .element("rect", ["width": "6", "height": "6", "class": "ock-series-fill-\(index % 6)"], []),
                .element("line", ["x1": "0", "y1": "0", "x2": "0", "y2": "6", "class": "ock-pattern-line"], []),
            ])
        }
        return .element("defs", [:], patterns)
    }

    /// The position of series `index` among the bar series, if it is one.
    func barIndex(of index: Int) -> Int? {
        guard series[index].mark == .bar else { return nil }
        return series[..<index].filter { $0.mark == .bar }.count
    }

    func fill(_ index: Int, id: String) -> [String: String] {
        (barIndex(of: index) ?? 0) > 0 ? ["fill": "url(#\(id)-pattern-\(index))"] : ["class": "ock-series-fill-\(index % 6)"]
    }

    /// Grid lines, tick values, X labels and units; hidden from assistive technology, which reads the columns.
    func axes(context: OCKRenderContext) -> HTML {
        var parts: [HTML] = []
        for tick in leadingScale.ticks {
            let y = Self.coordinate(self.y(tick, axis: .leading))
            parts.append(.element("line", ["class": "ock-grid-line", "x1": Self.coordinate(left), "x2": Self.coordinate(right),
                                           "y1": y, "y2": y], []))
            parts.append(.element("text", ["class": "ock-tick", "x": Self.coordinate(left - 6), "y": y, "text-anchor": "end",
                                           "dominant-baseline": "middle"], [.text(context.localization.number(tick, fractionDigits: leadingScale.fractionDigits))]))
        }
        if let trailingScale {
            for tick in trailingScale.ticks {
                let y = Self.coordinate(Self.bottom - trailingScale.position(tick) * (Self.bottom - Self.top))
                parts.append(.element("text", ["class": "ock-tick ock-tick-trailing", "x": Self.coordinate(right + 6), "y": y,
                                               "text-anchor": "start", "dominant-baseline": "middle"],
                                      [.text(context.localization.number(tick, fractionDigits: trailingScale.fractionDigits))]))
            }
        }
        parts.append(.element("line", ["class": "ock-axis-line", "x1": Self.coordinate(left), "x2": Self.coordinate(right),
                                       "y1": Self.coordinate(Self.bottom), "y2": Self.coordinate(Self.bottom)], []))
        let every = max(1, Int((Double(domain.count) / 7).rounded(.up)))
        for index in 0..<domain.count where index % every == 0 {
            parts.append(.element("text", ["class": "ock-tick ock-tick-x", "x": Self.coordinate(center(index)),
                                           "y": Self.coordinate(Self.bottom + 16), "text-anchor": "middle"],
                                  [.text(tickName(index, context: context))]))
        }
        let leadingUnit = series.first { $0.axis == .leading }?.unit
        let trailingUnit = series.first { $0.axis == .trailing }?.unit
        if let leadingUnit {
            parts.append(.element("text", ["class": "ock-axis-unit", "x": Self.coordinate(left - 6), "y": "10",
                                           "text-anchor": "start"], [.text(leadingUnit)]))
        }
        if let trailingUnit, trailingScale != nil {
            parts.append(.element("text", ["class": "ock-axis-unit", "x": Self.coordinate(Self.width - 2), "y": "10",
                                           "text-anchor": "end"], [.text(trailingUnit)]))
        }
        return .element("g", ["class": "ock-chart-axes", "aria-hidden": "true"], parts)
    }

    /// The line series, as paths broken where values are missing.
    func lines() -> HTML {
        let paths = series.enumerated().filter { $0.element.mark == .line || $0.element.mark == .lineWithPoints }
            .map { index, item -> HTML in
                // Runs of values are joined; a value alone between gaps is a dot (a round cap on a tiny segment).
                var path = ""
                var run = 0
                for (position, point) in item.points.enumerated() where position < domain.count {
                    let next = position + 1 < min(item.points.count, domain.count) ? item.points[position + 1].value : nil
                    guard let value = point.value else { run = 0; continue }
                    path += "\(run > 0 ? "L" : "M")\(Self.coordinate(center(position))) \(Self.coordinate(y(value, axis: item.axis))) "
                    if run == 0, next == nil { path += "l0.1 0 " }
                    run += 1
                }
                return .element("path", ["class": "ock-series-line ock-series-stroke-\(index % 6) ock-dash-\(index % 4)",
                                         "d": path.trimmingCharacters(in: .whitespaces), "fill": "none"], [])
            }
        return .element("g", ["class": "ock-chart-lines", "aria-hidden": "true"], paths)
    }

    /// One focusable group per X position with its label, its bars and points, and a focus outline.
    func columns(labels: [String], id: String) -> HTML {
        let bars = series.indices.filter { series[$0].mark == .bar }
        // Stacks sit side by side when both axes have bars; unstacked bars each get a place.
        let stackAxes = [OCKDataSeries.Axis.leading, .trailing].filter { axis in bars.contains { series[$0].axis == axis } }
        let barGroups = isStacked ? max(stackAxes.count, 1) : max(bars.count, 1)
        let barWidth = slotWidth * 0.7 / Double(barGroups)
        let groups = (0..<domain.count).map { position -> HTML in
            var marks: [HTML] = [
                .element("rect", ["class": "ock-chart-focus", "x": Self.coordinate(center(position) - slotWidth / 2 + 1),
                                  "y": Self.coordinate(Self.top - 4), "width": Self.coordinate(max(slotWidth - 2, 1)),
                                  "height": Self.coordinate(Self.bottom - Self.top + 8), "rx": "4"], []),
            ]
            var stackTops: [OCKDataSeries.Axis: (positive: Double, negative: Double)] = [:]
            for (order, index) in bars.enumerated() {
                let item = series[index]
                guard position < item.points.count, let value = item.points[position].value, value != 0 else { continue }
                var base = 0.0
                if isStacked {
                    let tops = stackTops[item.axis] ?? (0, 0)
                    base = value >= 0 ? tops.positive : tops.negative
                    stackTops[item.axis] = value >= 0 ? (tops.positive + value, tops.negative) : (tops.positive, tops.negative + value)
                }
                let place = isStacked ? stackAxes.firstIndex(of: item.axis) ?? 0 : order
                let x = center(position) - slotWidth * 0.35 + Double(place) * barWidth
                let y0 = y(base, axis: item.axis)
                let y1 = y(base + value, axis: item.axis)
                var attributes = fill(index, id: id)
                attributes["class"] = [attributes["class"], "ock-bar"].compactMap { $0 }.joined(separator: " ")
                attributes["x"] = Self.coordinate(x)
                attributes["y"] = Self.coordinate(min(y0, y1))
                attributes["width"] = Self.coordinate(max(barWidth - (isStacked ? 0 : 1), 1))
                attributes["height"] = Self.coordinate(abs(y1 - y0))
                marks.append(.element("rect", attributes, []))
                if isStacked, base != 0 {
                    // A separator between stacked segments, in the card's background color.
                    marks.append(.element("line", ["class": "ock-stack-separator", "x1": Self.coordinate(x),
                                                   "x2": Self.coordinate(x + barWidth), "y1": Self.coordinate(y0),
                                                   "y2": Self.coordinate(y0)], []))
                }
            }
            for (index, item) in series.enumerated() where item.mark == .point || item.mark == .lineWithPoints {
                guard position < item.points.count, let value = item.points[position].value else { continue }
                marks.append(symbol(index, x: center(position), y: y(value, axis: item.axis)))
            }
            // Without the script the groups are read in browse mode; the script makes them keyboard stops.
            return .element("g", ["class": "ock-chart-column", "role": "img", "aria-label": labels[position],
                                  "data-index": String(position)], marks)
        }
        return .element("g", ["class": "ock-chart-columns", "id": "\(id)-columns"], groups)
    }

    func symbolShape(_ index: Int) -> OCKDataSeries.Symbol {
        series[index].symbol ?? OCKDataSeries.Symbol.allCases[index % OCKDataSeries.Symbol.allCases.count]
    }

    /// A point's symbol centred on (x, y).
    func symbol(_ index: Int, x: Double, y: Double, size: Double = 4) -> HTML {
        let classes = "ock-point ock-series-fill-\(index % 6)"
        let c = Self.coordinate
        switch symbolShape(index) {
        case .circle:
            return .element("circle", ["class": classes, "cx": c(x), "cy": c(y), "r": c(size)], [])
        case .square:
            return .element("rect", ["class": classes, "x": c(x - size), "y": c(y - size), "width": c(size * 2),
                                     "height": c(size * 2)], [])
        case .triangle:
            return .element("polygon", ["class": classes,
                                        "points": "\(c(x)),\(c(y - size * 1.2)) \(c(x + size * 1.1)),\(c(y + size)) \(c(x - size * 1.1)),\(c(y + size))"], [])
        case .diamond:
            return .element("polygon", ["class": classes,
                                        "points": "\(c(x)),\(c(y - size * 1.3)) \(c(x + size * 1.3)),\(c(y)) \(c(x)),\(c(y + size * 1.3)) \(c(x - size * 1.3)),\(c(y))"], [])
        }
    }

    /// The legend's sample of series `index`: a bar in its fill, or a line with its dash and symbol.
    func swatch(_ index: Int, id: String) -> HTML {
        let item = series[index]
        var content: [HTML] = []
        if item.mark == .bar {
            var attributes = fill(index, id: id)
            attributes["x"] = "4"; attributes["y"] = "4"; attributes["width"] = "16"; attributes["height"] = "12"
            attributes["rx"] = "2"
            content.append(.element("rect", attributes, []))
        }
        if item.mark == .line || item.mark == .lineWithPoints {
            content.append(.element("line", ["class": "ock-series-line ock-series-stroke-\(index % 6) ock-dash-\(index % 4)",
                                             "x1": "0", "x2": "24", "y1": "10", "y2": "10"], []))
        }
        if item.mark == .point || item.mark == .lineWithPoints {
            content.append(symbol(index, x: 12, y: 10))
        }
        return .element("svg", ["class": "ock-legend-swatch", "viewBox": "0 0 24 20", "aria-hidden": "true",
                                "focusable": "false"], content)
    }
}

