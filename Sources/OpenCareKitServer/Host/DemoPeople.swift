import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore

/// The people of `serve --demo`: Alex, a patient recovering from knee surgery; Sam, her daughter and caregiver;
/// and Dr. Jordan Lee, her clinician, who also follows a dozen other patients on the same plan, each with a few
/// weeks of history and habits of their own (some keep to the plan, some miss doses, some report high pain), and
/// each owning their record. All share the password `demoPassword`.
public enum DemoPeople {
    /// Alex Rivera's sign-in email: the patient, and the owner of her record.
    public static let patientEmail = "alex@example.org"
    /// Sam Rivera's sign-in email: Alex's caregiver, a member of her record who does not own it.
    public static let caregiverEmail = "sam@example.org"
    /// Dr. Jordan Lee's sign-in email: the clinician of Alex's record and of every other demo patient's.
    public static let clinicianEmail = "jordan.lee@example.org"
    /// Printed by `serve --demo`, which offers one-click sign-in on loopback anyway.
    public static let demoPassword = "opencarekit-demo"

    /// The people the sign-in page offers one-click sign-in as.
    public static var emails: [String] { [patientEmail, caregiverEmail, clinicianEmail] }

    /// How many patients Dr. Lee follows besides Alex, by default.
    public static var defaultClinicSize: Int { clinicPatients.count }
    /// The most `serve --demo-patients` makes.
    public static let maximumClinicSize = 1_000

    /// Dr. Lee's other patients: given and family name, time zone (nil: the server's), days on the plan, habits.
    static let clinicPatients: [(given: String, family: String, zone: String?, days: Int, habits: DemoHistory.Habits)] = [
        ("Maria", "Santos", nil, 27, .init(adherence: 0.97, pain: 2)),
        ("Min-jun", "Park", "Asia/Seoul", 24, .init(adherence: 0.93, pain: 2)),
        ("Aisha", "Bello", nil, 21, .init(adherence: 0.88, pain: 3)),
        ("Tom", "Becker", nil, 26, .init(adherence: 0.82, pain: 4)),
        ("Noah", "Williams", nil, 18, .init(adherence: 0.78, pain: 4, painSpike: true)),
        ("Priya", "Nair", "Europe/London", 23, .init(adherence: 0.7, pain: 4)),
        ("Daniel", "Kim", nil, 28, .init(adherence: 0.6, pain: 5)),
        ("Grace", "O'Neill", nil, 20, .init(adherence: 0.5, pain: 7.5)),
        ("Lucas", "Moreau", nil, 25, .init(adherence: 0.4, pain: 5)),
        ("Fatima", "Haddad", nil, 22, .init(adherence: 0.65, pain: 4, quietDays: 5)),
        ("Elena", "Rossi", nil, 27, .init(adherence: 0.3, pain: 6, quietDays: 9)),
        ("Samuel", "Okafor", nil, 15, .init(adherence: 0.9, pain: 8)),
    ]

    /// The `index`th of Dr. Lee's other patients: the named ones, then (for a larger clinic, as in the benchmark)
    /// made-up ones with numbered names and habits spread the same way.
    static func clinicPatient(_ index: Int) -> (given: String, family: String, zone: String?, days: Int, habits: DemoHistory.Habits) {
        if index < clinicPatients.count { return clinicPatients[index] }
        var patient = clinicPatients[index % clinicPatients.count]
        patient.family += " \(index / clinicPatients.count + 1)"
        return patient
    }

    /// The email of a clinic patient: `maria.santos@example.org`.
    static func email(given: String, family: String) -> String {
        let letters = (given + "." + family).lowercased().map { $0 == " " ? "." : $0 }
            .filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return letters + "@example.org"
    }

