import Dispatch
import Foundation
import OpenCareKitStore
import Synchronization
import Testing

/// A store written for CareKit: it implements only CareKit's callback forms (`fetchPatients(query:callbackQueue:
/// completion:)`, `addPatients(_:callbackQueue:completion:)`, …) for every kind of entity, over arrays, and live
/// queries as streams that yield the whole list after each change.
final class CallbackStore: OCKPatientStore, OCKCarePlanStore, OCKContactStore, OCKEventStore {
    typealias Patient = OCKPatient
    typealias Plan = OCKCarePlan
    typealias Contact = OCKContact
    typealias Task = OCKTask
    typealias Outcome = OCKOutcome

    /// Every kind's entities, by kind.
    private struct State {
        var patients: [OCKPatient] = []
        var plans: [OCKCarePlan] = []
        var contacts: [OCKContact] = []
        var tasks: [OCKTask] = []
        var outcomes: [OCKOutcome] = []
    }

    private let state = Mutex(State())
    /// How many callback calls the store answered (the async forms reach it through them).
    let calls = Atomic<Int>(0)

    func reset() throws { state.withLock { $0 = State() } }

    private func answer<T: Sendable>(_ queue: DispatchQueue, _ completion: OCKResultClosure<T>?, _ work: (inout State) throws(OCKStoreError) -> T) {
        calls.add(1, ordering: .relaxed)
        let result = state.withLock { state in Result<T, OCKStoreError> { () throws(OCKStoreError) -> T in try work(&state) } }
        queue.async { completion?(result) }
    }

    private static func adding<E>(_ new: [E], to list: inout [E], id: (E) -> String) throws(OCKStoreError) -> [E] {
        guard !new.contains(where: { entity in list.contains { id($0) == id(entity) } }) else {
            throw OCKStoreError.addFailed(reason: "An entity with that id exists")
        }
        list += new
        return new
    }

    private static func removing<E>(_ gone: [E], from list: inout [E], id: (E) -> String) -> [E] {
        list.removeAll { old in gone.contains { id($0) == id(old) } }
        return gone
    }

    private static func stream<E: Sendable>(_ value: [E]) -> AsyncThrowingStream<[E], any Error> {
        AsyncThrowingStream { $0.yield(value); $0.finish() }
    }

    // Patients
    func patients(matching query: OCKPatientQuery) -> AsyncThrowingStream<[OCKPatient], any Error> { Self.stream(state.withLock { $0.patients }) }
    func fetchPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[OCKPatient]>) {
        answer(callbackQueue, completion) { state in state.patients.filter { query.ids.isEmpty || query.ids.contains($0.id) } }
    }
    func addPatients(_ patients: [OCKPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKPatient]>?) {
        answer(callbackQueue, completion) { state throws(OCKStoreError) in try Self.adding(patients, to: &state.patients, id: \.id) }
    }
    func updatePatients(_ patients: [OCKPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKPatient]>?) {
        answer(callbackQueue, completion) { state in
            state.patients = state.patients.map { old in patients.first { $0.id == old.id } ?? old }
            return patients
        }
    }
    func deletePatients(_ patients: [OCKPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKPatient]>?) {
        answer(callbackQueue, completion) { state in Self.removing(patients, from: &state.patients, id: \.id) }
    }

    // Care plans
    func carePlans(matching query: OCKCarePlanQuery) -> AsyncThrowingStream<[OCKCarePlan], any Error> { Self.stream(state.withLock { $0.plans }) }
    func fetchCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[OCKCarePlan]>) {
        answer(callbackQueue, completion) { $0.plans }
    }
    func addCarePlans(_ plans: [OCKCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKCarePlan]>?) {
        answer(callbackQueue, completion) { state throws(OCKStoreError) in try Self.adding(plans, to: &state.plans, id: \.id) }
    }
    func updateCarePlans(_ plans: [OCKCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKCarePlan]>?) {
        answer(callbackQueue, completion) { _ in plans }
    }
    func deleteCarePlans(_ plans: [OCKCarePlan], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKCarePlan]>?) {
        answer(callbackQueue, completion) { state in Self.removing(plans, from: &state.plans, id: \.id) }
    }

    // Contacts
    func contacts(matching query: OCKContactQuery) -> AsyncThrowingStream<[OCKContact], any Error> { Self.stream(state.withLock { $0.contacts }) }
    func fetchContacts(query: OCKContactQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[OCKContact]>) {
        answer(callbackQueue, completion) { $0.contacts }
    }
    func addContacts(_ contacts: [OCKContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKContact]>?) {
        answer(callbackQueue, completion) { state throws(OCKStoreError) in try Self.adding(contacts, to: &state.contacts, id: \.id) }
    }
    func updateContacts(_ contacts: [OCKContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKContact]>?) {
        answer(callbackQueue, completion) { _ in contacts }
    }
    func deleteContacts(_ contacts: [OCKContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKContact]>?) {
        answer(callbackQueue, completion) { state in Self.removing(contacts, from: &state.contacts, id: \.id) }
    }

    // Tasks
    func tasks(matching query: OCKTaskQuery) -> AsyncThrowingStream<[OCKTask], any Error> { Self.stream(state.withLock { $0.tasks }) }
    func fetchTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[OCKTask]>) {
        answer(callbackQueue, completion) { state in state.tasks.filter { query.ids.isEmpty || query.ids.contains($0.id) } }
    }
    func addTasks(_ tasks: [OCKTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKTask]>?) {
        answer(callbackQueue, completion) { state throws(OCKStoreError) in try Self.adding(tasks, to: &state.tasks, id: \.id) }
    }
    func updateTasks(_ tasks: [OCKTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKTask]>?) {
        answer(callbackQueue, completion) { _ in tasks }
    }
    func deleteTasks(_ tasks: [OCKTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKTask]>?) {
        answer(callbackQueue, completion) { state in Self.removing(tasks, from: &state.tasks, id: \.id) }
    }

    // Outcomes
    func outcomes(matching query: OCKOutcomeQuery) -> AsyncThrowingStream<[OCKOutcome], any Error> { Self.stream(state.withLock { $0.outcomes }) }
    func fetchOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[OCKOutcome]>) {
        answer(callbackQueue, completion) { $0.outcomes }
    }
    func addOutcomes(_ outcomes: [OCKOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKOutcome]>?) {
        answer(callbackQueue, completion) { state in
            state.outcomes += outcomes
            return outcomes
        }
    }
    func updateOutcomes(_ outcomes: [OCKOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKOutcome]>?) {
        answer(callbackQueue, completion) { _ in outcomes }
    }
    func deleteOutcomes(_ outcomes: [OCKOutcome], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKOutcome]>?) {
        answer(callbackQueue, completion) { state in Self.removing(outcomes, from: &state.outcomes, id: \.uuid.uuidString) }
    }
}

