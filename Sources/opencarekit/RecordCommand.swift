import ArgumentParser
import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys

/// `opencarekit record …`: care records and who has access to them.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record", abstract: "Add care records, share them and list them.",
        subcommands: [RecordAdd.self, RecordShare.self, RecordList.self])
}

extension CareRole: ExpressibleByArgument {}

struct RecordAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a care record; prints its id.")
    @OptionGroup var options: DataOptions
    @Option(help: "The patient's name, as the care team sees it in lists.") var patientName: String
    @Option(help: "The email of the account that owns the record and manages who has access.") var owner: String
    @Option(help: "The owner's role: patient (the record is theirs), or caregiver (for a patient without an account).")
    var ownerRole: CareRole = .patient
    @Flag(help: "Seed the demo care plan, onboarding included.") var demoPlan = false
    @Option(help: "With --demo-plan: finish its onboarding today, the consent signed with this typed name (until then the plan's outcomes cannot be recorded).")
    var signedBy: String?
    @Option(help: "The patient's IANA time zone (default: this machine's).") var zone: String = TimeZone.current.identifier

    func run() async throws {
        let name = patientName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else { throw ValidationError("--patient-name: from 1 to 200 characters") }
        guard let timeZone = TimeZone(identifier: zone) else { throw ValidationError("--zone: not a known time zone identifier") }
        guard ownerRole != .clinician else { throw ValidationError("--owner-role: patient or caregiver") }
        let signer = try StoreSeedDemo.signer(signedBy)
        if signer != nil, !demoPlan { throw ValidationError("--signed-by: only with --demo-plan") }
        let demoPlan = demoPlan, ownerRole = ownerRole, options = options
        let record = CareRecord(patientName: name, timeZoneIdentifier: timeZone.identifier,
                                carePlan: demoPlan ? CarePlanCatalog.demo : nil, createdDate: Date())
        try await options.withData { data in
            let account = try await options.account(owner, in: data.directory)
            let store = try data.stores.store(for: record)
            try store.open()
            CarePlanCatalog.installRules(on: store, for: record)
            if demoPlan {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                try await OCKDemoCarePlan(calendar: calendar, start: calendar.startOfDay(for: record.createdDate)).seed(into: store)
                if let signer {
                    try await OCKDemoSurveys.completeOnboarding(in: store, on: record.createdDate, calendar: calendar, signerName: signer)
                }
            }
            try await data.directory.addRecord(record, member: CareMembership(record: record.id, account: account.id, role: ownerRole,
                                                                              isOwner: true, createdDate: record.createdDate))
            try await data.audit(record: record.id, resource: "record", .create, command: "record add")
        }
        print(record.id)
    }
}

struct RecordShare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Give an account a role in a record (or change its role).")
    @OptionGroup var options: DataOptions
    @Argument(help: "The record's id.") var record: String
    @Option(help: "The email of the account to share with.") var email: String
    @Option(help: "caregiver, clinician, or patient (for a record adopted without one).") var role: CareRole

    func run() async throws {
        guard let id = CareRecordID(record) else { throw ValidationError("RECORD: not a record id") }
        let email = email, role = role, options = options
        let ownsIt = try await options.withData { data in
            let directory = data.directory
            guard try await directory.record(id) != nil else { throw ValidationError("there is no such record") }
            let account = try await options.account(email, in: directory)
            let members = try await directory.members(of: id)
            let existing = members.first { $0.account.id == account.id }?.membership
            // The first patient or caregiver of a record without an owner (one adopted from before records) owns it.
            let ownsIt = existing?.isOwner ?? (!members.contains { $0.membership.isOwner } && role != .clinician)
            do {
                try await directory.setMembership(CareMembership(record: id, account: account.id, role: role, isOwner: ownsIt,
                                                                 createdDate: existing?.createdDate ?? Date()))
            } catch let error as CareDirectoryError {
                throw ValidationError(error.reason)
            }
            try await data.audit(record: id, resource: "membership", existing == nil ? .create : .update,
                                 command: "record share (account \(account.id))")
            return ownsIt
        }
        print("\(email) is now \(role.rawValue)\(ownsIt ? " and owner" : "") of record \(id).")
    }
}

struct RecordList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the records: id, patient, time zone, members.")
    @OptionGroup var options: DataOptions

    func run() async throws {
        try await options.withData { data in
            let directory = data.directory
            try await data.audit(record: nil, resource: "record", .read, command: "record list")
            var after: CareRecordID?
            while true {
                let page = try await directory.records(limit: 500, after: after)
                for record in page {
                    let members = try await directory.members(of: record.id).map { member in
                        "\(member.account.email) (\(member.membership.role.rawValue)\(member.membership.isOwner ? ", owner" : ""))"
                    }
                    print([record.id.description, record.patientName, record.timeZoneIdentifier,
                           members.isEmpty ? "no members" : members.joined(separator: ", ")].joined(separator: "\t"))
                }
                guard let last = page.last else { break }
                after = last.id
            }
        }
    }
}