    /// Creates the demo people, Alex's record with the demo care plan (not onboarded yet, so a newcomer sees the
    /// onboarding), and Dr. Lee's other patients with their histories, unless they exist.
    ///
    /// - Returns: Whether anything was created.
    @discardableResult
    public static func ensure(in directory: any CareDirectory, stores: any CareRecordStores, calendar: Calendar, now: Date,
                              passwordCost: UInt8 = 12, clinicSize: Int = defaultClinicSize) async throws -> Bool {
        guard try await directory.account(email: patientEmail) == nil else { return false }
        // One hash for everyone: they share the password, and bcrypt is slow on purpose.
        let hash = try await Passwords.hash(demoPassword, cost: passwordCost)
        let alex = CareAccount(email: patientEmail, name: "Alex Rivera", passwordHash: hash, createdDate: now)
        let sam = CareAccount(email: caregiverEmail, name: "Sam Rivera", passwordHash: hash, createdDate: now)
        let jordan = CareAccount(email: clinicianEmail, name: "Dr. Jordan Lee", passwordHash: hash, createdDate: now)
        do {
            try await directory.addAccount(alex)
        } catch let error as CareDirectoryError where error.kind == .emailTaken {
            // Another server starting on the same database got there first, and adds the rest.
            return false
        }
        for account in [sam, jordan] where try await directory.account(email: account.email) == nil {
            try await directory.addAccount(account)
        }
        let record = CareRecord(patientName: "Alex Rivera", timeZoneIdentifier: calendar.timeZone.identifier,
                                carePlan: CarePlanCatalog.demo, createdDate: now)
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: alex.id, role: .patient,
                                                                     isOwner: true, createdDate: now))
        try await directory.setMembership(CareMembership(record: record.id, account: sam.id, role: .caregiver, isOwner: false, createdDate: now))
        try await directory.setMembership(CareMembership(record: record.id, account: jordan.id, role: .clinician, isOwner: false, createdDate: now))
        let store = try stores.store(for: record)
        try store.open()
        CarePlanCatalog.installRules(on: store, for: record, now: { now })
        try await OCKDemoCarePlan(calendar: calendar, start: calendar.startOfDay(for: now)).seed(into: store)
        // A conversation: Sam asked yesterday evening, Dr. Lee answered (Alex has not read it yet); and a note the
        // care team alone sees.
        let asked = try await directory.startThread(CareThreadDraft(
            record: record.id, audience: .everyone, subject: "Swelling after the walk",
            body: "Alex's knee is swollen after today's walk. Should she skip tomorrow's exercises?"),
            by: sam.id, now: now.addingTimeInterval(-20 * 3_600))
        _ = try await directory.postMessage(
            thread: asked.thread.id, body: "Ice it for 20 minutes and keep it raised tonight. Do only the gentle exercises tomorrow, "
                + "and tell me how it looks in the evening.", by: jordan.id, now: now.addingTimeInterval(-19 * 3_600))
        _ = try await directory.startThread(CareThreadDraft(
            record: record.id, audience: .careTeam, subject: "Follow-up",
            body: "Watch the swelling; an ultrasound if it is still there on Friday."), by: jordan.id, now: now.addingTimeInterval(-19 * 3_600))

        // Two at a time: each is a store file, its plan and a few hundred outcomes.
        let patients = (0..<min(max(clinicSize, 0), maximumClinicSize)).map(clinicPatient)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, patient) in patients.enumerated() {
                if index >= 2 { try await group.next() }
                group.addTask {
                    try await addClinicPatient(patient, seed: UInt64(index + 1), clinician: jordan.id, hash: hash,
                                               directory: directory, stores: stores, calendar: calendar, now: now)
                }
            }
            try await group.waitForAll()
        }
        return true
    }

    private static func addClinicPatient(_ patient: (given: String, family: String, zone: String?, days: Int, habits: DemoHistory.Habits),
                                         seed: UInt64, clinician: CareAccountID, hash: String, directory: any CareDirectory,
                                         stores: any CareRecordStores, calendar serverCalendar: Calendar, now: Date) async throws {
        var calendar = serverCalendar
        if let zone = patient.zone, let timeZone = TimeZone(identifier: zone) { calendar.timeZone = timeZone }
        let name = patient.given + " " + patient.family
        let start = calendar.date(byAdding: .day, value: -patient.days, to: calendar.startOfDay(for: now)) ?? now
        let account = CareAccount(email: email(given: patient.given, family: patient.family), name: name, passwordHash: hash,
                                  createdDate: start)
        try await directory.addAccount(account)
        let record = CareRecord(patientName: name, timeZoneIdentifier: calendar.timeZone.identifier,
                                carePlan: CarePlanCatalog.demo, createdDate: start)
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: account.id, role: .patient,
                                                                     isOwner: true, createdDate: start))
        try await directory.setMembership(CareMembership(record: record.id, account: clinician, role: .clinician, isOwner: false,
                                                         createdDate: start))
        let store = try stores.store(for: record)
        try store.open()
        CarePlanCatalog.installRules(on: store, for: record, now: { now })
        try await DemoHistory.seed(into: store, calendar: calendar, days: patient.days, now: now, givenName: patient.given,
                                   familyName: patient.family, habits: patient.habits, seed: seed)
        // Those in the most pain have written to Dr. Lee, who has not read it yet.
        if patient.habits.pain >= 7.5, seed <= UInt64(clinicPatients.count) {
            _ = try await directory.startThread(CareThreadDraft(
                record: record.id, audience: .everyone, subject: "Pain at night",
                body: "The pain keeps me awake at night, even with the tablets. Is that expected?"),
                by: account.id, now: now.addingTimeInterval(-3 * 3_600))
        }
    }
}
