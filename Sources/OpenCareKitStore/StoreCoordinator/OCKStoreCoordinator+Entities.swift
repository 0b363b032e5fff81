import Foundation

// Each kind of entity: the readers a query goes to, the order answers merge in, and the writer of a batch.

extension OCKStoreCoordinator {
    private func read<Store: Sendable, Query: CoordinatedQuery, Result: Sendable>(
        _ readers: [Store], _ query: Query, _ order: MergeOrder<Result>,
        _ fetch: @escaping @Sendable (Store, Query) async throws -> [Result]
    ) async throws -> [Result] {
        query.page(order.merge(try await FanOut.fetch(readers, query.perStore, fetch)))
    }

    private func live<Store: Sendable, Query: CoordinatedQuery, Result: Sendable>(
        _ readers: [Store], _ query: Query, _ order: MergeOrder<Result>,
        _ stream: (Store, Query) -> CareStoreQueryResults<Result>
    ) -> CareStoreQueryResults<Result> {
        let perStore = query.perStore
        return FanOut.live(readers.map { stream($0, perStore) }) { query.page(order.merge($0)) }
    }
}

// MARK: Patients

extension OCKStoreCoordinator {
    private func patientReaders(_ query: OCKPatientQuery) -> [any OCKAnyReadOnlyPatientStore] {
        readers(\.patientReaders) { $0.patientStore($1, shouldHandleQuery: query) }
    }

    private static func order(_ query: OCKPatientQuery) -> MergeOrder<any OCKAnyPatient> {
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
    }

    public func anyPatients(matching query: OCKPatientQuery) -> CareStoreQueryResults<any OCKAnyPatient> {
        live(patientReaders(query), query, Self.order(query)) { $0.anyPatients(matching: $1) }
    }

    public func fetchAnyPatients(query: OCKPatientQuery) async throws -> [any OCKAnyPatient] {
        try await read(patientReaders(query), query, Self.order(query)) { try await $0.fetchAnyPatients(query: $1) }
    }

    private func patientWriter(_ patients: [any OCKAnyPatient], _ failure: (String) -> OCKStoreError) throws -> any OCKAnyPatientStore {
        try writer(\.patientStores, for: patients, kind: "patients", failure: failure) {
            $0.patientStore($1, shouldHandleWritingPatient: $2)
        }
    }

    @discardableResult
    public func addAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await patientWriter(patients, OCKStoreError.addFailed).addAnyPatients(patients)
    }

    @discardableResult
    public func updateAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await patientWriter(patients, OCKStoreError.updateFailed).updateAnyPatients(patients)
    }

    @discardableResult
    public func deleteAnyPatients(_ patients: [any OCKAnyPatient]) async throws -> [any OCKAnyPatient] {
        try await patientWriter(patients, OCKStoreError.deleteFailed).deleteAnyPatients(patients)
    }
}

// MARK: Care plans

extension OCKStoreCoordinator {
    private func carePlanReaders(_ query: OCKCarePlanQuery) -> [any OCKAnyReadOnlyCarePlanStore] {
        readers(\.planReaders) { $0.carePlanStore($1, shouldHandleQuery: query) }
    }

    private static func order(_ query: OCKCarePlanQuery) -> MergeOrder<any OCKAnyCarePlan> {
        var order = MergeOrder<any OCKAnyCarePlan>()
        for descriptor in query.sortDescriptors {
            switch descriptor {
            case let .title(ascending): order.by(ascending) { $0.title }
            case let .effectiveDate(ascending): order.by(ascending) { $0.effectiveDate }
            }
        }
        order.byNewestCreated()
        return order
    }

    public func anyCarePlans(matching query: OCKCarePlanQuery) -> CareStoreQueryResults<any OCKAnyCarePlan> {
        live(carePlanReaders(query), query, Self.order(query)) { $0.anyCarePlans(matching: $1) }
    }

