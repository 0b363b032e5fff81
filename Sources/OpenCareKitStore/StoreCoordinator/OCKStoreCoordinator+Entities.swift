import Foundation

// Each kind of entity's route (its stores, the delegate's hooks, the order answers merge in) and its part of the
// store protocols, each a use of the coordinator's routing (`OCKStoreCoordinator.swift`).

// MARK: Patients

extension OCKStoreCoordinator {
    private static let patients = Route<any OCKAnyReadOnlyPatientStore, any OCKAnyPatientStore, OCKPatientQuery, any OCKAnyPatient>(
        kind: "patients", readers: { $0.patientReaders }, writers: { $0.patientStores },
        answers: { $0.patientStore($1, shouldHandleQuery: $2) }, accepts: { $0.patientStore($1, shouldHandleWritingPatient: $2) },
        order: { query in
            var order = MergeOrder<any OCKAnyPatient>()
            for descriptor in query.sortDescriptors {
                switch descriptor {
                case let .groupIdentifier(ascending): order.by(ascending) { $0.groupIdentifier }
                case let .givenName(ascending): order.by(ascending) { $0.name.givenName }
                case let .familyName(ascending): order.by(ascending) { $0.name.familyName }
                case let .effectiveDate(ascending): order.by(ascending) { $0.effectiveDate }
                }
            }
            order.byNewestCreated()
            return order
        })

    /// Combines the live queries of every store whose delegate hook accepts `query` into one, merged in the query's
    /// order: a new result whenever any store yields one.
    public func anyPatients(matching query: OCKPatientQuery) -> CareStoreQueryResults<any OCKAnyPatient> {
        live(Self.patients, query) { $0.anyPatients(matching: $1) }
    }

    /// The patients of every store whose delegate hook accepts `query`, merged in the query's order, with its offset
    /// and limit applied to the merged result.
    public func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient] {
        try await fetch(Self.patients, query) { try await $0.fetchAnyPatients(query: $1) }
    }

    /// Adds `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.addFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func addAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await write(Self.patients, values, OCKStoreError.addFailed) { try await $0.addAnyPatients($1) }
    }

    /// Updates `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func updateAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await write(Self.patients, values, OCKStoreError.updateFailed) { try await $0.updateAnyPatients($1) }
    }

    /// Deletes `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func deleteAnyPatients(_ values: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await write(Self.patients, values, OCKStoreError.deleteFailed) { try await $0.deleteAnyPatients($1) }
    }
}

// MARK: CarePlans

extension OCKStoreCoordinator {
    private static let carePlans = Route<any OCKAnyReadOnlyCarePlanStore, any OCKAnyCarePlanStore, OCKCarePlanQuery, any OCKAnyCarePlan>(
        kind: "care plans", readers: { $0.planReaders }, writers: { $0.planStores },
        answers: { $0.carePlanStore($1, shouldHandleQuery: $2) }, accepts: { $0.carePlanStore($1, shouldHandleWritingCarePlan: $2) },
        order: { query in
            var order = MergeOrder<any OCKAnyCarePlan>()
            for descriptor in query.sortDescriptors {
                switch descriptor {
                case let .title(ascending): order.by(ascending) { $0.title }
                case let .effectiveDate(ascending): order.by(ascending) { $0.effectiveDate }
                }
            }
            order.byNewestCreated()
            return order
        })

    /// Combines the live queries of every store whose delegate hook accepts `query` into one, merged in the query's
    /// order: a new result whenever any store yields one.
    public func anyCarePlans(matching query: OCKCarePlanQuery) -> CareStoreQueryResults<any OCKAnyCarePlan> {
        live(Self.carePlans, query) { $0.anyCarePlans(matching: $1) }
    }

