import Dispatch
import Foundation
import Synchronization
import OpenCareKitStore
import Testing

/// CareKit's callback forms of the store API, and its store equality.
@Suite struct CallbackFormTests {
    static let queue = DispatchQueue(label: "callbacks")
    static let key = DispatchSpecificKey<String>()

    init() {
        Self.queue.setSpecific(key: Self.key, value: "callbacks")
    }

    /// The result a callback form delivers, and whether it arrived on `queue`.
    static func callback<T: Sendable>(_ call: (@escaping OCKResultClosure<T>) -> Void) async -> (Result<T, OCKStoreError>, onQueue: Bool) {
        await withCheckedContinuation { continuation in
            call { result in
                continuation.resume(returning: (result, DispatchQueue.getSpecific(key: Self.key) == "callbacks"))
            }
        }
    }

    @Test func writesAndReadsDeliverTheirResultsOnTheGivenQueue() async throws {
        let store = OCKStore(name: "callbacks", type: .inMemory)
        let task = StoreCoordinatorTests.task("ibuprofen")
        let (added, onQueue) = await Self.callback { store.addTask(task, callbackQueue: Self.queue, completion: $0) }
        #expect(onQueue)
        #expect(try added.get().id == "ibuprofen")

        let (fetched, _) = await Self.callback { store.fetchTasks(query: OCKTaskQuery(), callbackQueue: Self.queue, completion: $0) }
        #expect(try fetched.get().map(\.id) == ["ibuprofen"])
        let week = DateInterval(start: StoreCoordinatorTests.day, duration: 7 * 86_400 - 1)
        let (events, _) = await Self.callback {
            store.fetchEvents(query: OCKEventQuery(dateInterval: week), callbackQueue: Self.queue, completion: $0)
        }
        #expect(try events.get().count == 7)

        // A failure arrives as CareKit's error.
        let (missing, missingOnQueue) = await Self.callback {
            store.fetchTask(withID: "nothing", callbackQueue: Self.queue, completion: $0)
        }
        #expect(missingOnQueue)
        #expect(throws: OCKStoreError.fetchFailed(reason: "No task with matching ID")) { try missing.get() }
        let (again, _) = await Self.callback { store.addTasks([task], callbackQueue: Self.queue, completion: $0) }
        #expect { try again.get() } throws: { ($0 as? OCKStoreError).map { if case .addFailed = $0 { true } else { false } } ?? false }
    }

    @Test func aWriteWithoutCompletionStillHappens() async throws {
        let store = OCKStore(name: "fire and forget", type: .inMemory)
        var changes = store.tasks(matching: OCKTaskQuery()).makeAsyncIterator()
        #expect(try await changes.next()?.isEmpty == true)
        store.addTask(StoreCoordinatorTests.task("walk"), callbackQueue: Self.queue)
        #expect(try await changes.next()?.map(\.id) == ["walk"])
    }

    /// CareKit's write without a completion or a queue, from synchronous code (as CareKit's own tests call it, in a
    /// closure), compiles and writes.
    @Test func aWriteWithNeitherCompletionNorQueueStillHappens() async throws {
        let store = OCKStore(name: "bare", type: .inMemory)
        var changes = store.tasks(matching: OCKTaskQuery()).makeAsyncIterator()
        #expect(try await changes.next()?.isEmpty == true)
        let write: () -> Void = { store.addTask(StoreCoordinatorTests.task("walk")) }
        write()
        #expect(try await changes.next()?.map(\.id) == ["walk"])
    }

