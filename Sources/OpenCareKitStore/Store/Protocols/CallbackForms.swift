import Foundation

// CareKit's callback forms of the store API, for code written against CareKit before async/await: each runs the
// async form and hands its result to `completion` on `callbackQueue`. As in CareKit the queue defaults to the main
// queue, which only runs callbacks in a process that runs its main loop (`dispatchMain()`, `RunLoop.main.run()`); a
// server or command-line tool passes another queue. Errors that are not `OCKStoreError`s arrive as the operation's
// `OCKStoreError` case with the error's description.

/// Runs `work` and delivers its result to `completion` on `queue`.
func deliver<T: Sendable>(on queue: DispatchQueue, to completion: OCKResultClosure<T>?,
                          failure: @escaping @Sendable (String) -> OCKStoreError,
                          _ work: @escaping @Sendable () async throws -> T) {
    _Concurrency.Task {
        let result: Result<T, OCKStoreError>
        do {
            result = .success(try await work())
        } catch let error as OCKStoreError {
            result = .failure(error)
        } catch {
            result = .failure(failure(String(describing: error)))
        }
        queue.async { completion?(result) }
    }
}


extension OCKAnyReadOnlyPatientStore {
    public func fetchAnyPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<[any OCKAnyPatient]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyPatients(query: query) }
    }

    public func fetchAnyPatient(withID id: String, callbackQueue: DispatchQueue = .main,
                                completion: @escaping OCKResultClosure<any OCKAnyPatient>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyPatient(withID: id) }
    }
}

extension OCKAnyPatientStore {
    public func addAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyPatient]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyPatients(values) }
    }

    public func addAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyPatient>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyPatient(value) }
    }

    public func updateAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyPatient]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyPatients(values) }
    }

    public func updateAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyPatient>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyPatient(value) }
    }

    public func deleteAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyPatient]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyPatients(values) }
    }

    public func deleteAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyPatient>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyPatient(value) }
    }
}

extension OCKReadablePatientStore {
    public func fetchPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[Patient]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchPatients(query: query) }
    }

    public func fetchPatient(withID id: String, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<Patient>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchPatient(withID: id) }
    }
}

extension OCKPatientStore {
    public func addPatients(_ values: [Patient], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Patient]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addPatients(values) }
    }

    public func addPatient(_ value: Patient, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Patient>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addPatient(value) }
    }

    public func updatePatients(_ values: [Patient], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Patient]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updatePatients(values) }
    }

    public func updatePatient(_ value: Patient, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Patient>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updatePatient(value) }
    }

    public func deletePatients(_ values: [Patient], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Patient]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deletePatients(values) }
    }

    public func deletePatient(_ value: Patient, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Patient>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deletePatient(value) }
    }
}

extension OCKAnyReadOnlyCarePlanStore {
    public func fetchAnyCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue = .main,
                                  completion: @escaping OCKResultClosure<[any OCKAnyCarePlan]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyCarePlans(query: query) }
    }

    public func fetchAnyCarePlan(withID id: String, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<any OCKAnyCarePlan>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyCarePlan(withID: id) }
    }
}

extension OCKAnyCarePlanStore {
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue = .main,
                                completion: OCKResultClosure<[any OCKAnyCarePlan]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyCarePlans(values) }
    }

    public func addAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<any OCKAnyCarePlan>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyCarePlan(value) }
    }

    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue = .main,
                                   completion: OCKResultClosure<[any OCKAnyCarePlan]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyCarePlans(values) }
    }

    public func updateAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<any OCKAnyCarePlan>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyCarePlan(value) }
    }

    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue = .main,
                                   completion: OCKResultClosure<[any OCKAnyCarePlan]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyCarePlans(values) }
    }

    public func deleteAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<any OCKAnyCarePlan>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyCarePlan(value) }
    }
}

extension OCKReadableCarePlanStore {
    public func fetchCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue = .main,
                               completion: @escaping OCKResultClosure<[Plan]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchCarePlans(query: query) }
    }

    public func fetchCarePlan(withID id: String, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<Plan>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchCarePlan(withID: id) }
    }
}

extension OCKCarePlanStore {
    public func addCarePlans(_ values: [Plan], callbackQueue: DispatchQueue = .main,
                             completion: OCKResultClosure<[Plan]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addCarePlans(values) }
    }

    public func addCarePlan(_ value: Plan, callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<Plan>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addCarePlan(value) }
    }

    public func updateCarePlans(_ values: [Plan], callbackQueue: DispatchQueue = .main,
                                completion: OCKResultClosure<[Plan]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateCarePlans(values) }
    }

    public func updateCarePlan(_ value: Plan, callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<Plan>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateCarePlan(value) }
    }

    public func deleteCarePlans(_ values: [Plan], callbackQueue: DispatchQueue = .main,
                                completion: OCKResultClosure<[Plan]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteCarePlans(values) }
    }

    public func deleteCarePlan(_ value: Plan, callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<Plan>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteCarePlan(value) }
    }
}

extension OCKAnyReadOnlyContactStore {
    public func fetchAnyContacts(query: OCKContactQuery, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<[any OCKAnyContact]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyContacts(query: query) }
    }

    public func fetchAnyContact(withID id: String, callbackQueue: DispatchQueue = .main,
                                completion: @escaping OCKResultClosure<any OCKAnyContact>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyContact(withID: id) }
    }
}