    /// The care plans of every store whose delegate hook accepts `query`, merged in the query's order, with its offset
    /// and limit applied to the merged result.
    public func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan] {
        try await fetch(Self.carePlans, query) { try await $0.fetchAnyCarePlans(query: $1) }
    }

    /// Adds `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.addFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await write(Self.carePlans, values, OCKStoreError.addFailed) { try await $0.addAnyCarePlans($1) }
    }

    /// Updates `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await write(Self.carePlans, values, OCKStoreError.updateFailed) { try await $0.updateAnyCarePlans($1) }
    }

    /// Deletes `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await write(Self.carePlans, values, OCKStoreError.deleteFailed) { try await $0.deleteAnyCarePlans($1) }
    }
}

// MARK: Contacts

extension OCKStoreCoordinator {
    private static let contacts = Route<any OCKAnyReadOnlyContactStore, any OCKAnyContactStore, OCKContactQuery, any OCKAnyContact>(
        kind: "contacts", readers: { $0.contactReaders }, writers: { $0.contactStores },
        answers: { $0.contactStore($1, shouldHandleQuery: $2) }, accepts: { $0.contactStore($1, shouldHandleWritingContact: $2) },
        order: { query in
            var order = MergeOrder<any OCKAnyContact>()
            for descriptor in query.sortDescriptors {
                switch descriptor {
                case let .givenName(ascending): order.by(ascending) { $0.name.givenName }
                case let .familyName(ascending): order.by(ascending) { $0.name.familyName }
                case let .effectiveDate(ascending): order.by(ascending) { $0.effectiveDate }
                }
            }
            order.byNewestCreated()
            return order
        })

    /// Combines the live queries of every store whose delegate hook accepts `query` into one, merged in the query's
    /// order: a new result whenever any store yields one.
    public func anyContacts(matching query: OCKContactQuery) -> CareStoreQueryResults<any OCKAnyContact> {
        live(Self.contacts, query) { $0.anyContacts(matching: $1) }
    }

    /// The contacts of every store whose delegate hook accepts `query`, merged in the query's order, with its offset
    /// and limit applied to the merged result.
    public func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact] {
        try await fetch(Self.contacts, query) { try await $0.fetchAnyContacts(query: $1) }
    }

    /// Adds `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.addFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func addAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await write(Self.contacts, values, OCKStoreError.addFailed) { try await $0.addAnyContacts($1) }
    }

    /// Updates `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func updateAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await write(Self.contacts, values, OCKStoreError.updateFailed) { try await $0.updateAnyContacts($1) }
    }

    /// Deletes `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func deleteAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await write(Self.contacts, values, OCKStoreError.deleteFailed) { try await $0.deleteAnyContacts($1) }
    }
}

// MARK: Tasks

extension OCKStoreCoordinator {
    private static let tasks = Route<any OCKAnyReadOnlyEventStore, any OCKAnyEventStore, OCKTaskQuery, any OCKAnyTask>(
        kind: "tasks", readers: { $0.eventReaders }, writers: { $0.eventStores },
        answers: { $0.taskStore($1, shouldHandleQuery: $2) }, accepts: { $0.taskStore($1, shouldHandleWritingTask: $2) },
        order: { query in
            var order = MergeOrder<any OCKAnyTask>()
            for descriptor in query.sortDescriptors {
                switch descriptor {
                case let .effectiveDate(ascending): order.by(ascending) { $0.effectiveDate }
                case let .groupIdentifier(ascending): order.by(ascending) { $0.groupIdentifier }
                case let .title(ascending): order.by(ascending) { $0.title }
                }
            }
            order.byNewestCreated()
            return order
        })

    /// Combines the live queries of every store whose delegate hook accepts `query` into one, merged in the query's
    /// order: a new result whenever any store yields one.
    public func anyTasks(matching query: OCKTaskQuery) -> CareStoreQueryResults<any OCKAnyTask> {
        live(Self.tasks, query) { $0.anyTasks(matching: $1) }
    }

    /// The tasks of every store whose delegate hook accepts `query`, merged in the query's order, with its offset and
    /// limit applied to the merged result.
    public func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask] {
        try await fetch(Self.tasks, query) { try await $0.fetchAnyTasks(query: $1) }
    }

    /// Adds `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.addFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func addAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await write(Self.tasks, values, OCKStoreError.addFailed) { try await $0.addAnyTasks($1) }
    }

    /// Updates `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func updateAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await write(Self.tasks, values, OCKStoreError.updateFailed) { try await $0.updateAnyTasks($1) }
    }

    /// Deletes `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func deleteAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await write(Self.tasks, values, OCKStoreError.deleteFailed) { try await $0.deleteAnyTasks($1) }
    }
}