    public func fetchAnyCarePlans(query: OCKCarePlanQuery) async throws -> [any OCKAnyCarePlan] {
        try await read(carePlanReaders(query), query, Self.order(query)) { try await $0.fetchAnyCarePlans(query: $1) }
    }

    private func carePlanWriter(_ plans: [any OCKAnyCarePlan], _ failure: (String) -> OCKStoreError) throws -> any OCKAnyCarePlanStore {
        try writer(\.planStores, for: plans, kind: "care plans", failure: failure) {
            $0.carePlanStore($1, shouldHandleWritingCarePlan: $2)
        }
    }

    @discardableResult
    public func addAnyCarePlans(_ plans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await carePlanWriter(plans, OCKStoreError.addFailed).addAnyCarePlans(plans)
    }

    @discardableResult
    public func updateAnyCarePlans(_ plans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await carePlanWriter(plans, OCKStoreError.updateFailed).updateAnyCarePlans(plans)
    }

    @discardableResult
    public func deleteAnyCarePlans(_ plans: [any OCKAnyCarePlan]) async throws -> [any OCKAnyCarePlan] {
        try await carePlanWriter(plans, OCKStoreError.deleteFailed).deleteAnyCarePlans(plans)
    }
}

// MARK: Contacts

extension OCKStoreCoordinator {
    private func contactReaders(_ query: OCKContactQuery) -> [any OCKAnyReadOnlyContactStore] {
        readers(\.contactReaders) { $0.contactStore($1, shouldHandleQuery: query) }
    }

    private static func order(_ query: OCKContactQuery) -> MergeOrder<any OCKAnyContact> {
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
    }

    public func anyContacts(matching query: OCKContactQuery) -> CareStoreQueryResults<any OCKAnyContact> {
        live(contactReaders(query), query, Self.order(query)) { $0.anyContacts(matching: $1) }
    }

    public func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact] {
        try await read(contactReaders(query), query, Self.order(query)) { try await $0.fetchAnyContacts(query: $1) }
    }

    private func contactWriter(_ contacts: [any OCKAnyContact], _ failure: (String) -> OCKStoreError) throws -> any OCKAnyContactStore {
        try writer(\.contactStores, for: contacts, kind: "contacts", failure: failure) {
            $0.contactStore($1, shouldHandleWritingContact: $2)
        }
    }

    @discardableResult
    public func addAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await contactWriter(contacts, OCKStoreError.addFailed).addAnyContacts(contacts)
    }

    @discardableResult
    public func updateAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await contactWriter(contacts, OCKStoreError.updateFailed).updateAnyContacts(contacts)
    }

    @discardableResult
    public func deleteAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await contactWriter(contacts, OCKStoreError.deleteFailed).deleteAnyContacts(contacts)
    }
}

// MARK: Tasks

extension OCKStoreCoordinator {
    private func taskReaders(_ query: OCKTaskQuery) -> [any OCKAnyReadOnlyEventStore] {
        readers(\.eventReaders) { $0.taskStore($1, shouldHandleQuery: query) }
    }

    private static func order(_ query: OCKTaskQuery) -> MergeOrder<any OCKAnyTask> {
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
    }

    public func anyTasks(matching query: OCKTaskQuery) -> CareStoreQueryResults<any OCKAnyTask> {
        live(taskReaders(query), query, Self.order(query)) { $0.anyTasks(matching: $1) }
    }

    public func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask] {
        try await read(taskReaders(query), query, Self.order(query)) { try await $0.fetchAnyTasks(query: $1) }
    }

    private func taskWriter(_ tasks: [any OCKAnyTask], _ failure: (String) -> OCKStoreError) throws -> any OCKAnyEventStore {
        try writer(\.eventStores, for: tasks, kind: "tasks", failure: failure) {
            $0.taskStore($1, shouldHandleWritingTask: $2)
        }
    }

    @discardableResult
    public func addAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await taskWriter(tasks, OCKStoreError.addFailed).addAnyTasks(tasks)
    }

    @discardableResult
    public func updateAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await taskWriter(tasks, OCKStoreError.updateFailed).updateAnyTasks(tasks)
    }

    @discardableResult
    public func deleteAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await taskWriter(tasks, OCKStoreError.deleteFailed).deleteAnyTasks(tasks)
    }
}

