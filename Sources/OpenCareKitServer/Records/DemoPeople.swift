import Foundation
import OpenCareKit
import OpenCareKitStore

/// The people of `serve --demo`: Alex, a patient recovering from knee surgery; Sam, her daughter and caregiver;
/// and Dr. Jordan Lee, her clinician. All share the password `demoPassword`.
public enum DemoPeople {
    public static let patientEmail = "alex@example.org"
    public static let caregiverEmail = "sam@example.org"
    public static let clinicianEmail = "jordan.lee@example.org"
    /// Printed by `serve --demo`, which offers one-click sign-in on loopback anyway.
    public static let demoPassword = "opencarekit-demo"

    public static var emails: [String] { [patientEmail, caregiverEmail, clinicianEmail] }

    /// Creates the demo people and Alex's record with the demo care plan, unless they exist.
    ///
    /// - Returns: Whether anything was created.
    @discardableResult
    public static func ensure(in directory: any CareDirectory, data: CareDataDirectory, calendar: Calendar, now: Date,
                              passwordCost: UInt8 = 12) async throws -> Bool {
        guard try await directory.account(email: patientEmail) == nil else { return false }
        let hash = try await Passwords.hash(demoPassword, cost: passwordCost)
        let alex = CareAccount(email: patientEmail, name: "Alex Rivera", passwordHash: hash, createdDate: now)
        let sam = CareAccount(email: caregiverEmail, name: "Sam Rivera", passwordHash: hash, createdDate: now)
        let jordan = CareAccount(email: clinicianEmail, name: "Dr. Jordan Lee", passwordHash: hash, createdDate: now)
        for account in [alex, sam, jordan] where try await directory.account(email: account.email) == nil {
            try await directory.addAccount(account)
        }
        let record = CareRecord(patientName: "Alex Rivera", timeZoneIdentifier: calendar.timeZone.identifier,
                                carePlan: CarePlanCatalog.demo, createdDate: now)
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: alex.id, role: .patient,
                                                                     isOwner: true, createdDate: now))
        try await directory.setMembership(CareMembership(record: record.id, account: sam.id, role: .caregiver, isOwner: false, createdDate: now))
        try await directory.setMembership(CareMembership(record: record.id, account: jordan.id, role: .clinician, isOwner: false, createdDate: now))
        let store = try data.store(for: record)
        try store.open()
        try await OCKDemoCarePlan(calendar: calendar, start: calendar.startOfDay(for: now)).seed(into: store)
        return true
    }
}