// MARK: Outcomes

extension OCKStoreCoordinator {
    private static let outcomes = Route<any OCKAnyReadOnlyEventStore, any OCKAnyEventStore, OCKOutcomeQuery, any OCKAnyOutcome>(
        kind: "outcomes", readers: { $0.eventReaders }, writers: { $0.eventStores },
        answers: { $0.outcomeStore($1, shouldHandleQuery: $2) }, accepts: { $0.outcomeStore($1, shouldHandleWritingOutcome: $2) },
        order: { _ in
            // Outcome queries have no sort descriptors: CareKit's newest created first.
            var order = MergeOrder<any OCKAnyOutcome>()
            order.byNewestCreated()
            return order
        })

    /// Combines the live queries of every store whose delegate hook accepts `query` into one, merged in the query's
    /// order: a new result whenever any store yields one.
    public func anyOutcomes(matching query: OCKOutcomeQuery) -> CareStoreQueryResults<any OCKAnyOutcome> {
        live(Self.outcomes, query) { $0.anyOutcomes(matching: $1) }
    }

    /// The outcomes of every store whose delegate hook accepts `query`, merged in the query's order, with its offset
    /// and limit applied to the merged result.
    public func fetchAnyOutcomes(query: OCKOutcomeQuery) async throws -> [any OCKAnyOutcome] {
        try await fetch(Self.outcomes, query) { try await $0.fetchAnyOutcomes(query: $1) }
    }

    /// Adds `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.addFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await write(Self.outcomes, values, OCKStoreError.addFailed) { try await $0.addAnyOutcomes($1) }
    }

    /// Updates `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await write(Self.outcomes, values, OCKStoreError.updateFailed) { try await $0.updateAnyOutcomes($1) }
    }

    /// Deletes `values` in the first attached store that accepts every one of them.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if no attached store accepts them all, or what that store throws.
    @discardableResult
    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await write(Self.outcomes, values, OCKStoreError.deleteFailed) { try await $0.deleteAnyOutcomes($1) }
    }
}

// MARK: Events

extension OCKStoreCoordinator {
    /// Events come from the stores that answer the event query's task query (each joins its own tasks with its own
    /// outcomes), merged in fetch order.
    private func eventReaders(_ query: OCKEventQuery) -> [any OCKAnyReadOnlyEventStore] {
        readers(Self.tasks, query.taskQuery)
    }

    private static func mergeEvents(_ answers: [[OCKAnyEvent]]) -> [OCKAnyEvent] {
        answers.joined().sorted(by: OCKAnyEvent.fetchOrder)
    }

    /// Combines the live event queries of the stores that answer the query's task query, merged in start order.
    public func anyEvents(matching query: OCKEventQuery) -> CareStoreQueryResults<OCKAnyEvent> {
        FanOut.live(eventReaders(query).map { $0.anyEvents(matching: query) }, merge: Self.mergeEvents)
    }

    /// The events of every store that answers the query's task query (each joins its own tasks and outcomes), merged in
    /// start order.
    public func fetchAnyEvents(query: OCKEventQuery) async throws -> [OCKAnyEvent] {
        Self.mergeEvents(try await FanOut.fetch(eventReaders(query), query) { try await $0.fetchAnyEvents(query: $1) })
    }

    /// The event from the first store (in attach order, read-only ones first) that has it.
    public func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int) async throws -> OCKAnyEvent {
        var firstError: (any Error)?
        for store in stores.withLock({ $0.eventReaders }) {
            do {
                return try await store.fetchAnyEvent(forTask: task, occurrence: occurrence)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? OCKStoreError.fetchFailed(reason: "No store for events is attached to the coordinator")
    }
}
