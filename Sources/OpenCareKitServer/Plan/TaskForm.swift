import Foundation
import OpenCareKit
import OpenCareKitStore

/// The task editor's form: what the person typed, field by field (so a refused form comes back as they left it), and
/// its reading into a task and a schedule rule, with each problem named beside its field.
struct TaskForm: Sendable {
    struct TimeRow: Sendable, Equatable { var time = "", label = "" }
    struct TargetRow: Sendable, Equatable { var value = "", units = "", kind = "" }
    /// A problem of one field: the field's id in the form, and what to say.
    struct Problem: Sendable, Equatable {
        var field: String
        var text: EditorText
        var argument: String?
    }

    var id = "", title = "", instructions = "", style = "", survey = "", counts = true, group = "", tags = ""
    var repeats = "days", every = "1", weekdays: Set<Int> = [], timing = "times"
    var times: [TimeRow] = [], duration = "60", allDayLabel = "", start = "", end = ""
    var targets: [TargetRow] = []
    /// The alert rules the form shows, one of each kind (`OCKAlertRule`); a task's other rules are kept as they are.
    var alerts = AlertRows()
    /// The stored schedule, kept as it is (no rule expresses it).
    var keepsSchedule = false
    /// The stored schedule (which no rule expresses, or which ended) is being replaced by the builder's.
    var replacesSchedule = false
    /// The version the form was read from; empty for a new task.
    var version = ""
    var effective = "next", effectiveDate = ""
    /// Which button sent the form: `save`, `preview`, `add-time`, `add-target` or `replace-schedule`.
    var intent = "save"

    static let maximumTitle = 200, maximumInstructions = 2_000, maximumShort = 100

    /// The form of a new task starting on `today`.
    init(today: String) {
        start = today
        times = [TimeRow(time: "08:00")]
    }

    /// The form of a stored task.
    init(task: OCKTask, style: String, survey: String, calendar: Calendar) {
        id = task.id
        title = task.title ?? ""
        instructions = task.instructions ?? ""
        self.style = style
        self.survey = survey
        counts = task.impactsAdherence
        group = task.groupIdentifier ?? ""
        tags = (task.tags ?? []).joined(separator: ", ")
        version = task.uuid.uuidString
        guard let rule = OCKScheduleRule(schedule: task.schedule) else {
            keepsSchedule = true
            return
        }
        switch rule.repetition {
        case let .days(count): repeats = "days"; every = String(count)
        case let .weeks(count, days): repeats = "weeks"; every = String(count); weekdays = days
        }
        timing = rule.isAllDay ? "allDay" : "times"
        times = rule.times.map { TimeRow(time: $0.clock, label: $0.label ?? "") }
        duration = String(rule.durationMinutes)
        allDayLabel = rule.allDayLabel ?? ""
        let dayText = { (day: OCKScheduleRule.Day) in day.start(in: calendar).map { CareServer.dayString($0, calendar: calendar) } ?? "" }
        start = dayText(rule.start)
        end = rule.end.map(dayText) ?? ""
        targets = rule.targets.map { TargetRow(value: Self.number($0.value), units: $0.units ?? "", kind: $0.kind ?? "") }
    }

    /// The form of a stored task, with its alert rules.
    init(task: OCKTask, style: String, survey: String, calendar: Calendar, alerts rules: [OCKAlertRule]) {
        self.init(task: task, style: style, survey: survey, calendar: calendar)
        alerts = AlertRows(rules)
    }

