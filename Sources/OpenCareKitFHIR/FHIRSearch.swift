import Foundation
import OpenCareKitStore

/// FHIR's answers that are not a resource of the record: errors as an `OperationOutcome`, search results as a
/// `searchset` Bundle, and the `date` search parameter.
public enum FHIRSearch {
    /// An `OperationOutcome` of one error: its code (FHIR's issue-type: invalid, required, not-found, not-supported,
    /// forbidden, login, exception …) and a message for people (no patient data).
    public static func outcome(_ code: String, _ message: String, expression: String? = nil) -> FHIRJSON {
        .object(
            ("resourceType", "OperationOutcome"),
            ("issue", .array([.object(
                ("severity", "error"),
                ("code", .string(code)),
                ("diagnostics", .string(message)),
                ("expression", expression.map { .array([.string($0)]) }))])))
    }

    /// The `searchset` Bundle of one `page` of results, with its `self` link and, when there are more, its `next`;
    /// `total` is how many match in all, when it was counted (a Bundle may leave it out).
    public static func searchset(page: [FHIRJSON], total: Int?, selfLink: String, nextLink: String?, base: String) -> FHIRJSON {
        var links: [FHIRJSON] = [.object(("relation", "self"), ("url", .string(selfLink)))]
        if let nextLink { links.append(.object(("relation", "next"), ("url", .string(nextLink)))) }
        return .object(
            ("resourceType", "Bundle"),
            ("type", "searchset"),
            ("total", total.map(FHIRJSON.integer)),
            ("link", .array(links)),
            ("entry", .array(page.map { resource in
                .object(
                    ("fullUrl", .string("\(base)/\(resource["resourceType"]?.string ?? "")/\(resource["id"]?.string ?? "")")),
                    ("resource", resource),
                    ("search", .object(("mode", "match"))))
            })))
    }

    /// A `date` search parameter: a prefix (eq, ne, lt, le, gt, ge; eq when none) and a date of some precision — a
    /// year, a month, a day (in `calendar`'s zone), or a time — read as the range it stands for.
    ///
    /// For example:
    /// ```swift
    /// var calendar = Calendar(identifier: .gregorian)
    /// calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    /// let filter = FHIRSearch.DateFilter("ge2026-03", calendar: calendar)!
    /// // filter.start is 1 March 2026 at midnight in Paris, filter.end 1 April 2026 at midnight there.
    /// filter.matches(Date())       // true from 1 March 2026 on
    /// FHIRSearch.DateFilter("ge2026-02-30", calendar: calendar)   // nil: no such day
    /// ```
    public struct DateFilter: Sendable, Equatable {
        /// The comparison: `eq`, `ne`, `lt`, `le`, `gt` or `ge` (`eq` when the parameter had none). FHIR's `sa`, `eb`
        /// and `ap` are not read.
        public var prefix: String
        /// The first moment of the range the date stands for.
        public var start: Date
        /// The first moment after the range (it is not in it): the next year, month or day at midnight in the
        /// calendar's zone, or for a time a second later (a millisecond when it is written with a fraction).
        public var end: Date

        /// The filter a `date` parameter's value `text` names, or nil when it is not one.
        ///
        /// `text` is an optional prefix and a date: `2026`, `2026-03`, `2026-03-14` (read in `calendar`'s zone) or a
        /// time with its zone and seconds, `2026-03-14T09:30:00Z` or `2026-03-14T09:30:00.250+01:00`. A day that
        /// does not exist (`2026-02-30`), a year outside 1–9999, a time without its zone or an unknown prefix give nil.
        ///
        /// - Parameters:
        ///   - text: The parameter's value, such as `ge2026-03-14`.
        ///   - calendar: The calendar whose time zone places a year, a month or a day (a time carries its own zone).
        public init?(_ text: String, calendar: Calendar) {
            let prefixes = ["eq", "ne", "lt", "le", "gt", "ge"]
            let prefix = prefixes.first { text.hasPrefix($0) } ?? "eq"
            let value = prefixes.contains(String(text.prefix(2))) ? String(text.dropFirst(2)) : text
            guard let (start, end) = Self.range(value, calendar: calendar) else { return nil }
            (self.prefix, self.start, self.end) = (prefix, start, end)
        }

        /// The filter as the store's condition on when a value was recorded. An Observation's `effectiveDateTime` is
        /// the time rounded to the millisecond, and the filter reads that: a bound B holds a time t when t rounds to B
        /// or later, so each bound moves half a millisecond earlier.
        var storeCondition: OCKValueDateCondition {
            let (start, end) = (start.addingTimeInterval(-0.000_5), end.addingTimeInterval(-0.000_5))
            return switch prefix {
            case "ne": .outside(start, end)
            case "lt": .before(start)
            case "le": .before(end)
            case "gt": .notBefore(end)
            case "ge": .notBefore(start)
            default: .within(start, end)
            }
        }

        /// Whether a moment matches: within the range for `eq`, outside it for `ne`, before its start for `lt`,
        /// before its end for `le`, at or after its end for `gt`, at or after its start for `ge`.
        ///
        /// - Parameter date: The moment to test, such as an Observation's `effectiveDateTime`.
        /// - Returns: `true` when `date` satisfies the filter.
        public func matches(_ date: Date) -> Bool {
            switch prefix {
            case "ne": date < start || date >= end
            case "lt": date < start
            case "le": date < end
            case "gt": date >= end
            case "ge": date >= start
            default: date >= start && date < end
            }
        }

        static func range(_ text: String, calendar: Calendar) -> (Date, Date)? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            if !text.contains("T") {
                guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
                      let year = Int(parts[0]), (1...9999).contains(year) else { return nil }
                let month = parts.count > 1 ? Int(parts[1]) : 1, day = parts.count > 2 ? Int(parts[2]) : 1
                guard let month, let day, (1...12).contains(month), (1...31).contains(day),
                      let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
                      calendar.component(.day, from: start) == day else { return nil }
                let unit: Calendar.Component = parts.count == 1 ? .year : parts.count == 2 ? .month : .day
                guard let end = calendar.date(byAdding: unit, value: 1, to: start) else { return nil }
                return (start, end)
            }
            guard let date = FHIRInstants().date(text) else { return nil }
            return (date, date.addingTimeInterval(text.contains(".") ? 0.001 : 1))
        }
    }
}

/// Reads FHIR instants and dateTimes with their zone, with or without fractional seconds. Made once for many dates:
/// its formatters are costly to make.
public final class FHIRInstants {
    private let fractional = ISO8601DateFormatter()
    private let whole = ISO8601DateFormatter()

    /// A reader of FHIR's `instant` and `dateTime` values that carry a time and its zone.
    public init() {
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    /// The moment `text` names, or nil if it is not a date and time with its zone.
    public func date(_ text: String) -> Date? {
        fractional.date(from: text) ?? whole.date(from: text)
    }
}
