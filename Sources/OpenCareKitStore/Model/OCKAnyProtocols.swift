import Foundation

/// A task of any type, as stores and views see it. `OCKTask` is the concrete one.
public protocol OCKAnyTask: Sendable {
    var id: String { get }
    var title: String? { get }
    var instructions: String? { get }
    /// Whether the task counts toward adherence (the completion rings).
    var impactsAdherence: Bool { get }
    var schedule: OCKSchedule { get }
    var groupIdentifier: String? { get }
    var uuid: UUID { get }
    var asset: String? { get }
    var remoteID: String? { get }
    var notes: [OCKNote]? { get }
    var effectiveDate: Date { get }
    /// Whether the task belongs to `plan`.
    func belongs(to plan: OCKAnyCarePlan) -> Bool
}

/// A task whose versions are linked, so stores can walk its history (CareKit uses it to compute events).
public protocol OCKAnyVersionableTask: OCKAnyTask {
    var previousVersionUUIDs: [UUID] { get }
    var nextVersionUUIDs: [UUID] { get }
}

/// An outcome of any type: the values recorded for one occurrence of a task.
public protocol OCKAnyOutcome: Sendable {
    var id: String { get }
    var taskUUID: UUID { get }
    var taskOccurrenceIndex: Int { get }
    var values: [OCKOutcomeValue] { get set }
    var remoteID: String? { get }
    var groupIdentifier: String? { get }
    var notes: [OCKNote]? { get }
    /// Whether the outcome records an occurrence of `task`.
    func belongs(to task: OCKAnyTask) -> Bool
}

/// A patient of any type.
public protocol OCKAnyPatient: Sendable {
    var id: String { get }
    var name: PersonNameComponents { get }
    var sex: OCKBiologicalSex? { get }
    var birthday: Date? { get }
    var allergies: [String]? { get }
    var remoteID: String? { get }
    var groupIdentifier: String? { get }
    var notes: [OCKNote]? { get }
    var effectiveDate: Date { get }
}

/// A care plan of any type.
public protocol OCKAnyCarePlan: Sendable {
    var id: String { get }
    var title: String { get }
    var remoteID: String? { get }
    var groupIdentifier: String? { get }
    var notes: [OCKNote]? { get }
    var effectiveDate: Date { get }
    /// Whether the plan belongs to `patient`.
    func belongs(to patient: OCKAnyPatient) -> Bool
}

/// A contact of any type.
public protocol OCKAnyContact: Sendable {
    var id: String { get }
    var name: PersonNameComponents { get }
    var address: OCKPostalAddress? { get }
    var emailAddresses: [OCKLabeledValue]? { get }
    var messagingNumbers: [OCKLabeledValue]? { get }
    var phoneNumbers: [OCKLabeledValue]? { get }
    var otherContactInfo: [OCKLabeledValue]? { get }
    var organization: String? { get }
    var title: String? { get }
    var role: String? { get }
    var asset: String? { get }
    var category: OCKContactCategory? { get }
    var remoteID: String? { get }
    var groupIdentifier: String? { get }
    var notes: [OCKNote]? { get }
    var effectiveDate: Date { get }
    /// Whether the contact belongs to `plan`.
    func belongs(to plan: OCKAnyCarePlan) -> Bool
    /// Whether `other` is the same contact value.
    func isEqual(to other: OCKAnyContact) -> Bool
}