/// A store that implements neither form of its patient operations (only its live query).
final class FormlessPatientStore: OCKPatientStore {
    typealias Patient = OCKPatient
    func reset() throws {}
    func patients(matching query: OCKPatientQuery) -> AsyncThrowingStream<[OCKPatient], any Error> {
        AsyncThrowingStream { $0.finish() }
    }
}

@Suite struct CallbackStoreTests {
    /// Every kind's async forms, and the single-item and type-erased forms built on them, reach a store that
    /// implements only CareKit's callback forms.
    @Test func aStoreWrittenForCareKitsCallbacksConformsAndAnswersTheAsyncForms() async throws {
        let store = CallbackStore()
        let patient = try await store.addPatient(OCKPatient(id: "alex", givenName: "Alex", familyName: "Kim"))
        #expect(patient.id == "alex")
        #expect(try await store.fetchPatient(withID: "alex").id == "alex")
        #expect(try await store.fetchAnyPatients(query: OCKPatientQuery()).map(\.id) == ["alex"])
        await #expect(throws: OCKStoreError.addFailed(reason: "An entity with that id exists")) {
            try await store.addPatient(OCKPatient(id: "alex", givenName: "Alex", familyName: "Kim"))
        }
        #expect(try await store.addCarePlan(OCKCarePlan(id: "knee", title: "Knee", patientUUID: nil)).id == "knee")
        #expect(try await store.fetchAnyCarePlans(query: OCKCarePlanQuery()).map(\.id) == ["knee"])
        #expect(try await store.addAnyContact(OCKContact(id: "sam", givenName: "Sam", familyName: "Lee", carePlanUUID: nil)).id == "sam")
        #expect(try await store.fetchContacts(query: OCKContactQuery()).map(\.id) == ["sam"])
        let task = try await store.addTask(StoreCoordinatorTests.task("walk"))
        #expect(try await store.fetchTask(withID: "walk").uuid == task.uuid)
        let outcome = try await store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)]))
        #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).map(\.uuid) == [outcome.uuid])
        try await store.deleteAnyOutcome(outcome)
        #expect(try await store.fetchAnyOutcomes(query: OCKOutcomeQuery()).isEmpty)
        #expect(store.calls.load(ordering: .relaxed) >= 13)
        // Its callback forms are its own, on the given queue; the coordinator reaches it through the async forms.
        let queue = DispatchQueue(label: "callbacks")
        let fetched = await withCheckedContinuation { continuation in
            store.fetchAnyTasks(query: OCKTaskQuery(), callbackQueue: queue) { continuation.resume(returning: $0) }
        }
        #expect(try fetched.get().map(\.id) == ["walk"])
        let coordinator = OCKStoreCoordinator()
        coordinator.attach(patientStore: store)
        coordinator.attach(store: OCKStore(name: "other", type: .inMemory))
        #expect(try await coordinator.fetchAnyPatients(query: OCKPatientQuery()).map(\.id) == ["alex"])
    }

    /// A store implementing neither form of an operation traps on its first call, naming the store and the
    /// operation, instead of calling itself back and forth for ever.
    @Test func aStoreWithNeitherFormTrapsWithItsNameOnTheFirstCall() async throws {
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await FormlessPatientStore().fetchPatients(query: OCKPatientQuery())
        }
        let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("FormlessPatientStore implements neither form of fetchPatients"), "\(message)")
        // The callback form called first traps the same way.
        let other = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await withCheckedContinuation { continuation in
                FormlessPatientStore().addPatients([], callbackQueue: .global()) { _ in continuation.resume() }
            }
        }
        let otherMessage = String(decoding: other?.standardErrorContent ?? [], as: UTF8.self)
        #expect(otherMessage.contains("FormlessPatientStore implements neither form of addPatients"), "\(otherMessage)")
    }

    /// The example of the OpenCareKitStore documentation's article Write a custom store, a program of its own: a custom
    /// store written for CareKit's callbacks and OpenCareKit's store, each write awaited and returning what it wrote (the
    /// program compiles only so), each read seeing it.
    @Test func theExampleProgramWaitsForEachWriteAndGetsWhatWasWritten() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("opencarekit-example")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text == "patient alex: 1 in the custom store\ntask ibuprofen: 1 outcome stored\n", "\(text)")
    }
}