// MARK: Outcomes

extension OCKStoreCoordinator {
    private func outcomeReaders(_ query: OCKOutcomeQuery) -> [any OCKAnyReadOnlyEventStore] {
        readers(\.eventReaders) { $0.outcomeStore($1, shouldHandleQuery: query) }
    }

    private static func order(_ query: OCKOutcomeQuery) -> MergeOrder<any OCKAnyOutcome> {
        var order = MergeOrder<any OCKAnyOutcome>()
        order.byNewestCreated()
        return order
    }

    public func anyOutcomes(matching query: OCKOutcomeQuery) -> CareStoreQueryResults<any OCKAnyOutcome> {
        live(outcomeReaders(query), query, Self.order(query)) { $0.anyOutcomes(matching: $1) }
    }

    public func fetchAnyOutcomes(query: OCKOutcomeQuery) async throws -> [any OCKAnyOutcome] {
        try await read(outcomeReaders(query), query, Self.order(query)) { try await $0.fetchAnyOutcomes(query: $1) }
    }

    private func outcomeWriter(_ outcomes: [any OCKAnyOutcome], _ failure: (String) -> OCKStoreError) throws -> any OCKAnyEventStore {
        try writer(\.eventStores, for: outcomes, kind: "outcomes", failure: failure) {
            $0.outcomeStore($1, shouldHandleWritingOutcome: $2)
        }
    }

    @discardableResult
    public func addAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await outcomeWriter(outcomes, OCKStoreError.addFailed).addAnyOutcomes(outcomes)
    }

    @discardableResult
    public func updateAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await outcomeWriter(outcomes, OCKStoreError.updateFailed).updateAnyOutcomes(outcomes)
    }

    @discardableResult
    public func deleteAnyOutcomes(_ outcomes: [any OCKAnyOutcome]) async throws -> [any OCKAnyOutcome] {
        try await outcomeWriter(outcomes, OCKStoreError.deleteFailed).deleteAnyOutcomes(outcomes)
    }
}

// MARK: Events

extension OCKStoreCoordinator {
    /// Events come from the stores that answer the event query's task query: each store joins its own tasks with
    /// its own outcomes.
    private func eventReaders(_ query: OCKEventQuery) -> [any OCKAnyReadOnlyEventStore] {
        readers(\.eventReaders) { $0.taskStore($1, shouldHandleQuery: query.taskQuery) }
    }

    private static func mergeEvents(_ answers: [[OCKAnyEvent]]) -> [OCKAnyEvent] {
        answers.joined().sorted(by: OCKAnyEvent.fetchOrder)
    }

    public func anyEvents(matching query: OCKEventQuery) -> CareStoreQueryResults<OCKAnyEvent> {
        FanOut.live(eventReaders(query).map { $0.anyEvents(matching: query) }, merge: Self.mergeEvents)
    }

    public func fetchAnyEvents(query: OCKEventQuery) async throws -> [OCKAnyEvent] {
        Self.mergeEvents(try await FanOut.fetch(eventReaders(query), query) { try await $0.fetchAnyEvents(query: $1) })
    }

    /// The event from the first store (in attach order, read-only ones first) that has it.
    public func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int) async throws -> OCKAnyEvent {
        let stores = readers(\.eventReaders) { _, _ in true }
        var firstError: (any Error)?
        for store in stores {
            do {
                return try await store.fetchAnyEvent(forTask: task, occurrence: occurrence)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? OCKStoreError.fetchFailed(reason: "No store for events is attached to the coordinator")
    }
}
