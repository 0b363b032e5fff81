import Foundation
import OpenCareKitStore

extension OCKCarePlanTemplate {
    /// Something wrong with a template: where (a path such as `tasks[1].schedule.every`, empty for the whole
    /// document) and what.
    public struct Problem: Hashable, Sendable {
        /// Where the problem is: `tasks[1].schedule.every`, `contacts[0].id`; empty for the whole document.
        public var path: String
        /// What is wrong.
        public var kind: Kind

        /// What is wrong with a template, at a problem's path.
        public enum Kind: Hashable, Sendable {
            /// The document is not JSON.
            case notJSON
            /// The document is larger than the limit, in bytes (``OCKCarePlanTemplate/maximumBytes``).
            case tooLarge(Int)
            /// A field the format does not have.
            case unknownField
            /// A required field is absent or null.
            case missingField
            /// A value of the wrong JSON type, such as text for a number or a fraction for a whole number.
            case wrongType
            /// `$schema` or `formatVersion` is not one this version reads.
            case unsupportedFormat
            /// 1 to 64 letters, digits, dots, dashes or underscores.
            case idInvalid
            /// Another task (or contact) of the template has the same id.
            case idRepeated
            /// A title, tag or contact name is missing or blank.
            case textRequired
            /// Text longer than the limit, in Unicode scalars.
            case tooLong(Int)
            /// More items than the limit: tasks, contacts, tags, weekdays, times or targets (or, when a template is
            /// applied, more tasks or contacts than the plan has room for).
            case tooMany(Int)
            /// A day offset or count outside its range.
            case outOfRange
            /// A value not among the allowed ones (card, survey, kind, category, repeat).
            case notAllowed
            /// A schedule the rule cannot make, such as a time that repeats or an interval out of range.
            case schedule(OCKScheduleRule.Problem)
            /// The id is used by a task or contact of the record the template is applied to.
            case idInUse
        }

        /// A problem at `path`.
        ///
        /// - Parameters:
        ///   - path: Where it is; empty for the whole document.
        ///   - kind: What is wrong.
        public init(path: String, kind: Kind) { (self.path, self.kind) = (path, kind) }
    }

    /// Every problem of a template that cannot be read or applied.
    public struct Problems: Error, Hashable, Sendable {
        /// The problems, in document order.
        public var all: [Problem]
        /// The error of these problems.
        public init(_ all: [Problem]) { self.all = all }
    }

    /// The problems of a template read without error, in document order: its rules and limits (the JSON Schema's too).
    public var problems: [Problem] {
        var problems: [Problem] = []
        func add(_ path: String, _ kind: Problem.Kind) { problems.append(Problem(path: path, kind: kind)) }
        func text(_ path: String, _ value: String?, limit: Int, required: Bool = false) {
            guard let value else { if required { add(path, .textRequired) }; return }
            if required, value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { add(path, .textRequired) }
            // Counted in Unicode code points, as the JSON Schema's maxLength counts.
            if value.unicodeScalars.count > limit { add(path, .tooLong(limit)) }
        }
        if schema != Self.schemaURI || formatVersion != Self.formatVersion { add(schema != Self.schemaURI ? "$schema" : "formatVersion", .unsupportedFormat) }
        if !Self.isIdentifier(id) { add("id", .idInvalid) }
        text("title", title, limit: Self.maximumTitle, required: true)
        text("summary", summary, limit: Self.maximumText)
        if tasks.count > Self.maximumTasks { add("tasks", .tooMany(Self.maximumTasks)) }
        if contacts.count > Self.maximumContacts { add("contacts", .tooMany(Self.maximumContacts)) }
        var taskIDs: Set<String> = []
        for (index, task) in tasks.prefix(Self.maximumTasks).enumerated() {
            let path = "tasks[\(index)]"
            if !Self.isIdentifier(task.id) { add(path + ".id", .idInvalid) } else if !taskIDs.insert(task.id).inserted { add(path + ".id", .idRepeated) }
            text(path + ".title", task.title, limit: Self.maximumTitle, required: true)
            text(path + ".instructions", task.instructions, limit: Self.maximumText)
            text(path + ".group", task.group, limit: Self.maximumShort)
            if let card = task.card, OCKDailyTasksPage.CardStyle(rawValue: card) == nil || card == OCKDailyTasksPage.CardStyle.survey.rawValue {
                add(path + ".card", .notAllowed)
            }
            text(path + ".survey", task.survey, limit: 64)
            if let tags = task.tags {
                if tags.count > 20 { add(path + ".tags", .tooMany(20)) }
                for (tagIndex, tag) in tags.enumerated() { text(path + ".tags[\(tagIndex)]", tag, limit: Self.maximumShort, required: true) }
            }
            problems += scheduleProblems(task.schedule, path: path + ".schedule")
        }
        var contactIDs: Set<String> = []
        for (index, contact) in contacts.prefix(Self.maximumContacts).enumerated() {
            let path = "contacts[\(index)]"
            if !Self.isIdentifier(contact.id) { add(path + ".id", .idInvalid) } else if !contactIDs.insert(contact.id).inserted { add(path + ".id", .idRepeated) }
            if (contact.givenName ?? "").isEmpty, (contact.familyName ?? "").isEmpty { add(path + ".givenName", .textRequired) }
            for (field, value) in [("givenName", contact.givenName), ("familyName", contact.familyName), ("role", contact.role),
                                   ("title", contact.title), ("phone", contact.phone), ("messaging", contact.messaging),
                                   ("email", contact.email), ("address.street", contact.address?.street), ("address.city", contact.address?.city),
                                   ("address.state", contact.address?.state), ("address.postalCode", contact.address?.postalCode),
                                   ("address.country", contact.address?.country)] {
                text(path + "." + field, value, limit: field == "address.street" ? 200 : field == "email" ? 254 : Self.maximumShort)
            }
            if let category = contact.category, OCKContactCategory(rawValue: category) == nil { add(path + ".category", .notAllowed) }
        }
        return problems
    }

