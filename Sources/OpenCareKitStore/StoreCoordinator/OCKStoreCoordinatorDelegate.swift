import Foundation

/// Decides which attached stores an `OCKStoreCoordinator` reads from and writes to, as in CareKit 4.
///
/// Every hook defaults to `true`: each attached store answers every query, and a write goes to the first store
/// attached (CareKit's HealthKit rules have no counterpart here: there is no HealthKit store on Linux).
public protocol OCKStoreCoordinatorDelegate: AnyObject, Sendable {
    /// Whether `store` answers `query`; the coordinator merges the answers of every store that does.
    func patientStore(_ store: any OCKAnyReadOnlyPatientStore, shouldHandleQuery query: OCKPatientQuery) -> Bool
    /// Whether `store` may write `patient`; a write goes to the first attached store that accepts every entity.
    func patientStore(_ store: any OCKAnyPatientStore, shouldHandleWritingPatient patient: any OCKAnyPatient) -> Bool
    /// Whether `store` answers `query`.
    func carePlanStore(_ store: any OCKAnyReadOnlyCarePlanStore, shouldHandleQuery query: OCKCarePlanQuery) -> Bool
    /// Whether `store` may write `plan`.
    func carePlanStore(_ store: any OCKAnyCarePlanStore, shouldHandleWritingCarePlan plan: any OCKAnyCarePlan) -> Bool
    /// Whether `store` answers `query`.
    func contactStore(_ store: any OCKAnyReadOnlyContactStore, shouldHandleQuery query: OCKContactQuery) -> Bool
    /// Whether `store` may write `contact`.
    func contactStore(_ store: any OCKAnyReadOnlyContactStore, shouldHandleWritingContact contact: any OCKAnyContact) -> Bool
    /// Whether `store` answers `query` (and the task part of event queries).
    func taskStore(_ store: any OCKAnyReadOnlyTaskStore, shouldHandleQuery query: OCKTaskQuery) -> Bool
    /// Whether `store` may write `task`.
    func taskStore(_ store: any OCKAnyReadOnlyTaskStore, shouldHandleWritingTask task: any OCKAnyTask) -> Bool
    /// Whether `store` answers `query`.
    func outcomeStore(_ store: any OCKAnyReadOnlyOutcomeStore, shouldHandleQuery query: OCKOutcomeQuery) -> Bool
    /// Whether `store` may write `outcome`.
    func outcomeStore(_ store: any OCKAnyReadOnlyOutcomeStore, shouldHandleWritingOutcome outcome: any OCKAnyOutcome) -> Bool
}

extension OCKStoreCoordinatorDelegate {
    /// Default: `true`.
    public func patientStore(_ store: any OCKAnyReadOnlyPatientStore, shouldHandleQuery query: OCKPatientQuery) -> Bool { true }
    /// Default: `true`.
    public func patientStore(_ store: any OCKAnyPatientStore, shouldHandleWritingPatient patient: any OCKAnyPatient) -> Bool { true }
    /// Default: `true`.
    public func carePlanStore(_ store: any OCKAnyReadOnlyCarePlanStore, shouldHandleQuery query: OCKCarePlanQuery) -> Bool { true }
    /// Default: `true`.
    public func carePlanStore(_ store: any OCKAnyCarePlanStore, shouldHandleWritingCarePlan plan: any OCKAnyCarePlan) -> Bool { true }
    /// Default: `true`.
    public func contactStore(_ store: any OCKAnyReadOnlyContactStore, shouldHandleQuery query: OCKContactQuery) -> Bool { true }
    /// Default: `true`.
    public func contactStore(_ store: any OCKAnyReadOnlyContactStore, shouldHandleWritingContact contact: any OCKAnyContact) -> Bool { true }
    /// Default: `true`.
    public func taskStore(_ store: any OCKAnyReadOnlyTaskStore, shouldHandleQuery query: OCKTaskQuery) -> Bool { true }
    /// Default: `true`.
    public func taskStore(_ store: any OCKAnyReadOnlyTaskStore, shouldHandleWritingTask task: any OCKAnyTask) -> Bool { true }
    /// Default: `true`.
    public func outcomeStore(_ store: any OCKAnyReadOnlyOutcomeStore, shouldHandleQuery query: OCKOutcomeQuery) -> Bool { true }
    /// Default: `true`.
    public func outcomeStore(_ store: any OCKAnyReadOnlyOutcomeStore, shouldHandleWritingOutcome outcome: any OCKAnyOutcome) -> Bool { true }
}