    /// The form as submitted.
    init(_ fields: FormFields) {
        func text(_ name: String) -> String { fields.values[name] ?? "" }
        id = text("task-id").trimmingCharacters(in: .whitespaces)
        title = text("title")
        instructions = text("instructions")
        style = text("style")
        survey = text("survey")
        counts = fields.values["counts"] == "true"
        group = text("group")
        tags = text("tags")
        repeats = text("repeat") == "weeks" ? "weeks" : "days"
        every = text("every")
        weekdays = Set((fields.all["weekday"] ?? []).prefix(7).compactMap { Int($0) })
        timing = text("timing") == "allDay" ? "allDay" : "times"
        // One more than the limit, so that too many is said rather than cut.
        let timeValues = (fields.all["time"] ?? []).prefix(OCKScheduleRule.maximumTimes + 1)
        let labels = fields.all["time-label"] ?? []
        times = timeValues.enumerated().map { TimeRow(time: $1, label: labels.indices.contains($0) ? labels[$0] : "") }
        duration = text("duration")
        allDayLabel = text("all-day-label")
        start = text("start")
        end = text("end")
        let values = (fields.all["target-value"] ?? []).prefix(OCKScheduleRule.maximumTargets + 1)
        let units = fields.all["target-units"] ?? [], kinds = fields.all["target-kind"] ?? []
        targets = values.enumerated().map {
            TargetRow(value: $1, units: units.indices.contains($0) ? units[$0] : "", kind: kinds.indices.contains($0) ? kinds[$0] : "")
        }
        keepsSchedule = fields.values["keep-schedule"] == "true"
        replacesSchedule = fields.values["replace-schedule"] == "true" || text("intent") == "replace-schedule"
        version = text("version")
        effective = text("effective") == "date" ? "date" : "next"
        effectiveDate = text("effective-date")
        intent = text("intent").isEmpty ? "save" : text("intent")
        alerts = AlertRows(fields)
    }

    /// The rows the form shows: what was typed, with blank rows to add to (one more on request).
    var shownTimes: [TimeRow] {
        let filled = times.filter { !$0.time.isEmpty || !$0.label.isEmpty }
        let extra = intent == "add-time" ? 2 : 1
        return Array((filled + Array(repeating: TimeRow(), count: extra)).prefix(OCKScheduleRule.maximumTimes))
    }

    var shownTargets: [TargetRow] {
        let filled = targets.filter { !$0.value.isEmpty || !$0.units.isEmpty }
        let extra = intent == "add-target" ? 2 : 1
        return Array((filled + Array(repeating: TargetRow(), count: extra)).prefix(OCKScheduleRule.maximumTargets))
    }

    /// The task fields read from the form (not the schedule).
    struct Fields: Sendable {
        var id: String, title: String, instructions: String?, style: String?, survey: String?, counts: Bool
        var group: String?, tags: [String]?
    }

    /// Reads the task's fields, adding each problem to `problems`. `isNew` checks the identifier.
    func fields(isNew: Bool, problems: inout [Problem]) -> Fields {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty { problems.append(Problem(field: "title", text: .titleRequired)) }
        if title.count > Self.maximumTitle { problems.append(Problem(field: "title", text: .tooLong, argument: String(Self.maximumTitle))) }
        if instructions.count > Self.maximumInstructions {
            problems.append(Problem(field: "instructions", text: .tooLong, argument: String(Self.maximumInstructions)))
        }
        for (field, value) in [("group", group), ("tags", tags)] where value.count > Self.maximumShort {
            problems.append(Problem(field: field, text: .tooLong, argument: String(Self.maximumShort)))
        }
        var id = self.id
        if isNew {
            if id.isEmpty { id = Self.identifier(from: title) }
            if !Self.isIdentifier(id) { problems.append(Problem(field: "task-id", text: .idInvalid)) }
        }
        let tagList = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let instructions = instructions.trimmingCharacters(in: .whitespacesAndNewlines)
        let group = group.trimmingCharacters(in: .whitespaces)
        return Fields(id: id, title: title, instructions: instructions.isEmpty ? nil : instructions, style: style.isEmpty ? nil : style,
                      survey: survey.isEmpty ? nil : survey, counts: counts, group: group.isEmpty ? nil : group,
                      tags: tagList.isEmpty ? nil : tagList)
    }

