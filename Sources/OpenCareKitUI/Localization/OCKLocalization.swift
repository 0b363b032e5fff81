import Foundation

/// The languages OpenCareKitUI's string table covers completely. The raw value is the language's tag (`en`, `ko`),
/// as `<html lang>` takes it.
public enum OCKLanguage: String, Sendable, Hashable, CaseIterable {
    /// English, with United States formats (en_US) unless a locale is given.
    case english = "en"
    /// Korean, with South Korean formats (ko_KR) unless a locale is given.
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
///
/// Components read it from their ``OCKRenderContext``; use it for text of your own too, so that dates and numbers
/// on a page agree.
///
/// For example:
/// ```swift
/// let korean = OCKLocalization(language: .korean, timeZone: TimeZone(identifier: "Asia/Seoul")!)
/// let name = korean.string(.markSubjectDone, "이부프로펜") // "이부프로펜 완료로 표시"
/// let weight = korean.number(72.5, unit: "kg")           // "72.5kg"
/// let time = korean.time(Date())                         // such as "오전 8:00"
/// ```
public struct OCKLocalization: Sendable {
    /// The language of the string table: every visible text and accessible name.
    public var language: OCKLanguage
    /// The locale that formats dates, times and numbers.
    public var locale: Locale
    /// The time zone that times are shown in and days begin in: the care plan's, which need not be the server's.
    public var timeZone: TimeZone
    /// A Gregorian calendar in `locale` and `timeZone` (CareKit's schedules are Gregorian). It is made by the
    /// initializer: changing ``locale`` or ``timeZone`` afterwards leaves it as it was, so make a new localization
    /// instead.
    public var calendar: Calendar

    /// Creates a localization.
    ///
    /// - Parameters:
    ///   - language: The language of the text; English by default.
    ///   - locale: The locale for formats; nil picks the language's main region (en_US, ko_KR).
    ///   - timeZone: The zone for times and days; the process's zone by default.
    public init(language: OCKLanguage = .english, locale: Locale? = nil, timeZone: TimeZone = .current) {
        self.language = language
        self.locale = locale ?? Locale(identifier: language == .english ? "en_US" : "ko_KR")
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = self.locale
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The string for `key` in ``language``, with its `{0}`, `{1}` … placeholders filled in from `arguments` in order.
    ///
    /// For example:
    /// ```swift
    /// let english = OCKLocalization(language: .english)
    /// let name = english.string(.markSubjectDone, "Ibuprofen 8:00 AM") // "Mark Ibuprofen 8:00 AM as done"
    /// ```
    ///
    /// - Parameters:
    ///   - key: Which string.
    ///   - arguments: The text for each placeholder; a placeholder without an argument is left as it is.
    /// - Returns: The text in the localization's language.
    public func string(_ key: OCKStringKey, _ arguments: String...) -> String {
        string(key, arguments: arguments)
    }

    /// The string for `key` with its placeholders filled in from an array. Placeholders are filled in one pass, so an
    /// argument that itself contains "{1}" stays as written; only `{0}` through `{9}` are placeholders.
    ///
    /// - Parameters:
    ///   - key: Which string.
    ///   - arguments: The text for each placeholder, in order.
    /// - Returns: The text in the localization's language.
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

    /// A number with at most `fractionDigits` decimals, grouped for the locale: "1,234.5"; "no data" in the reader's
    /// language when the value is not finite.
    public func number(_ value: Double, fractionDigits: Int = 1) -> String {
        guard value.isFinite else { return string(.noValue) }
        return value.formatted(.number.locale(locale).precision(.fractionLength(0...max(0, fractionDigits))))
    }

    /// A number with its unit, spaced as the language writes it: "72.5 kg", "72.5kg". A nil unit gives the number
    /// alone.
    public func number(_ value: Double, unit: String?, fractionDigits: Int = 1) -> String {
        let number = number(value, fractionDigits: fractionDigits)
        return unit.map { string(.valueWithUnit, number, $0) } ?? number
    }

    /// A fraction from 0 to 1 as a whole percentage: "75%"; "no data" in the reader's language when it is not finite.
    public func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return string(.noValue) }
        return fraction.formatted(.percent.locale(locale).precision(.fractionLength(0)))
    }
}

/// What a component needs to know to render: for now, the reader's localization.
///
/// Make one for each reader from their language and the care plan's time zone, and pass it to
/// ``OCKComponent/render(in:)`` or ``OCKPage/rendered(in:)``.
///
/// For example:
/// ```swift
/// let context = OCKRenderContext(localization: OCKLocalization(
///     language: .korean, timeZone: TimeZone(identifier: "Asia/Seoul")!))
/// let html = OCKCompletionRingView(fraction: 1).render(in: context).rendered // aria-label="100% 완료"
/// ```
public struct OCKRenderContext: Sendable {
    /// The reader's language, locale and time zone.
    public var localization: OCKLocalization

    /// Creates a context.
    ///
    /// - Parameter localization: The reader's strings and formats; English in the process's time zone by default.
    public init(localization: OCKLocalization = OCKLocalization()) {
        self.localization = localization
    }

    /// English in the process's time zone.
    public static var standard: OCKRenderContext { OCKRenderContext() }

    /// The string for `key` in the reader's language, with its placeholders filled in from `arguments`: shorthand
    /// for `localization.string(key, arguments…)`.
    public func string(_ key: OCKStringKey, _ arguments: String...) -> String {
        localization.string(key, arguments: arguments)
    }
}
