import Dispatch
import Foundation
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