    /// The schedule rule of the form in `calendar`, adding each problem to `problems`; nil when it has any.
    func rule(calendar: Calendar, problems: inout [Problem]) -> OCKScheduleRule? {
        let before = problems.count
        guard let startDay = Self.day(start, calendar: calendar) else {
            problems.append(Problem(field: "start", text: .dateInvalid))
            return nil
        }
        var rule = OCKScheduleRule(start: startDay, timeZone: calendar.timeZone)
        rule.calendar = calendar
        let limit = repeats == "weeks" ? OCKScheduleRule.maximumWeeks : OCKScheduleRule.maximumDays
        guard let count = Int(every.trimmingCharacters(in: .whitespaces)), (1...limit).contains(count) else {
            problems.append(Problem(field: "every", text: .intervalInvalid))
            return nil
        }
        if repeats == "weeks" {
            if weekdays.isEmpty || !weekdays.isSubset(of: 1...7) { problems.append(Problem(field: "weekdays", text: .noWeekdays)) }
            rule.repetition = .weeks(count, weekdays: weekdays)
        } else {
            rule.repetition = .days(count)
        }
        if timing == "allDay" {
            rule.allDayLabel = Self.optional(allDayLabel)
            if allDayLabel.count > Self.maximumShort { problems.append(Problem(field: "all-day-label", text: .tooLong, argument: String(Self.maximumShort))) }
        } else {
            let filled = times.filter { !$0.time.isEmpty || !$0.label.isEmpty }
            if filled.count > OCKScheduleRule.maximumTimes {
                problems.append(Problem(field: "times", text: .tooManyTimes))
            } else if filled.isEmpty {
                problems.append(Problem(field: "times", text: .noTimes))
            } else {
                var parsed: [OCKScheduleRule.Time] = []
                for row in filled {
                    guard let (hour, minute) = Self.clock(row.time) else {
                        problems.append(Problem(field: "times", text: .timeInvalid))
                        break
                    }
                    if row.label.count > Self.maximumShort { problems.append(Problem(field: "times", text: .tooLong, argument: String(Self.maximumShort))) }
                    parsed.append(OCKScheduleRule.Time(hour: hour, minute: minute, label: Self.optional(row.label)))
                }
                if Set(parsed.map { $0.hour * 60 + $0.minute }).count != parsed.count {
                    problems.append(Problem(field: "times", text: .repeatedTime))
                }
                rule.times = parsed
            }
            if let minutes = Int(duration.trimmingCharacters(in: .whitespaces)), (1...OCKScheduleRule.maximumDurationMinutes).contains(minutes) {
                rule.durationMinutes = minutes
            } else {
                problems.append(Problem(field: "duration", text: .durationInvalid))
            }
        }
        if !end.isEmpty {
            if let endDay = Self.day(end, calendar: calendar) {
                rule.end = endDay
                if endDay < startDay { problems.append(Problem(field: "end", text: .endBeforeStart)) }
            } else {
                problems.append(Problem(field: "end", text: .dateInvalid))
            }
        }
        let filledTargets = targets.filter { !$0.value.isEmpty || !$0.units.isEmpty }
        if filledTargets.count > OCKScheduleRule.maximumTargets { problems.append(Problem(field: "targets", text: .tooManyTargets)) }
        for row in filledTargets.prefix(OCKScheduleRule.maximumTargets) {
            let text = row.value.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
            guard FormFields.isDecimal(text), let value = Double(text), value.isFinite, abs(value) < 1e12 else {
                problems.append(Problem(field: "targets", text: .targetNotNumber))
                break
            }
            if row.units.count > 20 { problems.append(Problem(field: "targets", text: .tooLong, argument: "20")) }
            rule.targets.append(OCKScheduleRule.Target(value: value, units: Self.optional(row.units), kind: row.kind == "dose" ? "dose" : nil))
        }
        guard problems.count == before else { return nil }
        if let problem = rule.problems.first {
            let text = Self.words(problem)
            let field = problem.field == "interval" ? "every" : problem.field
            problems.append(Problem(field: field, text: text, argument: text == .tooLong ? String(OCKScheduleRule.maximumLabelLength) : nil))
            return nil
        }
        return rule
    }

