import Foundation

/// CareKit's week calendar: seven days, each with a completion ring, the selected day marked, today marked, days
/// after today dimmed. Each day is a link (works without JavaScript) named in full: "Monday, November 16: 75%
/// complete, Today".
///
/// It renders a `<nav>` named "Week" around an ordered list of the days in the order given. The selected day has
/// `aria-current="date"`; a day without a ``Day/url`` is a static image with the same name.
///
/// For example:
/// ```swift
/// let localization = OCKLocalization(language: .english)
/// let today = Date()
/// let days = OCKWeekCalendarView.week(containing: today, calendar: localization.calendar).map { day in
///     OCKWeekCalendarView.Day(date: day, completion: day <= today ? 0.5 : nil,
///                             url: SafeURL("/care?day=\(Int(day.timeIntervalSince1970))"))
/// }
/// let week = OCKWeekCalendarView(days: days, selectedDate: today)
/// let html = week.render(in: OCKRenderContext(localization: localization)).rendered
/// ```
public struct OCKWeekCalendarView: OCKComponent {
    /// One day of the week: its date, how much of it is done, and where choosing it goes.
    public struct Day: Sendable, Hashable {
        /// Any moment in the day.
        public var date: Date
        /// The completed share of the day's adherence-counted events, from 0 to 1; nil when there are none.
        public var completion: Double?
        /// Where selecting the day goes; nil makes it static (an image with the same accessible name).
        public var url: SafeURL?

        /// Creates a day.
        ///
        /// - Parameters:
        ///   - date: Any moment in the day.
        ///   - completion: The share done, from 0 to 1, or nil when the day has nothing to do.
        ///   - url: Where selecting the day goes, or nil.
        public init(date: Date, completion: Double?, url: SafeURL? = nil) {
            self.date = date
            self.completion = completion
            self.url = url
        }
    }

    /// The days shown, in order: usually the seven from ``week(containing:calendar:)``.
    public var days: [Day]
    /// Any moment in the day shown as selected.
    public var selectedDate: Date
    /// The moment that counts as now, for marking today and dimming the days after it.
    public var now: Date
    /// The `id` of the `<nav>` element, or nil.
    public var identifier: String?

    /// Creates a week calendar.
    ///
    /// - Parameters:
    ///   - days: The days shown, in order.
    ///   - selectedDate: Any moment in the selected day.
    ///   - now: The moment that counts as now; the time of the call by default.
    ///   - identifier: The `id` of the `<nav>` element, or nil.
    public init(days: [Day], selectedDate: Date, now: Date = Date(), identifier: String? = nil) {
        self.days = days
        self.selectedDate = selectedDate
        self.now = now
        self.identifier = identifier
    }

    /// The starts of the seven days of the week containing `date`, beginning on the calendar's first weekday
    /// (Sunday in en_US and ko_KR, Monday in most of Europe).
    ///
    /// For example:
    /// ```swift
    /// let days = OCKWeekCalendarView.week(containing: today, calendar: localization.calendar)
    ///     .map { OCKWeekCalendarView.Day(date: $0, completion: adherence[$0], url: link(to: $0)) }
    /// ```
    ///
    /// - Parameters:
    ///   - date: Any moment in the week.
    ///   - calendar: The calendar whose first weekday and time zone define the week, such as
    ///     ``OCKLocalization/calendar``.
    /// - Returns: Seven dates, or none if the calendar cannot place `date` in a week.
    public static func week(containing date: Date, calendar: Calendar) -> [Date] {
        guard let start = calendar.dateInterval(of: .weekOfYear, for: date)?.start else { return [] }
        return (0..<7).compactMap { calendar.date(byAdding: .day, value: $0, to: start) }
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let calendar = context.localization.calendar
        let l10n = context.localization
        let items = days.map { day -> HTML in
            let isToday = calendar.isDate(day.date, inSameDayAs: now)
            let isSelected = calendar.isDate(day.date, inSameDayAs: selectedDate)
            let isFuture = !isToday && day.date > now
            var label = day.completion.map { context.string(.dayCompletion, l10n.fullDay(day.date), l10n.percent($0)) }
                ?? context.string(.dayNoTasks, l10n.fullDay(day.date))
            if isToday { label = context.string(.dayIsToday, label) }
            let classes = ["ock-day", isToday ? "ock-today" : nil, isSelected ? "ock-selected" : nil,
                           isFuture ? "ock-future" : nil].compactMap { $0 }.joined(separator: " ")
            let content: [HTML] = [
                .element("span", ["class": "ock-day-weekday", "aria-hidden": "true"], [.text(l10n.weekdayNarrow(day.date))]),
                OCKCompletionRingView(fraction: day.completion, isLabelled: false).render(in: context),
                .element("span", ["class": "ock-day-number", "aria-hidden": "true"], [.text(l10n.dayOfMonth(day.date))]),
            ]
            var attributes = ["class": classes, "aria-label": label]
            // The ring's value for scripts and tests: the fraction completed, or empty on a day without tasks.
            attributes["data-completion"] = day.completion.map { String(format: "%.4f", min(max($0, 0), 1)) } ?? ""
            if isSelected { attributes["aria-current"] = "date" }
            let cell: HTML = if let url = day.url {
                .element("a", attributes.merging(["href": url.description]) { $1 }, content)
            } else {
                .element("span", attributes.merging(["role": "img"]) { $1 }, content)
            }
            return .element("li", [:], [cell])
        }
        var attributes = ["class": "ock-week-calendar", "aria-label": context.string(.weekCalendar)]
        if let identifier { attributes["id"] = identifier }
        return .element("nav", attributes, [.element("ol", [:], items)])
    }
}
