import Foundation

/// HealthKit tasks, as a CareKit device's `OCKHealthKitPassthroughStore` keeps them in its `OCKStore` (where CareKit
/// keeps these methods internal): versioned like tasks, queried with an `OCKTaskQuery`, and synchronized. Their
/// outcomes are HealthKit samples on the device, so there are no events or outcomes of them here.
extension OCKStore {
    /// A live query for HealthKit tasks: the matching versions now, then again after each change to HealthKit tasks
    /// that changes them.
    public func healthKitTasks(matching query: OCKTaskQuery) -> some AsyncSequence<[OCKHealthKitTask], any Error> & Sendable {
        liveQuery(.healthKitTasks) { try await self.fetchHealthKitTasks(query: query) }
    }

    /// The matching HealthKit task versions, by `fetchTasks(query:)`'s rules.
    public func fetchHealthKitTasks(query: OCKTaskQuery) async throws -> [OCKHealthKitTask] {
        try await fetchTaskVersions(OCKHealthKitTask.self, query: query)
    }

    /// Adds HealthKit tasks; an id that was deleted can be used again, as with tasks.
    @discardableResult
    public func addHealthKitTasks(_ tasks: [OCKHealthKitTask]) async throws -> [OCKHealthKitTask] {
        try await addVersions(tasks, .healthKitTasks, reusingDeletedIDs: true)
    }

    /// Appends new versions (there are no outcomes here for an update to hide).
    @discardableResult
    public func updateHealthKitTasks(_ tasks: [OCKHealthKitTask]) async throws -> [OCKHealthKitTask] {
        try await updateVersions(tasks, .healthKitTasks)
    }

    /// Deletes HealthKit tasks by id, each by a tombstone after its newest version, as with tasks.
    @discardableResult
    public func deleteHealthKitTasks(_ tasks: [OCKHealthKitTask]) async throws -> [OCKHealthKitTask] {
        try await deleteVersions(tasks, .healthKitTasks)
    }
}
