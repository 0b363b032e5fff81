import Foundation
import OpenCareKitStore

/// The demo care plan that `store seed-demo` and `serve --demo` write: a patient recovering from knee surgery, with
/// an onboarding survey that opens the feed, a daily check-in survey, medications, exercises, symptom and hydration
/// logs, a weekly weigh-in and a care team. (The surveys themselves are `OCKDemoSurveys` of OpenCareKitSurveys.)
///
/// The medications carry alert rules for the care team (``OCKAlertRule``): doses missed on two days of a week; the
/// check-in raises one for pain of 7 or more (urgent) and one after three days without a check-in.
///
/// For example, a demo record in memory, shown as the demo app shows it:
/// ```swift
/// let store = OCKStore(name: "demo", type: .inMemory)
/// var demo = OCKDemoCarePlan(calendar: calendar, start: calendar.startOfDay(for: Date()))
/// demo.givenName = "Jordan"
/// try await demo.seed(into: store) { step in print("added", step) }
/// let page = OCKDailyTasksPage(calendar: calendar, styles: OCKDemoCarePlan.cardStyles, onboardingTaskID: "onboarding")
/// ```
public struct OCKDemoCarePlan: Sendable {
    /// The calendar the plan's days and times are in; its time zone becomes the patient's, the plan's, and every
    /// task's and contact's.
    public let calendar: Calendar
    /// When the plan begins: the patient and the care plan take effect at this moment, the tasks and contacts at the
    /// start of its day, where the schedules begin (the weigh-in's on the first Monday from then).
    public let start: Date
    /// The patient's given name ("Alex" by default).
    public var givenName = "Alex"
    /// The patient's family name ("Rivera" by default).
    public var familyName = "Rivera"

    /// A plan whose schedules begin on the day containing `start`, in `calendar`'s time zone.
    public init(calendar: Calendar, start: Date) {
        self.calendar = calendar
        self.start = start
    }

    /// The card each demo task is shown with where CareKit's automatic choice would not show it best: doses as a
    /// checklist, exercises with their instructions, hydration as progress toward eight glasses, the weigh-in as a
    /// recorded value.
    public static let cardStyles: [String: OCKDailyTasksPage.CardStyle] = [
        "ibuprofen": .checklist, "knee-exercises": .instructions, "hydration": .numericProgress, "weigh-in": .labeledValue,
        "onboarding": .survey, "check-in": .survey,
    ]

    /// The demo's Insights charts: medication doses against nausea (the Human Interface Guidelines' example), weight
    /// and hydration.
    public static let insights: [OCKCartesianChartViewSynchronizer] = [
        OCKCartesianChartViewSynchronizer(title: "Ibuprofen and nausea", configurations: [
            OCKDataSeriesConfiguration(taskIDs: ["ibuprofen"], legendTitle: "Ibuprofen doses", mark: .bar, unit: "doses",
                                       dailyValue: .completedEvents),
            OCKDataSeriesConfiguration(taskIDs: ["nausea"], legendTitle: "Nausea episodes", mark: .lineWithPoints,
                                       axis: .trailing, dailyValue: .loggedValues),
        ], identifier: "insight-doses-nausea"),
        OCKCartesianChartViewSynchronizer(title: "Pain and ibuprofen", configurations: [
            OCKDataSeriesConfiguration(taskIDs: ["ibuprofen"], legendTitle: "Ibuprofen doses", mark: .bar, unit: "doses",
                                       dailyValue: .completedEvents),
            OCKDataSeriesConfiguration(taskIDs: ["check-in"], legendTitle: "Pain (0 to 10)", mark: .lineWithPoints,
                                       axis: .trailing, dailyValue: .average, kind: "pain"),
        ], identifier: "insight-pain-doses"),
        OCKCartesianChartViewSynchronizer(title: "Weight", configurations: [
            OCKDataSeriesConfiguration(taskIDs: ["weigh-in"], legendTitle: "Weight", mark: .lineWithPoints, unit: "kg",
                                       dailyValue: .average),
        ], identifier: "insight-weight"),
        OCKCartesianChartViewSynchronizer(title: "Hydration", configurations: [
            OCKDataSeriesConfiguration(taskIDs: ["hydration"], legendTitle: "Glasses of water", mark: .bar, unit: "glasses",
                                       dailyValue: .sum),
        ], yRange: .dynamicFromZero, identifier: "insight-hydration"),
    ]

