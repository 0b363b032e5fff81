import Foundation

/// A task of any type, as stores and views see it. `OCKTask` is the concrete one.
public protocol OCKAnyTask: Sendable {
    /// The user-chosen identifier shared by every version of the task, such as `"ibuprofen"`.
    var id: String { get }
    /// The name the patient sees, such as "Ibuprofen 200 mg".
    var title: String? { get }
    /// What the patient should do, such as "Take with food".
    var instructions: String? { get }
    /// Whether the task counts toward adherence (the completion rings); true by default for ``OCKTask``. A task such as
    /// "as needed" pain medication sets it to false.
    var impactsAdherence: Bool { get }
    /// When the task's events happen; each event is one occurrence the patient can complete.
    var schedule: OCKSchedule { get }
    /// A free-form identifier the app uses to group tasks; task queries can filter on it.
    var groupIdentifier: String? { get }
    /// The identifier of this version of the task; outcomes record the version they belong to by it.
    var uuid: UUID { get }
    /// The name of an image or other asset the app shows with the task.
    var asset: String? { get }
    /// The task's identifier on a remote server, if it has one.
    var remoteID: String? { get }
    /// Notes attached to this version of the task.
    var notes: [OCKNote]? { get }
    /// When this version starts to apply: events from this date on belong to it, earlier ones to the versions before
    /// it.
    var effectiveDate: Date { get }
    /// Whether the task belongs to `plan`: for ``OCKTask``, whether its `carePlanUUID` is the `uuid` of that plan
    /// version.
    func belongs(to plan: OCKAnyCarePlan) -> Bool
}

/// A task whose versions are linked, so stores can walk its history (CareKit uses it to compute events).
public protocol OCKAnyVersionableTask: OCKAnyTask {
    /// The uuids of the versions this version replaces (empty for the first version).
    var previousVersionUUIDs: [UUID] { get }
    /// The uuids of the versions that replace this one (empty for the newest version).
    var nextVersionUUIDs: [UUID] { get }
}

/// An outcome of any type: the values recorded for one occurrence of a task.
public protocol OCKAnyOutcome: Sendable {
    /// The outcome's identifier, shared by all of its versions.
    var id: String { get }
    /// The `uuid` of the task version whose event the outcome records.
    var taskUUID: UUID { get }
    /// The occurrence of the task's schedule the outcome records (0 is the first event).
    var taskOccurrenceIndex: Int { get }
    /// The recorded values, such as `true` for "done" or a dose; may be empty.
    var values: [OCKOutcomeValue] { get set }
    /// The outcome's identifier on a remote server, if it has one.
    var remoteID: String? { get }
    /// A free-form identifier the app uses to group outcomes.
    var groupIdentifier: String? { get }
    /// Notes attached to the outcome, such as the patient's comment on a dose.
    var notes: [OCKNote]? { get }
    /// Whether the outcome records an occurrence of `task`: whether its `taskUUID` is that task version's `uuid`.
    func belongs(to task: OCKAnyTask) -> Bool
}

/// A patient of any type.
public protocol OCKAnyPatient: Sendable {
    /// The patient's identifier, shared by all versions of the patient.
    var id: String { get }
    /// The patient's name.
    var name: PersonNameComponents { get }
    /// The patient's biological sex, if recorded.
    var sex: OCKBiologicalSex? { get }
    /// The patient's date of birth, if recorded.
    var birthday: Date? { get }
    /// The patient's allergies, as free text.
    var allergies: [String]? { get }
    /// The patient's identifier on a remote server, if it has one.
    var remoteID: String? { get }
    /// A free-form identifier the app uses to group patients.
    var groupIdentifier: String? { get }
    /// Notes attached to this version of the patient.
    var notes: [OCKNote]? { get }
    /// When this version of the patient starts to apply.
    var effectiveDate: Date { get }
}

/// A care plan of any type.
public protocol OCKAnyCarePlan: Sendable {
    /// The plan's identifier, shared by all versions of the plan.
    var id: String { get }
    /// The plan's name, such as "Knee rehabilitation".
    var title: String { get }
    /// The plan's identifier on a remote server, if it has one.
    var remoteID: String? { get }
    /// A free-form identifier the app uses to group plans.
    var groupIdentifier: String? { get }
    /// Notes attached to this version of the plan.
    var notes: [OCKNote]? { get }
    /// When this version of the plan starts to apply.
    var effectiveDate: Date { get }
    /// Whether the plan belongs to `patient`: for ``OCKCarePlan``, whether its `patientUUID` is the `uuid` of that
    /// patient version.
    func belongs(to patient: OCKAnyPatient) -> Bool
}

/// A contact of any type.
public protocol OCKAnyContact: Sendable {
    /// The contact's identifier, shared by all versions of the contact.
    var id: String { get }
    /// The contact's name.
    var name: PersonNameComponents { get }
    /// The contact's postal address.
    var address: OCKPostalAddress? { get }
    /// Email addresses, each with a label such as "work".
    var emailAddresses: [OCKLabeledValue]? { get }
    /// Numbers that receive text messages, each with a label.
    var messagingNumbers: [OCKLabeledValue]? { get }
    /// Phone numbers, each with a label such as "mobile".
    var phoneNumbers: [OCKLabeledValue]? { get }
    /// Other ways to reach the contact (a website, a pager), each with a label.
    var otherContactInfo: [OCKLabeledValue]? { get }
    /// The organization the contact works for, such as a clinic.
    var organization: String? { get }
    /// The contact's professional title, such as "MD".
    var title: String? { get }
    /// The contact's role in the patient's care, such as "Physiotherapist".
    var role: String? { get }
    /// The name of an image or other asset the app shows with the contact, such as a photo.
    var asset: String? { get }
    /// Whether the contact is a care provider or a friend or family member.
    var category: OCKContactCategory? { get }
    /// The contact's identifier on a remote server, if it has one.
    var remoteID: String? { get }
    /// A free-form identifier the app uses to group contacts.
    var groupIdentifier: String? { get }
    /// Notes attached to this version of the contact.
    var notes: [OCKNote]? { get }
    /// When this version of the contact starts to apply.
    var effectiveDate: Date { get }
    /// Whether the contact belongs to `plan`: for ``OCKContact``, whether its `carePlanUUID` is the `uuid` of that plan
    /// version.
    func belongs(to plan: OCKAnyCarePlan) -> Bool
    /// Whether `other` is a contact of the same type with equal fields (the same version, with the same values).
    func isEqual(to other: OCKAnyContact) -> Bool
}
