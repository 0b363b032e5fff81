import Foundation

// A store written for CareKit implements the callback forms of the store protocols (`fetchPatients(query:callbackQueue:
// completion:)`, …); one written for OpenCareKit, the async forms. Each protocol requires both, and each form has a
// default made from the other, so that a store implementing either conforms. A store implementing neither would
// call itself back and forth for ever: the default async form marks the operation in the task while it waits for the
// callback form, and the default callback form refuses to run inside it — a trap naming the store and the
// operation, on the first call.

/// The store operations whose async form is waiting on their callback form in the current task, by store type.
enum StoreForms {
    @TaskLocal static var bridging: Set<String> = []

    static func key(_ store: Any.Type, _ operation: String) -> String {
        "\(String(reflecting: store)).\(operation)"
    }

    /// The default async form of `operation`: its callback form (`call`), awaited.
    static func awaiting<T: Sendable>(_ store: Any.Type, _ operation: String,
                                      _ call: (@escaping OCKResultClosure<T>) -> Void) async throws -> T {
        try await $bridging.withValue(bridging.union([key(store, operation)])) {
            try await withCheckedThrowingContinuation { continuation in
                call { continuation.resume(with: $0) }
            }
        }
    }

    /// Called by the default callback form of `operation`: traps if the store's async form is the default too.
    static func checkImplemented(_ store: Any.Type, _ operation: String) {
        if bridging.contains(key(store, operation)) {
            fatalError("\(String(reflecting: store)) implements neither form of \(operation): a store implements its async form or CareKit's callback form (callbackQueue:completion:).")
        }
    }
}

extension OCKAnyReadOnlyPatientStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchAnyPatients(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient] {
        try await StoreForms.awaiting(Self.self, "fetchAnyPatients") { fetchAnyPatients(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyPatientStore {
    /// Default for a store written for CareKit: calls the callback form, `addAnyPatients(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await StoreForms.awaiting(Self.self, "addAnyPatients") { addAnyPatients(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `updateAnyPatients(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func updateAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await StoreForms.awaiting(Self.self, "updateAnyPatients") { updateAnyPatients(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `deleteAnyPatients(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func deleteAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await StoreForms.awaiting(Self.self, "deleteAnyPatients") { deleteAnyPatients(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKReadablePatientStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchPatients(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchPatients(query: OCKPatientQuery) async throws -> [Patient] {
        try await StoreForms.awaiting(Self.self, "fetchPatients") { fetchPatients(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKPatientStore {
    /// Default for a store written for CareKit: calls the callback form, `addPatients(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addPatients(_ values: [Patient]) async throws -> [Patient] {
        try await StoreForms.awaiting(Self.self, "addPatients") { addPatients(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `updatePatients(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func updatePatients(_ values: [Patient]) async throws -> [Patient] {
        try await StoreForms.awaiting(Self.self, "updatePatients") { updatePatients(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `deletePatients(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func deletePatients(_ values: [Patient]) async throws -> [Patient] {
        try await StoreForms.awaiting(Self.self, "deletePatients") { deletePatients(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyReadOnlyCarePlanStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchAnyCarePlans(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither
    /// form traps on the first call.
    public func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan] {
        try await StoreForms.awaiting(Self.self, "fetchAnyCarePlans") { fetchAnyCarePlans(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyCarePlanStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `addAnyCarePlans(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await StoreForms.awaiting(Self.self, "addAnyCarePlans") { addAnyCarePlans(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `updateAnyCarePlans(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await StoreForms.awaiting(Self.self, "updateAnyCarePlans") { updateAnyCarePlans(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `deleteAnyCarePlans(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await StoreForms.awaiting(Self.self, "deleteAnyCarePlans") { deleteAnyCarePlans(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKReadableCarePlanStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchCarePlans(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchCarePlans(query: OCKCarePlanQuery) async throws -> [Plan] {
        try await StoreForms.awaiting(Self.self, "fetchCarePlans") { fetchCarePlans(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKCarePlanStore {
    /// Default for a store written for CareKit: calls the callback form, `addCarePlans(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addCarePlans(_ values: [Plan]) async throws -> [Plan] {
        try await StoreForms.awaiting(Self.self, "addCarePlans") { addCarePlans(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `updateCarePlans(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func updateCarePlans(_ values: [Plan]) async throws -> [Plan] {
        try await StoreForms.awaiting(Self.self, "updateCarePlans") { updateCarePlans(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `deleteCarePlans(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func deleteCarePlans(_ values: [Plan]) async throws -> [Plan] {
        try await StoreForms.awaiting(Self.self, "deleteCarePlans") { deleteCarePlans(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyReadOnlyContactStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchAnyContacts(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact] {
        try await StoreForms.awaiting(Self.self, "fetchAnyContacts") { fetchAnyContacts(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyContactStore {
    /// Default for a store written for CareKit: calls the callback form, `addAnyContacts(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await StoreForms.awaiting(Self.self, "addAnyContacts") { addAnyContacts(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `updateAnyContacts(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func updateAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await StoreForms.awaiting(Self.self, "updateAnyContacts") { updateAnyContacts(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `deleteAnyContacts(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func deleteAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await StoreForms.awaiting(Self.self, "deleteAnyContacts") { deleteAnyContacts(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKReadableContactStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchContacts(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchContacts(query: OCKContactQuery) async throws -> [Contact] {
        try await StoreForms.awaiting(Self.self, "fetchContacts") { fetchContacts(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKContactStore {
    /// Default for a store written for CareKit: calls the callback form, `addContacts(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addContacts(_ values: [Contact]) async throws -> [Contact] {
        try await StoreForms.awaiting(Self.self, "addContacts") { addContacts(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `updateContacts(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func updateContacts(_ values: [Contact]) async throws -> [Contact] {
        try await StoreForms.awaiting(Self.self, "updateContacts") { updateContacts(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `deleteContacts(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func deleteContacts(_ values: [Contact]) async throws -> [Contact] {
        try await StoreForms.awaiting(Self.self, "deleteContacts") { deleteContacts(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyReadOnlyTaskStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchAnyTasks(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask] {
        try await StoreForms.awaiting(Self.self, "fetchAnyTasks") { fetchAnyTasks(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyTaskStore {
    /// Default for a store written for CareKit: calls the callback form, `addAnyTasks(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await StoreForms.awaiting(Self.self, "addAnyTasks") { addAnyTasks(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `updateAnyTasks(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func updateAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await StoreForms.awaiting(Self.self, "updateAnyTasks") { updateAnyTasks(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `deleteAnyTasks(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func deleteAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await StoreForms.awaiting(Self.self, "deleteAnyTasks") { deleteAnyTasks(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKReadableTaskStore {
    /// Default for a store written for CareKit: calls the callback form, `fetchTasks(query:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    public func fetchTasks(query: OCKTaskQuery) async throws -> [Task] {
        try await StoreForms.awaiting(Self.self, "fetchTasks") { fetchTasks(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKTaskStore {
    /// Default for a store written for CareKit: calls the callback form, `addTasks(_:callbackQueue:completion:)`, and
    /// awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addTasks(_ values: [Task]) async throws -> [Task] {
        try await StoreForms.awaiting(Self.self, "addTasks") { addTasks(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `updateTasks(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func updateTasks(_ values: [Task]) async throws -> [Task] {
        try await StoreForms.awaiting(Self.self, "updateTasks") { updateTasks(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `deleteTasks(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func deleteTasks(_ values: [Task]) async throws -> [Task] {
        try await StoreForms.awaiting(Self.self, "deleteTasks") { deleteTasks(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyReadOnlyOutcomeStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchAnyOutcomes(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchAnyOutcomes(query: OCKOutcomeQuery) async throws -> [any OCKAnyOutcome] {
        try await StoreForms.awaiting(Self.self, "fetchAnyOutcomes") { fetchAnyOutcomes(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKAnyOutcomeStore {
    /// Default for a store written for CareKit: calls the callback form, `addAnyOutcomes(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await StoreForms.awaiting(Self.self, "addAnyOutcomes") { addAnyOutcomes(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `updateAnyOutcomes(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await StoreForms.awaiting(Self.self, "updateAnyOutcomes") { updateAnyOutcomes(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form,
    /// `deleteAnyOutcomes(_:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    @discardableResult
    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await StoreForms.awaiting(Self.self, "deleteAnyOutcomes") { deleteAnyOutcomes(values, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKReadableOutcomeStore {
    /// Default for a store written for CareKit: calls the callback form,
    /// `fetchOutcomes(query:callbackQueue:completion:)`, and awaits its result. A store that implements neither form
    /// traps on the first call.
    public func fetchOutcomes(query: OCKOutcomeQuery) async throws -> [Outcome] {
        try await StoreForms.awaiting(Self.self, "fetchOutcomes") { fetchOutcomes(query: query, callbackQueue: .global(), completion: $0) }
    }
}

extension OCKOutcomeStore {
    /// Default for a store written for CareKit: calls the callback form, `addOutcomes(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func addOutcomes(_ values: [Outcome]) async throws -> [Outcome] {
        try await StoreForms.awaiting(Self.self, "addOutcomes") { addOutcomes(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `updateOutcomes(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func updateOutcomes(_ values: [Outcome]) async throws -> [Outcome] {
        try await StoreForms.awaiting(Self.self, "updateOutcomes") { updateOutcomes(values, callbackQueue: .global(), completion: $0) }
    }
    /// Default for a store written for CareKit: calls the callback form, `deleteOutcomes(_:callbackQueue:completion:)`,
    /// and awaits its result. A store that implements neither form traps on the first call.
    @discardableResult
    public func deleteOutcomes(_ values: [Outcome]) async throws -> [Outcome] {
        try await StoreForms.awaiting(Self.self, "deleteOutcomes") { deleteOutcomes(values, callbackQueue: .global(), completion: $0) }
    }
}