    /// What to say about a rule's problem.
    static func words(_ problem: OCKScheduleRule.Problem) -> EditorText {
        switch problem {
        case .timeOutOfRange: .timeInvalid
        case .tooManyTimes: .tooManyTimes
        case .repeatedTime: .repeatedTime
        case .labelTooLong: .tooLong
        case .intervalOutOfRange: .intervalInvalid
        case .noWeekdays: .noWeekdays
        case .durationOutOfRange: .durationInvalid
        case .startDoesNotExist, .endDoesNotExist: .dateInvalid
        case .endBeforeStart: .endBeforeStart
        case .noEventsBeforeEnd: .noEventsBeforeEnd
        case .tooManyTargets: .tooManyTargets
        case .targetNotFinite: .targetNotNumber
        }
    }

    // MARK: Alerts

    /// The alert rules as typed: one row of each kind, each with the id of the stored rule it shows (so that an edit
    /// keeps the rule, and the triage items it raised, the same).
    struct AlertRows: Sendable, Equatable {
        var missedID = "", missedDays = "", missedOf = "", missedUrgent = false
        var valueID = "", valueKind = "", atLeast = "", atMost = "", valueUrgent = false
        var changeID = "", changeKind = "", changeBy = "", changeWithin = "", changeUrgent = false
        var quietID = "", quietDays = "", quietUrgent = false

        init() {}

        /// The first rule of each kind of `rules`.
        init(_ rules: [OCKAlertRule]) {
            for rule in rules {
                let urgent = rule.priority == .urgent
                switch rule.condition {
                case let .missedDoses(days, ofDays) where missedID.isEmpty:
                    (missedID, missedDays, missedOf, missedUrgent) = (rule.id, String(days), String(ofDays), urgent)
                case let .value(kind, least, most) where valueID.isEmpty:
                    (valueID, valueKind, atLeast, atMost, valueUrgent) = (rule.id, kind ?? "", least.map(TaskForm.number) ?? "",
                                                                          most.map(TaskForm.number) ?? "", urgent)
                case let .change(kind, by, within) where changeID.isEmpty:
                    (changeID, changeKind, changeBy, changeWithin, changeUrgent) = (rule.id, kind ?? "", TaskForm.number(by), String(within), urgent)
                case let .noActivity(days) where quietID.isEmpty:
                    (quietID, quietDays, quietUrgent) = (rule.id, String(days), urgent)
                default: break
                }
            }
        }

        init(_ fields: FormFields) {
            func text(_ name: String) -> String { (fields.values[name] ?? "").trimmingCharacters(in: .whitespaces) }
            func flag(_ name: String) -> Bool { fields.values[name] == "true" }
            (missedID, missedDays, missedOf, missedUrgent) = (text("alert-missed-id"), text("alert-missed-days"), text("alert-missed-of"),
                                                              flag("alert-missed-urgent"))
            (valueID, valueKind, atLeast, atMost, valueUrgent) = (text("alert-value-id"), text("alert-value-kind"), text("alert-at-least"),
                                                                  text("alert-at-most"), flag("alert-value-urgent"))
            (changeID, changeKind, changeBy, changeWithin, changeUrgent) = (text("alert-change-id"), text("alert-change-kind"),
                                                                            text("alert-change-by"), text("alert-change-within"),
                                                                            flag("alert-change-urgent"))
            (quietID, quietDays, quietUrgent) = (text("alert-quiet-id"), text("alert-quiet-days"), flag("alert-quiet-urgent"))
        }

        /// The ids of the rules the rows stand for (a stored rule not among them is kept as it is).
        var shownIDs: Set<String> { Set([missedID, valueID, changeID, quietID].filter { !$0.isEmpty }) }