    func scheduleProblems(_ schedule: Schedule, path: String) -> [Problem] {
        var problems: [Problem] = []
        func add(_ field: String, _ kind: Problem.Kind) { problems.append(Problem(path: path + "." + field, kind: kind)) }
        if !["days", "weeks"].contains(schedule.repeat) { add("repeat", .notAllowed) }
        if !(0...Self.maximumStartDay).contains(schedule.startDay) { add("startDay", .outOfRange) }
        if let lastDay = schedule.lastDay, !(0...Self.maximumLastDay).contains(lastDay) { add("lastDay", .outOfRange) }
        if let minutes = schedule.durationMinutes, !(1...OCKScheduleRule.maximumDurationMinutes).contains(minutes) {
            add("durationMinutes", .schedule(.durationOutOfRange))
        }
        if let weekdays = schedule.weekdays, Set(weekdays).count != weekdays.count || !Set(weekdays).isSubset(of: 1...7) {
            add("weekdays", .notAllowed)
        }
        for (index, label) in ((schedule.times ?? []).map(\.label) + [schedule.allDayLabel]).enumerated() {
            if let label, label.unicodeScalars.count > OCKScheduleRule.maximumLabelLength {
                add(index < (schedule.times ?? []).count ? "times[\(index)].label" : "allDayLabel", .tooLong(OCKScheduleRule.maximumLabelLength))
            }
        }
        for (index, target) in (schedule.targets ?? []).enumerated() {
            if target.kind.map({ $0 != "dose" }) == true { add("targets[\(index)].kind", .notAllowed) }
            if let units = target.units, units.count > Self.maximumShort { add("targets[\(index)].units", .tooLong(Self.maximumShort)) }
        }
        if let times = schedule.times {
            for (index, time) in times.enumerated() where Self.clock(time.time) == nil {
                add("times[\(index)].time", .schedule(.timeOutOfRange))
            }
        }
        guard problems.isEmpty else { return problems }
        // The rest are the rule's own, checked on a reference day (a Monday) in UTC.
        let calendar = Self.referenceCalendar
        guard let rule = try? rule(schedule, start: Self.referenceDay, calendar: calendar) else { return problems }
        for problem in rule.problems where problem != .noEventsBeforeEnd {
            let field = switch problem.field {
            case "interval": "every"
            case "start": "startDay"
            case "end": "lastDay"
            case "duration": "durationMinutes"
            default: problem.field
            }
            add(field, .schedule(problem))
        }
        return problems
    }

    static let referenceDay = OCKScheduleRule.Day(year: 2026, month: 1, day: 5)
    static var referenceCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// The rule of `schedule` applied from `start`, in `calendar`.
    func rule(_ schedule: Schedule, start: OCKScheduleRule.Day, calendar: Calendar) throws(Problems) -> OCKScheduleRule {
        guard let first = start.adding(days: schedule.startDay, in: calendar) else { throw Problems([Problem(path: "startDay", kind: .outOfRange)]) }
        var rule = OCKScheduleRule(start: first, timeZone: calendar.timeZone)
        rule.calendar = calendar
        rule.repetition = schedule.repeat == "weeks" ? .weeks(schedule.every, weekdays: Set(schedule.weekdays ?? [])) : .days(schedule.every)
        rule.times = (schedule.times ?? []).compactMap { time in
            Self.clock(time.time).map { OCKScheduleRule.Time(hour: $0.0, minute: $0.1, label: time.label) }
        }
        rule.allDayLabel = schedule.allDayLabel
        rule.durationMinutes = schedule.durationMinutes ?? 60
        if let lastDay = schedule.lastDay { rule.end = start.adding(days: lastDay, in: calendar) }
        rule.targets = (schedule.targets ?? []).map { OCKScheduleRule.Target(value: $0.value, units: $0.units, kind: $0.kind) }
        return rule
    }

