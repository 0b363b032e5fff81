import Foundation
import OpenCareKitStore
import OpenCareKitUI

extension OCKScheduleRule {
    /// The rule in words, in the reader's language: "Every Monday and Thursday at 8:00 AM, from Nov 24", "11월 24일부터
    /// 매주 월요일, 목요일 오전 8:00".
    public func words(_ localization: OCKLocalization) -> String {
        let korean = localization.language == .korean
        var parts: [String] = []
        parts.append(repetitionWords(localization))
        if isAllDay {
            parts.append(korean ? "하루 종일" : "all day")
        } else {
            let list = times.sorted().map { time in
                let text = timeWords(time, localization)
                guard let label = time.label, !label.isEmpty else { return text }
                return "\(text) (\(label))"
            }
            parts.append(korean ? Self.list(list, korean: true) : "at " + Self.list(list, korean: false))
            if durationMinutes != 60 { parts.append(Self.duration(durationMinutes, korean: korean)) }
        }
        let from = start.start(in: calendar).map(localization.shortDate) ?? ""
        let until = end.flatMap { $0.start(in: calendar) }.map(localization.shortDate)
        let targetText = targets.map { localization.number($0.value, unit: $0.units, fractionDigits: 2) }
        if korean {
            var text = "\(from)부터 " + (until.map { "\($0)까지 " } ?? "") + parts.joined(separator: " ")
            if !targetText.isEmpty { text += " · 목표 " + targetText.joined(separator: ", ") }
            return text
        }
        var text = parts.joined(separator: " ") + ", from \(from)" + (until.map { " until \($0)" } ?? "")
        if !targetText.isEmpty { text += "; target " + targetText.joined(separator: ", ") }
        return text
    }

    /// "Every day", "Every 2 weeks on Monday and Thursday", "매일", "2주마다 월요일, 목요일".
    public func repetitionWords(_ localization: OCKLocalization) -> String {
        let korean = localization.language == .korean
        switch repetition {
        case let .days(count):
            if count == 1 { return korean ? "매일" : "Every day" }
            return korean ? "\(count)일마다" : "Every \(count) days"
        case let .weeks(count, weekdays):
            let names = Self.list(Self.ordered(weekdays, firstWeekday: 2).map { Self.weekdayName($0, localization) }, korean: korean)
            if count == 1 { return korean ? "매주 \(names)" : "Every \(names)" }
            return korean ? "\(count)주마다 \(names)" : "Every \(count) weeks on \(names)"
        }
    }

    /// A time of day as the Care page writes it: "8:00 AM", "오전 8:00".
    public func timeWords(_ time: Time, _ localization: OCKLocalization) -> String {
        var clock = Calendar(identifier: .gregorian)
        clock.timeZone = localization.timeZone
        let date = clock.date(from: DateComponents(year: 2001, month: 1, day: 1, hour: time.hour, minute: time.minute)) ?? Date()
        return localization.time(date)
    }

    /// The weekday's name: "Monday", "월요일".
    public static func weekdayName(_ weekday: Int, _ localization: OCKLocalization) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = localization.locale
        let symbols = calendar.weekdaySymbols
        return symbols.indices.contains(weekday - 1) ? symbols[weekday - 1] : String(weekday)
    }

    /// Weekdays from `firstWeekday` on (Monday first, as schedules are read).
    static func ordered(_ weekdays: Set<Int>, firstWeekday: Int) -> [Int] {
        weekdays.sorted { ($0 - firstWeekday + 7) % 7 < ($1 - firstWeekday + 7) % 7 }
    }

    /// "A", "A and B", "A, B and C"; in Korean "A, B, C".
    static func list(_ items: [String], korean: Bool) -> String {
        if korean || items.count < 2 { return items.joined(separator: ", ") }
        return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    }

    /// "for 30 minutes", "for 1 hour 30 minutes", "(30분 동안)".
    static func duration(_ minutes: Int, korean: Bool) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if korean {
            let text = [hours > 0 ? "\(hours)시간" : nil, rest > 0 ? "\(rest)분" : nil].compactMap { $0 }.joined(separator: " ")
            return "(\(text) 동안)"
        }
        let text = [hours > 0 ? "\(hours) hour\(hours == 1 ? "" : "s")" : nil, rest > 0 ? "\(rest) minute\(rest == 1 ? "" : "s")" : nil]
            .compactMap { $0 }.joined(separator: " ")
        return "for \(text)"
    }
}
