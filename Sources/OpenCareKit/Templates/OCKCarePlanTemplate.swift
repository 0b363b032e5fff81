import Foundation
import OpenCareKitStore

/// A care plan to start a record with: tasks with schedules counted in days from the day it is applied, and the care
/// team's contacts. It is JSON (``json()``, ``init(json:)``), described by the JSON Schema ``jsonSchema``, and read
/// strictly: an unknown field, a wrong type or a rule out of range is a `Problem` naming where it is, and
/// nothing is applied.
///
/// For example, a template read from JSON and applied from December 1 in the patient's time zone:
/// ```swift
/// do {
///     let template = try OCKCarePlanTemplate(json: data)
///     let start = OCKScheduleRule.Day(year: 2026, month: 12, day: 1)
///     try await store.addTasks(try template.tasks(start: start, timeZone: zone, carePlanUUID: plan))
///     try await store.addContacts(template.contacts(carePlanUUID: plan, timeZone: zone, now: Date()))
/// } catch let problems as OCKCarePlanTemplate.Problems {
///     for problem in problems.all { print(problem.path, problem.kind) }  // "tasks[1].schedule.every"…
/// }
/// ```
///
/// A template can be made in code too, and written as JSON:
/// ```swift
/// let template = OCKCarePlanTemplate(id: "iron", title: "Iron supplement", tasks: [
///     .init(id: "iron", title: "Iron", instructions: "Take with orange juice.", card: "checklist",
///           schedule: .init(times: [.init("08:00", label: "Breakfast")], lastDay: 89)),
/// ])
/// let data = template.json()
/// ```
public struct OCKCarePlanTemplate: Codable, Hashable, Sendable {
    /// The `$schema` of the templates this version reads and writes: the JSON Schema's URI.
    public static let schemaURI = "https://opencarekit.org/schemas/care-plan-template-1.json"
    /// The `formatVersion` of the templates this version reads and writes.
    public static let formatVersion = 1
    /// Limits of what a template may hold, the same in the JSON Schema: its size in bytes, its tasks and contacts,
    /// the days of a schedule, and the lengths of titles, long text and short text in Unicode scalars.
    public static let maximumBytes = 256 * 1024, maximumTasks = 50, maximumContacts = 50, maximumStartDay = 365,
                      maximumLastDay = 730, maximumTitle = 200, maximumText = 2_000, maximumShort = 100

    /// The template's `$schema` (``schemaURI`` unless read from a document that says otherwise, a problem).
    public var schema = Self.schemaURI
    /// The template's `formatVersion` (`OCKCarePlanTemplate.formatVersion` unless read from a document that says
    /// otherwise, a problem).
    public var formatVersion = Self.formatVersion
    /// The template's id, such as `knee-recovery`: 1 to 64 letters, digits, dots, dashes or underscores.
    public var id: String
    /// The template's name, as a care team picks it ("Knee recovery"): required, at most 200 characters.
    public var title: String
    /// What the plan is for, in a sentence or two; at most 2,000 characters.
    public var summary: String?
    /// The tasks it adds, at most 50, with ids unique in the template.
    public var tasks: [Task]
    /// The care team's contacts it adds, at most 50, with ids unique in the template.
    public var contacts: [Contact]

    /// A task of a template: an `OCKTask` whose schedule counts days from the day the template is applied.
    public struct Task: Codable, Hashable, Sendable {
        /// The task's id in the record: 1 to 64 letters, digits, dots, dashes or underscores.
        public var id: String
        /// The task's title: required, at most 200 characters.
        public var title: String
        /// What to do, shown on the task's card; at most 2,000 characters.
        public var instructions: String?
        /// The card it shows as (`OCKDailyTasksPage.CardStyle`'s raw value); automatic when absent.
        public var card: String?
        /// The id of a survey the server has.
        public var survey: String?
        /// Whether its events count toward the day's completion (`OCKTask.impactsAdherence`); true when absent.
        public var countsTowardAdherence: Bool
        /// The task's group (`OCKTask.groupIdentifier`); at most 100 characters.
        public var group: String?
        /// The task's tags (`OCKTask.tags`): at most 20, each 1 to 100 characters.
        public var tags: [String]?
        /// When its events happen.
        public var schedule: Schedule

