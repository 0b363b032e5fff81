import Foundation
import OpenCareKitStore

/// A care plan to start a record with: tasks with schedules counted in days from the day it is applied, and the care
/// team's contacts. It is JSON (`json()`, `init(json:)`), described by the JSON Schema `OCKCarePlanTemplate.jsonSchema`,
/// and read strictly: an unknown field, a wrong type or a rule out of range is a `Problem` naming where it is, and
/// nothing is applied.
///
/// For example:
/// ```swift
/// let template = try OCKCarePlanTemplate(json: data)
/// let tasks = try template.tasks(start: OCKScheduleRule.Day(year: 2026, month: 12, day: 1), timeZone: zone, carePlanUUID: plan)
/// ```
public struct OCKCarePlanTemplate: Codable, Hashable, Sendable {
    public static let schemaURI = "https://opencarekit.org/schemas/care-plan-template-1.json"
    public static let formatVersion = 1
    /// Limits of what a template may hold, the same in the JSON Schema.
    public static let maximumBytes = 256 * 1024, maximumTasks = 50, maximumContacts = 50, maximumStartDay = 365,
                      maximumLastDay = 730, maximumTitle = 200, maximumText = 2_000, maximumShort = 100

    public var schema = Self.schemaURI
    public var formatVersion = Self.formatVersion
    public var id: String
    public var title: String
    public var summary: String?
    public var tasks: [Task]
    public var contacts: [Contact]

    public struct Task: Codable, Hashable, Sendable {
        public var id: String
        public var title: String
        public var instructions: String?
        /// The card it shows as (`OCKDailyTasksPage.CardStyle`'s raw value); automatic when absent.
        public var card: String?
        /// The id of a survey the server has.
        public var survey: String?
        public var countsTowardAdherence: Bool
        public var group: String?
        public var tags: [String]?
        public var schedule: Schedule

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
        public var every: Int
        /// For "weeks": 1 is Sunday, 7 Saturday.
        public var weekdays: [Int]?
        /// Empty or absent: all day.
        public var times: [Time]?
        public var allDayLabel: String?
        public var durationMinutes: Int?
        public var startDay: Int
        /// The last day with events (inclusive); none when absent.
        public var lastDay: Int?
        public var targets: [Target]?

        public init(repeat: String = "days", every: Int = 1, weekdays: [Int]? = nil, times: [Time]? = nil, allDayLabel: String? = nil,
                    durationMinutes: Int? = nil, startDay: Int = 0, lastDay: Int? = nil, targets: [Target]? = nil) {
            (self.repeat, self.every, self.weekdays, self.times, self.allDayLabel) = (`repeat`, every, weekdays, times, allDayLabel)
            (self.durationMinutes, self.startDay, self.lastDay, self.targets) = (durationMinutes, startDay, lastDay, targets)
        }
    }

    public struct Time: Codable, Hashable, Sendable {
        /// "HH:MM", 24-hour.
        public var time: String
        public var label: String?

        public init(_ time: String, label: String? = nil) { (self.time, self.label) = (time, label) }
    }

    public struct Target: Codable, Hashable, Sendable {
        public var value: Double
        public var units: String?
        /// "dose" or absent.
        public var kind: String?

        public init(_ value: Double, units: String? = nil, kind: String? = nil) { (self.value, self.units, self.kind) = (value, units, kind) }
    }

    public struct Contact: Codable, Hashable, Sendable {
        public var id: String
        public var givenName: String?
        public var familyName: String?
        public var role: String?
        public var title: String?
        public var phone: String?
        public var messaging: String?
        public var email: String?
        /// "careProvider" or "friendsAndFamily".
        public var category: String?
        public var address: Address?

        public init(id: String, givenName: String? = nil, familyName: String? = nil, role: String? = nil, title: String? = nil,
                    phone: String? = nil, messaging: String? = nil, email: String? = nil, category: String? = "careProvider",
                    address: Address? = nil) {
            (self.id, self.givenName, self.familyName, self.role, self.title) = (id, givenName, familyName, role, title)
            (self.phone, self.messaging, self.email, self.category, self.address) = (phone, messaging, email, category, address)
        }
    }

    public struct Address: Codable, Hashable, Sendable {
        public var street: String?, city: String?, state: String?, postalCode: String?, country: String?

        public init(street: String? = nil, city: String? = nil, state: String? = nil, postalCode: String? = nil, country: String? = nil) {
            (self.street, self.city, self.state, self.postalCode, self.country) = (street, city, state, postalCode, country)
        }
    }

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
