import Foundation

/// The languages OpenCareKitUI's string table covers completely.
public enum OCKLanguage: String, Sendable, Hashable, CaseIterable {
    case english = "en"
    case korean = "ko"

    /// The language's name in itself, as a language menu shows it: "English", "한국어".
    public var autonym: String {
        switch self {
        case .english: "English"
        case .korean: "한국어"
        }
    }
}

/// Strings and formats for one reader: the language of the string table, the locale that formats dates, times and
/// numbers, and the time zone the care plan's days are in.
public struct OCKLocalization: Sendable {
    public var language: OCKLanguage
    public var locale: Locale
    public var timeZone: TimeZone
    /// A Gregorian calendar in `locale` and `timeZone` (CareKit's schedules are Gregorian).
    public var calendar: Calendar

    /// - Parameters:
    ///   - locale: Defaults to the language's main region (en_US, ko_KR).
    ///   - timeZone: Defaults to the process's zone.
    public init(language: OCKLanguage = .english, locale: Locale? = nil, timeZone: TimeZone = .current) {
        self.language = language
        self.locale = locale ?? Locale(identifier: language == .english ? "en_US" : "ko_KR")
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = self.locale
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The string for `key` with its `{0}`, `{1}` … placeholders filled in.
    public func string(_ key: OCKStringKey, _ arguments: String...) -> String {
        string(key, arguments: arguments)
    }

    /// Fills the placeholders in one pass, so an argument that itself contains "{1}" stays as written.
    public func string(_ key: OCKStringKey, arguments: [String]) -> String {
        let template = Array(language.template(key))
        var text = ""
        var index = 0
        while index < template.count {
            if template[index] == "{", index + 2 < template.count, template[index + 2] == "}",
               let position = template[index + 1].wholeNumberValue, position < arguments.count {
                text += arguments[position]
                index += 3
            } else {
                text.append(template[index])
                index += 1
            }
        }
        return text
    }

    /// The `lang` attribute value for pages in this language.
    public var languageTag: String { language.rawValue }

    private var dateTime: Date.FormatStyle {
        Date.FormatStyle(locale: locale, calendar: calendar, timeZone: timeZone)
    }

    /// A time of day: "8:00 AM", "오전 8:00".
    public func time(_ date: Date) -> String {
        date.formatted(dateTime.hour().minute())
    }

    /// A day in full for assistive technology: "Monday, November 16", "11월 16일 월요일".
    public func fullDay(_ date: Date) -> String {
        date.formatted(dateTime.weekday(.wide).month(.wide).day())
    }

    /// A short date: "Nov 16", "11월 16일".
    public func shortDate(_ date: Date) -> String {
        date.formatted(dateTime.month(.abbreviated).day())
    }

    /// A weekday's abbreviation: "Mon", "월".
    public func weekdayShort(_ date: Date) -> String {
        date.formatted(dateTime.weekday(.abbreviated))
    }

    /// A weekday's one-letter form: "M", "월".
    public func weekdayNarrow(_ date: Date) -> String {
        date.formatted(dateTime.weekday(.narrow))
    }

    /// The day of the month: "16", "16일".
    public func dayOfMonth(_ date: Date) -> String {
        date.formatted(dateTime.day())
    }

    /// A month's abbreviation: "Nov", "11월".
    public func monthShort(_ date: Date) -> String {
        date.formatted(dateTime.month(.abbreviated))
    }

    /// A date with its year: "Nov 16, 2026", "2026년 11월 16일".
    public func dateWithYear(_ date: Date) -> String {
        date.formatted(dateTime.year().month(.abbreviated).day())
    }

    /// A date with its year and a time: "Nov 16, 2026 at 8:00 AM", "2026년 11월 16일 오전 8:00".
    public func dateAndTime(_ date: Date) -> String {
        date.formatted(dateTime.year().month(.abbreviated).day().hour().minute())
    }

    /// A month and year: "November 2026", "2026년 11월".
    public func monthAndYear(_ date: Date) -> String {
        date.formatted(dateTime.month(.wide).year())
    }

    /// A number with at most `fractionDigits` decimals, grouped for the locale: "1,234.5".
    public func number(_ value: Double, fractionDigits: Int = 1) -> String {
        guard value.isFinite else { return string(.noValue) }
        return value.formatted(.number.locale(locale).precision(.fractionLength(0...max(0, fractionDigits))))
    }

    /// A number with its unit, spaced as the language writes it: "72.5 kg", "72.5kg".
    public func number(_ value: Double, unit: String?, fractionDigits: Int = 1) -> String {
        let number = number(value, fractionDigits: fractionDigits)
        return unit.map { string(.valueWithUnit, number, $0) } ?? number
    }

    /// A fraction from 0 to 1 as a whole percentage: "75%".
    public func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return string(.noValue) }
        return fraction.formatted(.percent.locale(locale).precision(.fractionLength(0)))
    }
}

/// What a component needs to know to render: for now, the reader's localization.
public struct OCKRenderContext: Sendable {
    public var localization: OCKLocalization

    public init(localization: OCKLocalization = OCKLocalization()) {
        self.localization = localization
    }

    /// English in the process's time zone.
    public static var standard: OCKRenderContext { OCKRenderContext() }

    /// Shorthand for `localization.string(key, arguments…)`.
    public func string(_ key: OCKStringKey, _ arguments: String...) -> String {
        localization.string(key, arguments: arguments)
    }
}
