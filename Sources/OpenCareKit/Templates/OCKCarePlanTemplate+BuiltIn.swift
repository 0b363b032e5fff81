import Foundation
import OpenCareKitStore

extension OCKCarePlanTemplate {
    /// The templates every server offers: knee recovery (the demo's plan), hypertension follow-up and
    /// post-operative wound care.
    public static let builtIn: [OCKCarePlanTemplate] = [kneeRecovery, hypertensionFollowUp, woundCare]

    /// The demo's knee-recovery plan (without its onboarding, which belongs to the demo's study), from a Monday.
    public static var kneeRecovery: OCKCarePlanTemplate {
        let calendar = referenceCalendar
        let start = referenceDay.start(in: calendar) ?? Date(timeIntervalSince1970: 0)
        let demo = OCKDemoCarePlan(calendar: calendar, start: start)
        let tasks = demo.makeTasks(plan: UUID()).filter { $0.id != "onboarding" }
        var template = plan(id: "knee-recovery", title: "Knee recovery", tasks: tasks, contacts: demo.makeContacts(plan: UUID()),
                            start: referenceDay, calendar: calendar, cardStyles: OCKDemoCarePlan.cardStyles,
                            surveys: ["check-in": "check-in"]).template
        template.summary = "Six weeks after a knee replacement: pain relief, blood thinner, stomach protection, exercises every other day, "
            + "hydration and a weekly weigh-in, with the surgical team."
        return template
    }

    /// Blood pressure twice a day for four weeks, then every Monday and Thursday; the medication each morning; a
    /// walk five days a week, and a low-salt log.
    public static let hypertensionFollowUp = OCKCarePlanTemplate(
        id: "hypertension-follow-up", title: "Hypertension follow-up",
        summary: "After starting or changing blood pressure medication: home readings, the daily tablet, activity and salt.",
        tasks: [
            Task(id: "blood-pressure-daily", title: "Blood pressure",
                 instructions: "Sit quietly for five minutes, then measure twice, one minute apart. Record the systolic value.",
                 card: "labeledValue", group: "readings", tags: ["hypertension"],
                 schedule: Schedule(times: [Time("07:30", label: "Morning"), Time("19:30", label: "Evening")], durationMinutes: 60,
                                    lastDay: 27, targets: [Target(135, units: "mmHg")])),
            Task(id: "blood-pressure-weekly", title: "Blood pressure",
                 instructions: "Sit quietly for five minutes, then measure twice, one minute apart. Record the systolic value.",
                 card: "labeledValue", group: "readings", tags: ["hypertension"],
                 schedule: Schedule(repeat: "weeks", weekdays: [2, 5], times: [Time("07:30", label: "Morning")], durationMinutes: 60,
                                    startDay: 28, targets: [Target(135, units: "mmHg")])),
            Task(id: "amlodipine", title: "Amlodipine", instructions: "Take 5 mg each morning, with or without food.", card: "checklist",
                 schedule: Schedule(times: [Time("08:00", label: "Morning")], durationMinutes: 120, targets: [Target(5, units: "mg", kind: "dose")])),
            Task(id: "brisk-walk", title: "Brisk walk", instructions: "Thirty minutes at a pace that makes talking a little harder.",
                 card: "instructions",
                 schedule: Schedule(repeat: "weeks", weekdays: [2, 3, 4, 5, 6], times: [Time("18:00")], durationMinutes: 60)),
            Task(id: "salt-log", title: "Salty meals", instructions: "Log each meal with processed or salty food.", card: "log",
                 countsTowardAdherence: false, schedule: Schedule(allDayLabel: "Anytime")),
        ],
        contacts: [
            Contact(id: "dr-haddad", givenName: "Leila", familyName: "Haddad", role: "Adjusts the blood pressure treatment.",
                    title: "General Practitioner", phone: "(503) 555-0131", email: "l.haddad@example.org",
                    address: Address(street: "2801 N Gantenbein Ave", city: "Portland", state: "OR", postalCode: "97227", country: "United States")),
            Contact(id: "pharmacist-ito", givenName: "Ken", familyName: "Ito", role: "Answers questions about the medication.",
                    title: "Pharmacist", phone: "(503) 555-0164"),
        ])

    /// Wound care after surgery for two weeks: dressing every other day, a daily check for signs of infection,
    /// the temperature twice a day for the first week, and the antibiotic for seven days.
    public static let woundCare = OCKCarePlanTemplate(
        id: "wound-care", title: "Post-operative wound care",
        summary: "The first two weeks after surgery: dressing changes, checks for infection, temperature and the antibiotic.",
        tasks: [
            Task(id: "dressing-change", title: "Change the dressing",
                 instructions: "Wash your hands, remove the old dressing, clean around the wound with saline and apply a new dressing.",
                 card: "instructions", schedule: Schedule(every: 2, times: [Time("09:00")], durationMinutes: 60, lastDay: 13)),
            Task(id: "wound-check", title: "Check the wound",
                 instructions: "Look for redness spreading, swelling, warmth, pus or an opening wound. Call the nurse if you see any.",
                 card: "checklist", schedule: Schedule(times: [Time("20:00", label: "Evening")], durationMinutes: 60, lastDay: 13)),
            Task(id: "temperature", title: "Temperature", instructions: "Measure under the tongue. Call the nurse above 38 °C.",
                 card: "labeledValue",
                 schedule: Schedule(times: [Time("08:00", label: "Morning"), Time("20:00", label: "Evening")], durationMinutes: 60,
                                    lastDay: 6, targets: [Target(38, units: "°C")])),
            Task(id: "cefalexin", title: "Cefalexin", instructions: "Take 500 mg every six hours while awake, until the course is finished.",
                 card: "checklist",
                 schedule: Schedule(times: [Time("07:00"), Time("13:00"), Time("19:00")], durationMinutes: 120, lastDay: 6,
                                    targets: [Target(500, units: "mg", kind: "dose")])),
            Task(id: "pain", title: "Pain", instructions: "Log pain that does not ease with rest, from 0 to 10.", card: "log",
                 countsTowardAdherence: false, schedule: Schedule(allDayLabel: "Anytime", lastDay: 13)),
        ],
        contacts: [
            Contact(id: "nurse-park", givenName: "Jiwoo", familyName: "Park", role: "Wound care questions, day and night.",
                    title: "Surgical Nurse", phone: "(503) 555-0120", messaging: "(503) 555-0121", email: "j.park@example.org"),
            Contact(id: "dr-santos", givenName: "Maria", familyName: "Santos", role: "Performed the operation.", title: "Surgeon",
                    phone: "(503) 555-0150",
                    address: Address(street: "1120 SW Fifth Ave", city: "Portland", state: "OR", postalCode: "97205", country: "United States")),
        ])
}