    /// Adds everything to an empty store: the patient (id `patient`), the care plan (`knee-recovery`), the tasks
    /// and the contacts, reporting each step to `progress` ("patient", "care plan", "9 tasks", "4 contacts").
    ///
    /// - Throws: What the store's adds throw; a store that already has the patient, the plan or one of the ids is
    ///   refused (`OCKStoreError.addFailed`), leaving what was added before.
    public func seed(into store: OCKStore, progress: (String) -> Void = { _ in }) async throws {
        var patient = OCKPatient(id: "patient", givenName: givenName, familyName: familyName)
        patient.birthday = calendar.date(from: DateComponents(year: 1968, month: 4, day: 12))
        patient.sex = .other("unspecified")
        patient.allergies = ["Penicillin"]
        patient.effectiveDate = start
        patient.timezone = calendar.timeZone
        patient = try await store.addPatient(patient)
        progress("patient")

        var plan = OCKCarePlan(id: "knee-recovery", title: "Knee Recovery", patientUUID: patient.uuid)
        plan.effectiveDate = start
        plan.timezone = calendar.timeZone
        plan = try await store.addCarePlan(plan)
        progress("care plan")

        let tasks = makeTasks(plan: plan.uuid)
        try await store.addTasks(tasks)
        progress("\(tasks.count) tasks")

        let contacts = makeContacts(plan: plan.uuid)
        try await store.addContacts(contacts)
        progress("\(contacts.count) contacts")
    }