    /// As in CareKit, whose store runs its calls one after the other, a store's callback calls run in the order they
    /// were made: a write that does not wait is in place for the call after it.
    @Test func aWriteThatDoesNotWaitIsInPlaceForTheNextCall() async throws {
        let store = OCKStore(name: "in order", type: .inMemory)
        for index in 0..<30 {
            let task = StoreCoordinatorTests.task("task\(index)")
            store.addTask(task, callbackQueue: Self.queue)
            let outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)])
            let (added, _) = await Self.callback { store.addOutcome(outcome, callbackQueue: Self.queue, completion: $0) }
            #expect(throws: Never.self) { try added.get() }
        }
    }

    /// A store's async form that answers through one of its own callback forms does not wait behind itself.
    @Test func aStoreThatCallsItsOwnCallbackFormFromItsCallDoesNotWaitForItself() async throws {
        let store = SelfCallingPatientStore()
        let (fetched, _) = await Self.callback { store.fetchPatients(query: OCKPatientQuery(), callbackQueue: Self.queue, completion: $0) }
        #expect(try fetched.get().isEmpty)
    }

    /// A call waits for the store's calls made before it to end, not for other stores' calls.
    @Test func aStoresCallbackCallsRunOneAfterTheOther() async throws {
        let held = GatedPatientStore(holding: "first")
        let other = GatedPatientStore(holding: nil)
        held.addPatients([GatedPatientStore.patient("first")], callbackQueue: Self.queue)
        var started = held.started.makeAsyncIterator()
        #expect(await started.next() == "first")
        let (second, secondDone) = AsyncStream.makeStream(of: Result<[OCKPatient], OCKStoreError>.self)
        held.addPatients([GatedPatientStore.patient("second")], callbackQueue: Self.queue) { secondDone.yield($0) }
        // Another store's call runs meanwhile; the second call on the held store has not started.
        let (elsewhere, _) = await Self.callback { other.addPatients([GatedPatientStore.patient("third")], callbackQueue: Self.queue, completion: $0) }
        #expect(try elsewhere.get().map(\.id) == ["third"])
        #expect(held.log == ["first started"])
        held.release()
        var results = second.makeAsyncIterator()
        #expect(try await results.next()?.get().map(\.id) == ["second"])
        #expect(held.log == ["first started", "first ended", "second started", "second ended"])
    }

    @Test func aCoordinatorHasTheCallbackFormsToo() async throws {
        let coordinator = OCKStoreCoordinator()
        coordinator.attach(store: OCKStore(name: "a", type: .inMemory))
        let (added, _) = await Self.callback {
            coordinator.addAnyPatient(OCKPatient(id: "alex", givenName: "Alex", familyName: "Kim"), callbackQueue: Self.queue, completion: $0)
        }
        #expect(try added.get().id == "alex")
        let (fetched, onQueue) = await Self.callback {
            coordinator.fetchAnyPatients(query: OCKPatientQuery(), callbackQueue: Self.queue, completion: $0)
        }
        #expect(onQueue)
        #expect(try fetched.get().map(\.id) == ["alex"])
    }

    @Test func storesAreEqualByNameAndType() throws {
        #expect(OCKStore(name: "care", type: .inMemory) == OCKStore(name: "care", type: .inMemory))
        #expect(OCKStore(name: "care", type: .inMemory) != OCKStore(name: "other", type: .inMemory))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let onDisk = OCKStore(name: "care", type: .onDisk(), directory: directory)
        #expect(onDisk != OCKStore(name: "care", type: .inMemory))
        #expect(onDisk == OCKStore(name: "care", type: .onDisk(), directory: directory))
    }
}

/// A patient store (async forms) whose add of the patient `holding` waits until `release()`, and that logs when
/// each add starts and ends.
final class GatedPatientStore: OCKPatientStore {
    typealias Patient = OCKPatient
    private let holding: String?
    private let gate = AsyncStream.makeStream(of: Void.self)
    private let starts = AsyncStream.makeStream(of: String.self)
    /// The adds as they start.
    var started: AsyncStream<String> { starts.stream }
    private let entries = Mutex<[String]>([])
    private let patients = Mutex<[OCKPatient]>([])

    init(holding: String?) { self.holding = holding }

    static func patient(_ id: String) -> OCKPatient { OCKPatient(id: id, givenName: id, familyName: "Kim") }

    var log: [String] { entries.withLock { $0 } }
    func release() { gate.continuation.finish() }

    func reset() throws {}
    func patients(matching query: OCKPatientQuery) -> AsyncThrowingStream<[OCKPatient], any Error> {
        AsyncThrowingStream { $0.finish() }
    }
    func fetchPatients(query: OCKPatientQuery) async throws -> [OCKPatient] { patients.withLock { $0 } }
    func addPatients(_ added: [OCKPatient]) async throws -> [OCKPatient] {
        let name = added.map(\.id).joined()
        entries.withLock { $0.append("\(name) started") }
        starts.continuation.yield(name)
        if name == holding { for await _ in gate.stream {} }
        patients.withLock { $0 += added }
        entries.withLock { $0.append("\(name) ended") }
        return added
    }
    func updatePatients(_ updated: [OCKPatient]) async throws -> [OCKPatient] { updated }
    func deletePatients(_ deleted: [OCKPatient]) async throws -> [OCKPatient] { deleted }
}

/// A patient store whose async fetch answers through its own type-erased callback form (which runs the typed async
/// form of another query): a call it makes from its own call.
final class SelfCallingPatientStore: OCKPatientStore {
    typealias Patient = OCKPatient
    func reset() throws {}
    func patients(matching query: OCKPatientQuery) -> AsyncThrowingStream<[OCKPatient], any Error> {
        AsyncThrowingStream { $0.finish() }
    }
    func fetchPatients(query: OCKPatientQuery) async throws -> [OCKPatient] {
        guard query.ids.isEmpty else { return [] }
        // Asks itself again, through the callback form, for a narrower query.
        var narrower = query
        narrower.ids = ["nobody"]
        let found: Result<[any OCKAnyPatient], OCKStoreError> = await withCheckedContinuation { continuation in
            fetchAnyPatients(query: narrower, callbackQueue: .global()) { continuation.resume(returning: $0) }
        }
        return try found.get().compactMap { $0 as? OCKPatient }
    }
    func addPatients(_ added: [OCKPatient]) async throws -> [OCKPatient] { added }
    func updatePatients(_ updated: [OCKPatient]) async throws -> [OCKPatient] { updated }
    func deletePatients(_ deleted: [OCKPatient]) async throws -> [OCKPatient] { deleted }
}