    /// `HH:MM` (24-hour) → hour and minute.
    static func clock(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == ":" }),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }

    /// 1 to 64 letters, digits, dots, dashes or underscores: a task's or contact's id in a template.
    public static func isIdentifier(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
        }
    }
}

/// Reads a template from parsed JSON, collecting every unknown field, missing field and wrong type with its path
/// (Foundation's decoder stops at the first and does not see unknown fields).
final class TemplateReader {
    final class Collected { var all: [OCKCarePlanTemplate.Problem] = [] }
    let problems = Collected()

    func problem(_ path: String, _ kind: OCKCarePlanTemplate.Problem.Kind) { problems.all.append(.init(path: path, kind: kind)) }

    /// The object at `path`, with its unknown fields reported.
    func object(_ value: Any?, _ path: String, fields: Set<String>) -> [String: Any]? {
        guard let object = value as? [String: Any] else {
            problem(path, value == nil ? .missingField : .wrongType)
            return nil
        }
        for key in object.keys.sorted() where !fields.contains(key) { problem(path.isEmpty ? key : path + "." + key, .unknownField) }
        return object
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func string(_ object: [String: Any], _ key: String, _ path: String) -> String? {
        guard let value = object[key], !(value is NSNull) else { problem(join(path, key), .missingField); return nil }
        guard let text = value as? String else { problem(join(path, key), .wrongType); return nil }
        return text
    }

    func optionalString(_ object: [String: Any], _ key: String, _ path: String) -> String? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else { problem(join(path, key), .wrongType); return nil }
        return text
    }

    /// A JSON number that is a whole number (JSON's `true` is not one).
    func integer(_ value: Any?, _ path: String, required: Bool) -> Int? {
        guard let value, !(value is NSNull) else { if required { problem(path, .missingField) }; return nil }
        guard let number = value as? NSNumber, !Self.isBoolean(number), let double = Double(exactly: number.doubleValue),
              double == double.rounded(), abs(double) < 1e9 else { problem(path, .wrongType); return nil }
        return Int(double)
    }

    func number(_ value: Any?, _ path: String) -> Double? {
        guard let value, !(value is NSNull) else { problem(path, .missingField); return nil }
        guard let number = value as? NSNumber, !Self.isBoolean(number), number.doubleValue.isFinite else { problem(path, .wrongType); return nil }
        return number.doubleValue
    }