    private func at(_ hour: Int, _ minute: Int = 0, days: Int = 0) -> Date {
        let day = calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: start)) ?? start
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day) ?? day
    }

    private func element(_ hour: Int, _ minute: Int = 0, every interval: DateComponents = DateComponents(day: 1),
                         text: String? = nil, targets: [OCKOutcomeValue] = [],
                         duration: OCKScheduleElement.Duration = .hours(1), days: Int = 0) -> OCKScheduleElement {
        OCKScheduleElement(start: at(hour, minute, days: days), end: nil, interval: interval, text: text,
                           targetValues: targets, duration: duration, calendar: calendar)
    }

    private func task(_ id: String, _ title: String, _ instructions: String, _ elements: [OCKScheduleElement],
                      plan: UUID, impactsAdherence: Bool = true, asset: String? = nil) -> OCKTask {
        var task = OCKTask(id: id, title: title, carePlanUUID: plan, schedule: OCKSchedule(composing: elements))
        task.instructions = instructions
        task.impactsAdherence = impactsAdherence
        task.asset = asset
        task.effectiveDate = calendar.startOfDay(for: start)
        task.timezone = calendar.timeZone
        return task
    }

    /// The demo's nine tasks for the care plan `plan`, not yet stored, with their alert rules: the onboarding
    /// survey (all day, not counted toward adherence), the daily check-in survey (all day), ibuprofen (8:00, 14:00
    /// and 20:00), enoxaparin (9:00), omeprazole (7:30 and 19:30), knee exercises (17:00 every other day), the
    /// nausea log (all day, not counted), hydration (eight glasses, all day) and the weigh-in (Mondays at 7:00,
    /// target 75 kg).
    ///
    /// Times are wall-clock times in ``calendar``; medication targets are doses (value kind `dose`).
    public func makeTasks(plan: UUID) -> [OCKTask] {
        func dose(_ amount: Double, _ units: String) -> [OCKOutcomeValue] {
            var value = OCKOutcomeValue(amount, units: units, createdDate: start)
            value.kind = "dose"
            return [value]
        }
        let weekday = calendar.component(.weekday, from: start)
        let daysToMonday = (9 - weekday) % 7
        // The care team's alerts (`OCKAlertRule`): a medication missed on two days of a week, pain of 7 or more, no
        // check-in for three days.
        let missed = [OCKAlertRule(id: "missed-doses", condition: .missedDoses(days: 2, ofDays: 7))]
        let checkIn = [OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil), priority: .urgent),
                       OCKAlertRule(id: "no-check-in", condition: .noActivity(days: 3))]
        return Self.withAlerts([
            task("onboarding", "Onboarding", "You'll need to agree to some terms and conditions before we get started!",
                 [element(0, text: "Before you start", duration: .allDay)], plan: plan, impactsAdherence: false,
                 asset: "person.badge.shield.checkmark"),
            task("check-in", "Daily Check-in", "Three questions about your pain, your sleep and your exercises.",
                 [element(0, text: "Anytime today", duration: .allDay)], plan: plan, asset: "list.clipboard"),
            task("ibuprofen", "Ibuprofen", "Take 400 mg with food to ease pain and swelling.",
                 [element(8, text: "Breakfast", targets: dose(400, "mg")), element(14, text: "Lunch", targets: dose(400, "mg")),
                  element(20, text: "Dinner", targets: dose(400, "mg"))], plan: plan, asset: "pills.fill"),
            task("enoxaparin", "Enoxaparin", "Inject 40 mg under the skin of the belly, once a day.",
                 [element(9, text: "Morning", targets: dose(40, "mg"))], plan: plan, asset: "syringe"),
            task("omeprazole", "Omeprazole", "Take 20 mg before breakfast and before dinner to protect the stomach.",
                 [element(7, 30, text: "Before breakfast", targets: dose(20, "mg")),
                  element(19, 30, text: "Before dinner", targets: dose(20, "mg"))], plan: plan, asset: "pills"),
            task("knee-exercises", "Knee Exercises", "Straight-leg raises, heel slides and quad sets: 3 sets of 10 each.",
                 [element(17, every: DateComponents(day: 2), text: "Every other day", duration: .minutes(30))],
                 plan: plan, asset: "figure.walk"),
            task("nausea", "Track Nausea", "Log each time you feel nauseous, with how strong it was (0 to 10).",
                 [element(0, text: "Anytime", duration: .allDay)], plan: plan, impactsAdherence: false,
                 asset: "bed.double"),
            task("hydration", "Hydration", "Drink eight glasses of water over the day.",
                 [element(0, text: "All day", targets: [OCKOutcomeValue(8.0, units: "glasses", createdDate: start)],
                          duration: .allDay)], plan: plan, asset: "drop.fill"),
            task("weigh-in", "Weekly Weigh-in", "Weigh yourself before breakfast and record it in kilograms.",
                 [element(7, every: DateComponents(weekOfYear: 1), text: "Monday morning",
                          targets: [OCKOutcomeValue(75.0, units: "kg", createdDate: start)], duration: .minutes(15),
                          days: daysToMonday)], plan: plan, asset: "scalemass"),
        ], ["check-in": checkIn, "ibuprofen": missed, "enoxaparin": missed, "omeprazole": missed])
    }

    private static func withAlerts(_ tasks: [OCKTask], _ rules: [String: [OCKAlertRule]]) -> [OCKTask] {
        tasks.map { task in
            var task = task
            task.setAlertRules(rules[task.id] ?? [])
            return task
        }
    }

    /// The demo's four contacts for the care plan `plan`, not yet stored: the orthopedic surgeon, the nurse
    /// practitioner and the physiotherapist (care providers), and the patient's partner (friends and family), each
    /// with a phone, messaging number, email and a Portland address.
    public func makeContacts(plan: UUID) -> [OCKContact] {
        func contact(_ id: String, _ given: String, _ family: String, title: String, role: String,
                     category: OCKContactCategory, phone: String, email: String, street: String) -> OCKContact {
            var contact = OCKContact(id: id, givenName: given, familyName: family, carePlanUUID: plan)
            contact.title = title
            contact.role = role
            contact.category = category
            contact.phoneNumbers = [OCKLabeledValue(label: "work", value: phone)]
            contact.messagingNumbers = [OCKLabeledValue(label: "mobile", value: phone)]
            contact.emailAddresses = [OCKLabeledValue(label: "email", value: email)]
            contact.address = OCKPostalAddress(street: street, city: "Portland", state: "OR", postalCode: "97205",
                                               country: "United States", isoCountryCode: "US")
            contact.effectiveDate = calendar.startOfDay(for: start)
            contact.timezone = calendar.timeZone
            return contact
        }
        return [
            contact("dr-okafor", "Chidi", "Okafor", title: "Orthopedic Surgeon",
                    role: "Performed the knee replacement and oversees recovery.", category: .careProvider,
                    phone: "(503) 555-0142", email: "c.okafor@example.org", street: "1120 SW Fifth Ave"),
            contact("nurse-lee", "Hana", "Lee", title: "Nurse Practitioner",
                    role: "Answers questions about medications and wound care.", category: .careProvider,
                    phone: "(503) 555-0178", email: "h.lee@example.org", street: "1120 SW Fifth Ave"),
            contact("pt-novak", "Marek", "Novak", title: "Physiotherapist",
                    role: "Leads the weekly physiotherapy sessions and the home exercise plan.", category: .careProvider,
                    phone: "(503) 555-0193", email: "m.novak@example.org", street: "415 NW Couch St"),
            contact("sam-rivera", "Sam", "Rivera", title: "Partner",
                    role: "Helps with exercises and appointments.", category: .friendsAndFamily,
                    phone: "(503) 555-0116", email: "sam.rivera@example.com", street: "2231 NE Alberta St"),
        ]
    }
}
