import Foundation
import OpenCareKitStore

extension OCKCarePlanTemplate {
    /// The `userInfo` key of a task's survey id (the same as `OCKSurvey.taskUserInfoKey`).
    public static let surveyKey = "ock.survey"

    /// The template's tasks applied from `start` (day 0) in `timeZone`: each a new task of `carePlanUUID`, effective
    /// from its first day.
    ///
    /// A task's card style and survey go into its `userInfo` (`OCKDailyTasksPage.cardStyleKey`, ``surveyKey``); a
    /// task with a survey shows the survey's card. The tasks are not stored here.
    ///
    /// - Parameters:
    ///   - start: The day the template is applied: day 0 of every schedule.
    ///   - timeZone: The patient's time zone, in which the days and times are read.
    ///   - carePlanUUID: The care plan the tasks belong to, or nil for none.
    ///
    /// - Throws: `Problems` for a schedule that has no event between its days on this start (such as weekdays that
    ///   do not fall between `startDay` and `lastDay`).
    public func tasks(start: OCKScheduleRule.Day, timeZone: TimeZone, carePlanUUID: UUID?) throws(Problems) -> [OCKTask] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var tasks: [OCKTask] = []
        var problems: [Problem] = []
        for (index, item) in self.tasks.enumerated() {
            let path = "tasks[\(index)].schedule"
            let schedule: OCKSchedule
            do {
                schedule = try rule(item.schedule, start: start, calendar: calendar).schedule()
            } catch let error as Problems {
                problems += error.all.map { Problem(path: path + "." + $0.path, kind: $0.kind) }
                continue
            } catch {
                problems.append(Problem(path: path + ".lastDay", kind: .schedule(.noEventsBeforeEnd)))
                continue
            }
            var task = OCKTask(id: item.id, title: item.title, carePlanUUID: carePlanUUID, schedule: schedule)
            task.instructions = item.instructions
            task.impactsAdherence = item.countsTowardAdherence
            task.groupIdentifier = item.group
            task.tags = item.tags
            task.timezone = timeZone
            task.effectiveDate = schedule.startDate()
            var info: [String: String] = [:]
            info[OCKDailyTasksPage.cardStyleKey] = item.survey != nil ? OCKDailyTasksPage.CardStyle.survey.rawValue : item.card
            info[Self.surveyKey] = item.survey
            task.userInfo = info.isEmpty ? nil : info
            tasks.append(task)
        }
        guard problems.isEmpty else { throw Problems(problems) }
        return tasks
    }

    /// The template's contacts as new contacts of `carePlanUUID`, effective `now`, not yet stored. A contact without
    /// a category is a care provider; its phone, messaging number and email are labelled `phone`, `messaging` and
    /// `email`.
    public func contacts(carePlanUUID: UUID?, timeZone: TimeZone, now: Date) -> [OCKContact] {
        contacts.map { item in
            var name = PersonNameComponents()
            name.givenName = item.givenName
            name.familyName = item.familyName
            var contact = OCKContact(id: item.id, name: name, carePlanUUID: carePlanUUID)
            contact.role = item.role
            contact.title = item.title
            contact.phoneNumbers = item.phone.map { [OCKLabeledValue(label: "phone", value: $0)] }
            contact.messagingNumbers = item.messaging.map { [OCKLabeledValue(label: "messaging", value: $0)] }
            contact.emailAddresses = item.email.map { [OCKLabeledValue(label: "email", value: $0)] }
            // A template's contacts are its care team unless it says otherwise.
            contact.category = item.category.flatMap(OCKContactCategory.init(rawValue:)) ?? .careProvider
            contact.address = item.address.map {
                OCKPostalAddress(street: $0.street ?? "", city: $0.city ?? "", state: $0.state ?? "", postalCode: $0.postalCode ?? "",
                                 country: $0.country ?? "")
            }
            contact.effectiveDate = now
            contact.timezone = timeZone
            return contact
        }
    }

    /// A template of a plan: its tasks (newest versions) with days counted from `start`, and its care team
    /// (contacts in the care provider category: friends and family are the patient's own, and stay out).
    ///
    /// Left out, and named in `omitted` by id: tasks whose schedule no rule expresses (composed in code or the API),
    /// tasks that end before `start` or begin more than a year after it, tasks and contacts beyond the template's
    /// limits, and any whose values the format does not allow.
    /// `cardStyles` are styles configured for task ids, used where a task names none itself.
    public static func plan(id: String, title: String, tasks: [OCKTask], contacts: [OCKContact], start: OCKScheduleRule.Day,
                            calendar: Calendar, cardStyles: [String: OCKDailyTasksPage.CardStyle] = [:],
                            surveys: [String: String] = [:]) -> (template: OCKCarePlanTemplate, omitted: [String]) {
        var items: [Task] = [], omitted: [String] = []
        for task in tasks.sorted(by: { $0.id < $1.id }) {
            guard items.count < maximumTasks, let rule = OCKScheduleRule(schedule: task.schedule), let first = start.start(in: calendar),
                  let startDay = calendar.dateComponents([.day], from: first, to: rule.start.start(in: calendar) ?? first).day,
                  (0...maximumStartDay).contains(startDay) || (startDay < 0 && (rule.end.map { $0 >= start } ?? true)) else {
                omitted.append(task.id)
                continue
            }
            let lastDay = rule.end.flatMap { $0.start(in: calendar) }.flatMap { calendar.dateComponents([.day], from: first, to: $0).day }
            if let lastDay, lastDay < 0 || lastDay > maximumLastDay {
                omitted.append(task.id)
                continue
            }
            let repetition: (String, Int, [Int]?) = switch rule.repetition {
            case let .days(count): ("days", count, nil)
            case let .weeks(count, weekdays): ("weeks", count, weekdays.sorted())
            }
            // A task that began before `start` starts on day 0 of the template (its pattern continues from there).
            let schedule = Schedule(repeat: repetition.0, every: repetition.1, weekdays: repetition.2,
                                    times: rule.isAllDay ? nil : rule.times.map { Time($0.clock, label: $0.label) },
                                    allDayLabel: rule.allDayLabel, durationMinutes: rule.isAllDay ? nil : rule.durationMinutes,
                                    startDay: max(0, startDay), lastDay: lastDay,
                                    targets: rule.targets.isEmpty ? nil : rule.targets.map { Target($0.value, units: $0.units, kind: $0.kind) })
            let survey = task.userInfo?[surveyKey] ?? surveys[task.id]
            let style = task.userInfo?[OCKDailyTasksPage.cardStyleKey] ?? cardStyles[task.id]?.rawValue
            items.append(Task(id: task.id, title: task.title ?? task.id, instructions: task.instructions,
                              card: style == OCKDailyTasksPage.CardStyle.survey.rawValue ? nil : style, survey: survey,
                              countsTowardAdherence: task.impactsAdherence, group: task.groupIdentifier, tags: task.tags, schedule: schedule))
        }
        let careTeam = contacts.filter { $0.category == .careProvider }.sorted { $0.id < $1.id }
        omitted += careTeam.dropFirst(maximumContacts).map(\.id)
        let team = careTeam.prefix(maximumContacts).map { contact in
            Contact(id: contact.id, givenName: contact.name.givenName, familyName: contact.name.familyName, role: contact.role,
                    title: contact.title, phone: contact.phoneNumbers?.first?.value, messaging: contact.messagingNumbers?.first?.value,
                    email: contact.emailAddresses?.first?.value, category: OCKContactCategory.careProvider.rawValue,
                    address: contact.address.map { Address(street: $0.street, city: $0.city, state: $0.state, postalCode: $0.postalCode, country: $0.country) })
        }
        var template = OCKCarePlanTemplate(id: id, title: title, tasks: items, contacts: Array(team))
        // What the template format does not allow (an id, a length or a number of tags beyond its limits, set through
        // the API) leaves its task or contact out, so the download always reads back.
        let refused = template.problems.map(\.path)
        func index(_ path: String, _ list: String) -> Int? {
            guard path.hasPrefix(list + "["), let close = path.firstIndex(of: "]") else { return nil }
            return Int(path[path.index(path.startIndex, offsetBy: list.count + 1)..<close])
        }
        let badTasks = Set(refused.compactMap { index($0, "tasks") }), badContacts = Set(refused.compactMap { index($0, "contacts") })
        omitted += badTasks.sorted().map { template.tasks[$0].id } + badContacts.sorted().map { template.contacts[$0].id }
        template.tasks = template.tasks.enumerated().filter { !badTasks.contains($0.offset) }.map(\.element)
        template.contacts = template.contacts.enumerated().filter { !badContacts.contains($0.offset) }.map(\.element)
        if !isIdentifier(template.id) { template.id = "care-plan" }
        if template.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || template.title.unicodeScalars.count > maximumTitle {
            template.title = "Care plan"
        }
        return (template, omitted)
    }
}