extension OCKAnyContactStore {
    public func addAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyContact]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyContacts(values) }
    }

    public func addAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyContact>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyContact(value) }
    }

    public func updateAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyContact]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyContacts(values) }
    }

    public func updateAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyContact>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyContact(value) }
    }

    public func deleteAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyContact]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyContacts(values) }
    }

    public func deleteAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyContact>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyContact(value) }
    }
}

extension OCKReadableContactStore {
    public func fetchContacts(query: OCKContactQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[Contact]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchContacts(query: query) }
    }

    public func fetchContact(withID id: String, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<Contact>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchContact(withID: id) }
    }
}

extension OCKContactStore {
    public func addContacts(_ values: [Contact], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Contact]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addContacts(values) }
    }

    public func addContact(_ value: Contact, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Contact>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addContact(value) }
    }

    public func updateContacts(_ values: [Contact], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Contact]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateContacts(values) }
    }

    public func updateContact(_ value: Contact, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Contact>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateContact(value) }
    }

    public func deleteContacts(_ values: [Contact], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Contact]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteContacts(values) }
    }

    public func deleteContact(_ value: Contact, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Contact>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteContact(value) }
    }
}

extension OCKAnyReadOnlyTaskStore {
    public func fetchAnyTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[any OCKAnyTask]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyTasks(query: query) }
    }

    public func fetchAnyTask(withID id: String, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<any OCKAnyTask>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyTask(withID: id) }
    }
}

extension OCKAnyTaskStore {
    public func addAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[any OCKAnyTask]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyTasks(values) }
    }

    public func addAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<any OCKAnyTask>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyTask(value) }
    }

    public func updateAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyTask]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyTasks(values) }
    }

    public func updateAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyTask>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyTask(value) }
    }

    public func deleteAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyTask]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyTasks(values) }
    }

    public func deleteAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyTask>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyTask(value) }
    }
}

extension OCKReadableTaskStore {
    public func fetchTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue = .main,
                           completion: @escaping OCKResultClosure<[Task]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchTasks(query: query) }
    }

    public func fetchTask(withID id: String, callbackQueue: DispatchQueue = .main,
                          completion: @escaping OCKResultClosure<Task>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchTask(withID: id) }
    }
}

extension OCKTaskStore {
    public func addTasks(_ values: [Task], callbackQueue: DispatchQueue = .main,
                         completion: OCKResultClosure<[Task]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addTasks(values) }
    }

    public func addTask(_ value: Task, callbackQueue: DispatchQueue = .main,
                        completion: OCKResultClosure<Task>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addTask(value) }
    }

    public func updateTasks(_ values: [Task], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Task]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateTasks(values) }
    }

    public func updateTask(_ value: Task, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Task>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateTask(value) }
    }

    public func deleteTasks(_ values: [Task], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Task]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteTasks(values) }
    }

    public func deleteTask(_ value: Task, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Task>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteTask(value) }
    }
}

extension OCKAnyReadOnlyOutcomeStore {
    public func fetchAnyOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<[any OCKAnyOutcome]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyOutcomes(query: query) }
    }

    public func fetchAnyOutcome(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                                completion: @escaping OCKResultClosure<any OCKAnyOutcome>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyOutcome(query: query) }
    }
}

extension OCKAnyOutcomeStore {
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyOutcome]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyOutcomes(values) }
    }

    public func addAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyOutcome>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyOutcome(value) }
    }

    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyOutcome]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyOutcomes(values) }
    }

    public func updateAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyOutcome>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyOutcome(value) }
    }

    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyOutcome]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyOutcomes(values) }
    }

    public func deleteAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyOutcome>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyOutcome(value) }
    }
}

extension OCKReadableOutcomeStore {
    public func fetchOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[Outcome]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchOutcomes(query: query) }
    }

    public func fetchOutcome(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<Outcome>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchOutcome(query: query) }
    }
}

extension OCKOutcomeStore {
    public func addOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Outcome]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addOutcomes(values) }
    }

    public func addOutcome(_ value: Outcome, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Outcome>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addOutcome(value) }
    }

    public func updateOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Outcome]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateOutcomes(values) }
    }

    public func updateOutcome(_ value: Outcome, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Outcome>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateOutcome(value) }
    }

    public func deleteOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Outcome]>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteOutcomes(values) }
    }

    public func deleteOutcome(_ value: Outcome, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Outcome>? = nil) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteOutcome(value) }
    }
}

extension OCKAnyReadOnlyEventStore {
    public func fetchAnyEvents(query: OCKEventQuery, callbackQueue: DispatchQueue = .main,
                               completion: @escaping OCKResultClosure<[OCKAnyEvent]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyEvents(query: query) }
    }

    public func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<OCKAnyEvent>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) {
            try await self.fetchAnyEvent(forTask: task, occurrence: occurrence)
        }
    }

    public func fetchAdherence(query: OCKAdherenceQuery, callbackQueue: DispatchQueue = .main,
                               completion: @escaping OCKResultClosure<[OCKAdherence]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAdherence(query: query) }
    }
}

extension OCKReadOnlyEventStore {
    public func fetchEvents(query: OCKEventQuery, callbackQueue: DispatchQueue = .main,
                            completion: @escaping OCKResultClosure<[Event]>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchEvents(query: query) }
    }

    public func fetchEvent(forTask task: Task, occurrence: Int, callbackQueue: DispatchQueue = .main,
                           completion: @escaping OCKResultClosure<Event>) {
        deliver(on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) {
            try await self.fetchEvent(forTask: task, occurrence: occurrence)
        }
    }
}