    /// JSON's `true` and `false` parse as numbers of type char, which no JSON number is.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    func array(_ value: Any?, _ path: String, limit: Int, required: Bool = false) -> [Any]? {
        guard let value, !(value is NSNull) else { if required { problem(path, .missingField) }; return nil }
        guard let array = value as? [Any] else { problem(path, .wrongType); return nil }
        if array.count > limit { problem(path, .tooMany(limit)) }
        return Array(array.prefix(limit))
    }

    func template(_ value: Any) -> OCKCarePlanTemplate? {
        guard let root = object(value, "", fields: ["$schema", "formatVersion", "id", "title", "summary", "tasks", "contacts"]) else { return nil }
        let schema = string(root, "$schema", "")
        let format = integer(root["formatVersion"], "formatVersion", required: true)
        let id = string(root, "id", ""), title = string(root, "title", ""), summary = optionalString(root, "summary", "")
        let tasks = (array(root["tasks"], "tasks", limit: OCKCarePlanTemplate.maximumTasks, required: true) ?? [])
            .enumerated().map { task($1, "tasks[\($0)]") }
        let contacts = (array(root["contacts"], "contacts", limit: OCKCarePlanTemplate.maximumContacts) ?? [])
            .enumerated().map { contact($1, "contacts[\($0)]") }
        guard problems.all.isEmpty, let schema, let format, let id, let title else { return nil }
        var template = OCKCarePlanTemplate(id: id, title: title, summary: summary, tasks: tasks.compactMap { $0 }, contacts: contacts.compactMap { $0 })
        template.schema = schema
        template.formatVersion = format
        return template
    }

    func task(_ value: Any, _ path: String) -> OCKCarePlanTemplate.Task? {
        guard let object = object(value, path, fields: ["id", "title", "instructions", "card", "survey", "countsTowardAdherence",
                                                        "group", "tags", "schedule"]) else { return nil }
        let id = string(object, "id", path), title = string(object, "title", path)
        var counts = true
        if let value = object["countsTowardAdherence"], !(value is NSNull) {
            if let number = value as? NSNumber, Self.isBoolean(number) { counts = number.boolValue } else { problem(path + ".countsTowardAdherence", .wrongType) }
        }
        let tags = array(object["tags"], path + ".tags", limit: 20)?.enumerated().compactMap { index, tag -> String? in
            guard let tag = tag as? String else { problem(path + ".tags[\(index)]", .wrongType); return nil }
            return tag
        }
        let schedule = self.schedule(object["schedule"], path + ".schedule")
        guard let id, let title, let schedule else { return nil }
        return OCKCarePlanTemplate.Task(id: id, title: title, instructions: optionalString(object, "instructions", path),
                                        card: optionalString(object, "card", path), survey: optionalString(object, "survey", path),
                                        countsTowardAdherence: counts, group: optionalString(object, "group", path), tags: tags, schedule: schedule)
    }

    func schedule(_ value: Any?, _ path: String) -> OCKCarePlanTemplate.Schedule? {
        guard let object = object(value, path, fields: ["repeat", "every", "weekdays", "times", "allDayLabel", "durationMinutes",
                                                        "startDay", "lastDay", "targets"]) else { return nil }
        let weekdays = array(object["weekdays"], path + ".weekdays", limit: 7)?.enumerated().compactMap { integer($1, path + ".weekdays[\($0)]", required: true) }
        let times = array(object["times"], path + ".times", limit: OCKScheduleRule.maximumTimes)?.enumerated().compactMap { index, value -> OCKCarePlanTemplate.Time? in
            let timePath = path + ".times[\(index)]"
            guard let time = self.object(value, timePath, fields: ["time", "label"]), let clock = string(time, "time", timePath) else { return nil }
            return OCKCarePlanTemplate.Time(clock, label: optionalString(time, "label", timePath))
        }
        let targets = array(object["targets"], path + ".targets", limit: OCKScheduleRule.maximumTargets)?.enumerated().compactMap { index, value -> OCKCarePlanTemplate.Target? in
            let targetPath = path + ".targets[\(index)]"
            guard let target = self.object(value, targetPath, fields: ["value", "units", "kind"]),
                  let number = number(target["value"], targetPath + ".value") else { return nil }
            return OCKCarePlanTemplate.Target(number, units: optionalString(target, "units", targetPath), kind: optionalString(target, "kind", targetPath))
        }
        let every = integer(object["every"], path + ".every", required: true)
        let startDay = integer(object["startDay"], path + ".startDay", required: true)
        let repetition = string(object, "repeat", path)
        guard let every, let startDay, let repetition else { return nil }
        return OCKCarePlanTemplate.Schedule(repeat: repetition, every: every, weekdays: weekdays, times: times,
                                            allDayLabel: optionalString(object, "allDayLabel", path),
                                            durationMinutes: integer(object["durationMinutes"], path + ".durationMinutes", required: false),
                                            startDay: startDay, lastDay: integer(object["lastDay"], path + ".lastDay", required: false), targets: targets)
    }

    func contact(_ value: Any, _ path: String) -> OCKCarePlanTemplate.Contact? {
        guard let object = object(value, path, fields: ["id", "givenName", "familyName", "role", "title", "phone", "messaging", "email",
                                                        "category", "address"]) else { return nil }
        var address: OCKCarePlanTemplate.Address?
        if let value = object["address"], !(value is NSNull),
           let fields = self.object(value, path + ".address", fields: ["street", "city", "state", "postalCode", "country"]) {
            let addressPath = path + ".address"
            address = OCKCarePlanTemplate.Address(street: optionalString(fields, "street", addressPath), city: optionalString(fields, "city", addressPath),
                                                  state: optionalString(fields, "state", addressPath),
                                                  postalCode: optionalString(fields, "postalCode", addressPath),
                                                  country: optionalString(fields, "country", addressPath))
        }
        guard let id = string(object, "id", path) else { return nil }
        return OCKCarePlanTemplate.Contact(id: id, givenName: optionalString(object, "givenName", path), familyName: optionalString(object, "familyName", path),
                                           role: optionalString(object, "role", path), title: optionalString(object, "title", path),
                                           phone: optionalString(object, "phone", path), messaging: optionalString(object, "messaging", path),
                                           email: optionalString(object, "email", path), category: optionalString(object, "category", path),
                                           address: address)
    }
}