/// What top-level code (a `main.swift`) gets: Swift ranks a synchronous candidate first there, so CareKit's
/// completion-less write would be picked for `try await store.addTask(task)` and not wait. Here that is a compile error
/// that says so; the same lines in an async function compile and wait. Checked by type-checking both programs against
/// the built module.
@Suite struct TopLevelCodeTests {
    /// `swiftc -typecheck` of `source` against this build's modules: its errors.
    static func typecheck(_ source: String) throws -> String {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let checkouts = products.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("main-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path,
                             "-Xcc", "-fmodule-map-file=" + checkouts.appendingPathComponent("GRDB.swift/Sources/GRDBSQLite/module.modulemap").path,
                             file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    @Test func aWriteThatWouldNotWaitIsACompileErrorInTopLevelCodeAndAnAsyncFunctionWaits() throws {
        let write = """
            let task = try await store.addTask(OCKTask(id: "walk", title: nil, carePlanUUID: nil, schedule: schedule))
            _ = try await store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: []))
            """
        let setup = """
            import Foundation
            import OpenCareKitStore
            let store = OCKStore(name: "t", type: .inMemory)
            let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Date(), end: nil, text: nil)
            """
        let topLevel = try Self.typecheck(setup + "\n" + write + "\n")
        #expect(topLevel.contains("unavailable from asynchronous contexts; This completion-less write does not wait"), "\(topLevel)")
        let inFunction = try Self.typecheck(setup + "\nfunc run() async throws {\n" + write + "\n}\n")
        #expect(!inFunction.contains("error:"), "\(inFunction)")
    }
}

/// A record may hold one version twice, but not two versions under one uuid — also when they differ only in a value's
/// moment (outcome values are equal whenever recorded, so the versions are compared with their values' moments).
@Suite struct RepeatedVersionTests {
    @Test func twoOutcomeVersionsUnderOneUUIDThatDifferOnlyInAValuesMomentAreRefused() async throws {
        let store = OCKStore(name: "repeated", type: .inMemory)
        let task = try await store.addTask(StoreCoordinatorTests.task("walk"))
        var outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)])
        outcome.createdDate = task.createdDate
        outcome.updatedDate = task.createdDate
        var other = outcome
        other.values[0].createdDate = outcome.values[0].createdDate.addingTimeInterval(60)
        let device = UUID()
        let twice = OCKRevisionRecord(entities: [.outcome(outcome), .outcome(outcome)], knowledgeVector: .init([device: 1]))
        try await store.mergeRevisions([twice], deviceKnowledge: .init([device: 1]))
        #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).count == 1)
        let clashing = OCKRevisionRecord(entities: [.outcome(outcome), .outcome(other)], knowledgeVector: .init([device: 2]))
        await #expect(throws: OCKStoreError.invalidValue(reason: "A revision holds two different outcome versions with one uuid")) {
            try await store.mergeRevisions([clashing], deviceKnowledge: .init([device: 2]))
        }
    }
}