        /// A template task.
        ///
        /// - Parameters:
        ///   - id: The task's id in the record.
        ///   - title: The task's title.
        ///   - instructions: What to do; none by default.
        ///   - card: A card style's raw value (not `survey`); automatic by default.
        ///   - survey: The id of a survey the server has; none by default. A survey task shows the survey's card.
        ///   - countsTowardAdherence: Whether its events count toward completion; true by default.
        ///   - group: The task's group; none by default.
        ///   - tags: The task's tags; none by default.
        ///   - schedule: When its events happen.
        public init(id: String, title: String, instructions: String? = nil, card: String? = nil, survey: String? = nil,
                    countsTowardAdherence: Bool = true, group: String? = nil, tags: [String]? = nil, schedule: Schedule) {
            (self.id, self.title, self.instructions, self.card, self.survey) = (id, title, instructions, card, survey)
            (self.countsTowardAdherence, self.group, self.tags, self.schedule) = (countsTowardAdherence, group, tags, schedule)
        }
    }

    /// An `OCKScheduleRule` with its days counted from the day the template is applied (day 0).
    public struct Schedule: Codable, Hashable, Sendable {
        /// "days" or "weeks".
        public var `repeat`: String
        /// Every how many days (1 to 366) or weeks (1 to 52) the events repeat.
        public var every: Int
        /// For "weeks": 1 is Sunday, 7 Saturday.
        public var weekdays: [Int]?
        /// Empty or absent: all day.
        public var times: [Time]?
        /// The label of an all-day event, such as "Anytime"; at most 100 characters.
        public var allDayLabel: String?
        /// How long each timed event lasts, 1 to 1,440 minutes; 60 when absent.
        public var durationMinutes: Int?
        /// The day of the first event, counted from the day the template is applied (day 0); 0 to 365.
        public var startDay: Int
        /// The last day with events (inclusive); none when absent.
        public var lastDay: Int?
        /// The values to reach at each event, such as 400 mg; at most 8.
        public var targets: [Target]?

        /// A schedule; by default every day, all day, from day 0 with no end.
        ///
        /// - Parameters:
        ///   - repeat: "days" (the default) or "weeks".
        ///   - every: Every how many days or weeks; 1 by default.
        ///   - weekdays: For "weeks", the weekdays (1 Sunday … 7 Saturday).
        ///   - times: The times of day; none (all day) by default.
        ///   - allDayLabel: The label of an all-day event.
        ///   - durationMinutes: How long each timed event lasts; 60 minutes when nil.
        ///   - startDay: The day of the first event; 0 by default.
        ///   - lastDay: The last day with events, inclusive; none by default.
        ///   - targets: The values to reach at each event.
        public init(repeat: String = "days", every: Int = 1, weekdays: [Int]? = nil, times: [Time]? = nil, allDayLabel: String? = nil,
                    durationMinutes: Int? = nil, startDay: Int = 0, lastDay: Int? = nil, targets: [Target]? = nil) {
            (self.repeat, self.every, self.weekdays, self.times, self.allDayLabel) = (`repeat`, every, weekdays, times, allDayLabel)
            (self.durationMinutes, self.startDay, self.lastDay, self.targets) = (durationMinutes, startDay, lastDay, targets)
        }
    }

    /// A time of day of a template's schedule, in the time zone the template is applied in.
    public struct Time: Codable, Hashable, Sendable {
        /// "HH:MM", 24-hour.
        public var time: String
        /// The event's label, such as "Breakfast"; at most 100 characters.
        public var label: String?

        /// A time of day.
        ///
        /// - Parameters:
        ///   - time: "HH:MM", 24-hour, such as "07:30".
        ///   - label: The event's label; none by default.
        public init(_ time: String, label: String? = nil) { (self.time, self.label) = (time, label) }
    }

    /// A value to reach at each event of a template's task, such as 400 mg (`OCKScheduleElement.targetValues`).
    public struct Target: Codable, Hashable, Sendable {
        /// The number.
        public var value: Double
        /// Its units, such as "mg"; at most 100 characters.
        public var units: String?
        /// "dose" or absent.
        public var kind: String?