        /// The rules the rows describe, adding a problem for each row filled in part or out of range.
        func rules(problems: inout [Problem]) -> [OCKAlertRule] {
            var rules: [OCKAlertRule] = []
            func number(_ text: String) -> Double? {
                let text = text.replacingOccurrences(of: ",", with: ".")
                guard FormFields.isDecimal(text), let value = Double(text), value.isFinite, abs(value) < 1e9 else { return nil }
                return value
            }
            func add(_ field: String, _ id: String, _ fallback: String, _ urgent: Bool, _ condition: OCKAlertRule.Condition?, range: String) {
                let rule = condition.map { OCKAlertRule(id: id.isEmpty ? fallback : id, condition: $0, priority: urgent ? .urgent : .routine) }
                guard let rule, rule.problem == nil else {
                    problems.append(Problem(field: field, text: .alertInvalid, argument: range))
                    return
                }
                rules.append(rule)
            }
            let window = "1–\(OCKAlertRule.maximumWindowDays)"
            if !missedDays.isEmpty || !missedOf.isEmpty {
                add("alert-missed", missedID, "missed-doses", missedUrgent, Int(missedDays).flatMap { days in
                    Int(missedOf).map { OCKAlertRule.Condition.missedDoses(days: days, ofDays: $0) }
                }, range: window)
            }
            if !valueKind.isEmpty || !atLeast.isEmpty || !atMost.isEmpty {
                let least = atLeast.isEmpty ? nil : number(atLeast), most = atMost.isEmpty ? nil : number(atMost)
                let readable = (atLeast.isEmpty || least != nil) && (atMost.isEmpty || most != nil) && valueKind.count <= OCKAlertRule.maximumKindLength
                add("alert-value", valueID, "value", valueUrgent,
                    readable ? .value(kind: valueKind.isEmpty ? nil : valueKind, atLeast: least, atMost: most) : nil,
                    range: "−10⁹–10⁹")
            }
            if !changeKind.isEmpty || !changeBy.isEmpty || !changeWithin.isEmpty {
                add("alert-change", changeID, "change", changeUrgent, number(changeBy).flatMap { by in
                    Int(changeWithin).map { .change(kind: changeKind.isEmpty ? nil : changeKind, by: by, withinDays: $0) }
                }, range: window)
            }
            if !quietDays.isEmpty {
                add("alert-quiet", quietID, "no-activity", quietUrgent, Int(quietDays).map { .noActivity(days: $0) },
                    range: "1–\(OCKAlertRule.maximumQuietDays)")
            }
            // Two rows may not share an id (a stored rule's id taken by a new row's default).
            var seen = Set<String>()
            return rules.map { rule in
                var rule = rule
                while !seen.insert(rule.id).inserted { rule.id += "-2" }
                return rule
            }
        }
    }

    // MARK: Text

    static func optional(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `HH:MM` → hour and minute.
    static func clock(_ text: String) -> (Int, Int)? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count <= 2, parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute),
              parts.count == 2 || parts[2] == "00" else { return nil }
        return (hour, minute)
    }

    static func clock(_ hour: Int, _ minute: Int) -> String {
        OCKScheduleRule.Time(hour: hour, minute: minute).clock
    }

    /// `YYYY-MM-DD` → a day that exists in `calendar`.
    static func day(_ text: String, calendar: Calendar) -> OCKScheduleRule.Day? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1900...4000).contains(year) else { return nil }
        let result = OCKScheduleRule.Day(year: year, month: month, day: day)
        return result.start(in: calendar) == nil ? nil : result
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A task identifier made from a title: lowercase letters and digits, words joined by dashes.
    static func identifier(from title: String) -> String {
        var result = ""
        for scalar in title.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty, !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        let made = String(result.prefix(64))
        return made.isEmpty || reservedIdentifiers.contains(made) ? "task-" + String(UUID().uuidString.prefix(8)).lowercased() : made
    }

    /// A valid id that is not a word of the editor's own addresses (`/plan/tasks/new`, `/plan/contacts/new`).
    static func isIdentifier(_ text: String) -> Bool {
        OCKCarePlanTemplate.isIdentifier(text) && !reservedIdentifiers.contains(text)
    }

    static let reservedIdentifiers: Set<String> = ["new"]
}
