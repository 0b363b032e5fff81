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
    public struct DateFilter: Sendable, Equatable {
        public var prefix: String
        public var start: Date
        public var end: Date

        public init?(_ text: String, calendar: Calendar) {
            let prefixes = ["eq", "ne", "lt", "le", "gt", "ge"]
            let prefix = prefixes.first { text.hasPrefix($0) } ?? "eq"
            let value = prefixes.contains(String(text.prefix(2))) ? String(text.dropFirst(2)) : text
            guard let (start, end) = Self.range(value, calendar: calendar) else { return nil }
            (self.prefix, self.start, self.end) = (prefix, start, end)
        }

        /// Whether a moment matches.
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

    public init() {
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    /// The moment `text` names, or nil if it is not a date and time with its zone.
    public func date(_ text: String) -> Date? {
        fractional.date(from: text) ?? whole.date(from: text)
    }
}