        /// A target value.
        ///
        /// - Parameters:
        ///   - value: The number.
        ///   - units: Its units; none by default.
        ///   - kind: "dose" for a medication's dose; none by default.
        public init(_ value: Double, units: String? = nil, kind: String? = nil) { (self.value, self.units, self.kind) = (value, units, kind) }
    }

    /// A contact of a template's care team (an `OCKContact`). It needs a given or a family name; text fields hold at
    /// most 100 characters (the email 254).
    public struct Contact: Codable, Hashable, Sendable {
        /// The contact's id in the record: 1 to 64 letters, digits, dots, dashes or underscores.
        public var id: String
        /// The given name.
        public var givenName: String?
        /// The family name.
        public var familyName: String?
        /// What the contact does for the patient, shown as the detailed card's instructions.
        public var role: String?
        /// The contact's title, such as "Surgical Nurse".
        public var title: String?
        /// A phone number, as written.
        public var phone: String?
        /// A number for text messages, as written.
        public var messaging: String?
        /// An email address.
        public var email: String?
        /// "careProvider" or "friendsAndFamily".
        public var category: String?
        /// A postal address.
        public var address: Address?

        /// A template contact.
        ///
        /// - Parameters:
        ///   - id: The contact's id in the record.
        ///   - givenName: The given name.
        ///   - familyName: The family name.
        ///   - role: What the contact does for the patient.
        ///   - title: The contact's title.
        ///   - phone: A phone number.
        ///   - messaging: A number for text messages.
        ///   - email: An email address.
        ///   - category: "careProvider" (the default) or "friendsAndFamily".
        ///   - address: A postal address.
        public init(id: String, givenName: String? = nil, familyName: String? = nil, role: String? = nil, title: String? = nil,
                    phone: String? = nil, messaging: String? = nil, email: String? = nil, category: String? = "careProvider",
                    address: Address? = nil) {
            (self.id, self.givenName, self.familyName, self.role, self.title) = (id, givenName, familyName, role, title)
            (self.phone, self.messaging, self.email, self.category, self.address) = (phone, messaging, email, category, address)
        }
    }

    /// A template contact's postal address; every part optional (the street at most 200 characters, the others 100).
    public struct Address: Codable, Hashable, Sendable {
        /// A part of the address, as written on an envelope.
        public var street: String?, city: String?, state: String?, postalCode: String?, country: String?

        /// An address.
        ///
        /// - Parameters:
        ///   - street: The street and number.
        ///   - city: The city.
        ///   - state: The state or region.
        ///   - postalCode: The postal code.
        ///   - country: The country.
        public init(street: String? = nil, city: String? = nil, state: String? = nil, postalCode: String? = nil, country: String? = nil) {
            (self.street, self.city, self.state, self.postalCode, self.country) = (street, city, state, postalCode, country)
        }
    }

    /// A template, not checked here: `problems` lists what breaks its rules, and ``json()`` writes it.
    ///
    /// - Parameters:
    ///   - id: The template's id.
    ///   - title: The template's name.
    ///   - summary: What the plan is for; none by default.
    ///   - tasks: The tasks it adds.
    ///   - contacts: The care team's contacts it adds; none by default.
    public init(id: String, title: String, summary: String? = nil, tasks: [Task], contacts: [Contact] = []) {
        (self.id, self.title, self.summary, self.tasks, self.contacts) = (id, title, summary, tasks, contacts)
    }

    private enum CodingKeys: String, CodingKey {
        case schema = "$schema", formatVersion, id, title, summary, tasks, contacts
    }

    // MARK: JSON

    /// The template as pretty-printed JSON with sorted keys.
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every field is a plain value: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Reads a template, strictly.
    ///
    /// - Throws: `Problems`, each naming where it is (such as `tasks[1].schedule.every`).
    public init(json data: Data) throws(Problems) {
        guard data.count <= Self.maximumBytes else { throw Problems([Problem(path: "", kind: .tooLarge(Self.maximumBytes))]) }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw Problems([Problem(path: "", kind: .notJSON)])
        }
        let reader = TemplateReader()
        guard let template = reader.template(value) else { throw Problems(reader.problems.all) }
        var problems = reader.problems.all
        problems += template.problems
        guard problems.isEmpty else { throw Problems(problems) }
        self = template
    }
}
