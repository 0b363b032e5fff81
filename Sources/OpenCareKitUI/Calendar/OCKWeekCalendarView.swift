import Foundation

/// CareKit's week calendar: seven days, each with a completion ring, the selected day marked, today marked, days
/// after today dimmed. Each day is a link (works without JavaScript) named in full: "Monday, November 16: 75%
/// complete, Today".
public struct OCKWeekCalendarView: OCKComponent {
    /// One day of the week.
    public struct Day: Sendable, Hashable {
        /// Any moment in the day.
        public var date: Date
        /// Completed share of the day's adherence-counted events; nil when there are none.
        public var completion: Double?
        /// Where selecting the day goes; nil makes it static.
        public var url: SafeURL?

        public init(date: Date, completion: Double?, url: SafeURL? = nil) {
            self.date = date
            self.completion = completion
            self.url = url
        }
    }

    public var days: [Day]
    public var selectedDate: Date
    /// The moment that counts as now, for "today" and dimming future days.
    public var now: Date
    public var identifier: String?

    public init(days: [Day], selectedDate: Date, now: Date = Date(), identifier: String? = nil) {
        self.days = days
        self.selectedDate = selectedDate
        self.now = now
        self.identifier = identifier
    }

    /// The starts of the seven days of the week containing `date`, beginning on the calendar's first weekday
    /// (Sunday in en_US, Monday in most of Europe).
    ///
    /// For example:
    /// ```swift
    /// let days = OCKWeekCalendarView.week(containing: today, calendar: localization.calendar)
    ///     .map { OCKWeekCalendarView.Day(date: $0, completion: adherence[$0], url: link(to: $0)) }
    /// ```
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
