// A custom store in a few lines, written as for CareKit (its callback forms), beside OpenCareKit's own store, used
// from an async entry point: `try await` waits for each write and returns what was written. (In top-level code Swift
// ranks CareKit's completion-less callback write first, which does not wait; it compiles with a warning saying so.)
// The OpenCareKitStore documentation (Write a custom store) shows it; a test runs it.
import Dispatch
import Foundation
import OpenCareKitStore
import Synchronization

/// Patients kept in memory, answered through CareKit's callback forms: the async forms come from the protocols.
final class MemoryPatientStore: OCKPatientStore {
    private let patients = Mutex<[OCKPatient]>([])

    func reset() throws { patients.withLock { $0 = [] } }

    func patients(matching query: OCKPatientQuery) -> AsyncThrowingStream<[OCKPatient], any Error> {
        let now = patients.withLock { $0 }
        return AsyncThrowingStream { $0.yield(now); $0.finish() }
    }

    func fetchPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[OCKPatient]>) {
        let found = patients.withLock { $0.filter { query.ids.isEmpty || query.ids.contains($0.id) } }
        callbackQueue.async { completion(.success(found)) }
    }

    func addPatients(_ new: [OCKPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKPatient]>?) {
        patients.withLock { $0 += new }
        callbackQueue.async { completion?(.success(new)) }
    }

    func updatePatients(_ changed: [OCKPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKPatient]>?) {
        patients.withLock { list in list = list.map { old in changed.first { $0.id == old.id } ?? old } }
        callbackQueue.async { completion?(.success(changed)) }
    }

    func deletePatients(_ gone: [OCKPatient], callbackQueue: DispatchQueue, completion: OCKResultClosure<[OCKPatient]>?) {
        patients.withLock { list in list.removeAll { old in gone.contains { $0.id == old.id } } }
        callbackQueue.async { completion?(.success(gone)) }
    }
}

@main
enum Example {
    static func main() async throws {
        let patients = MemoryPatientStore()
        let patient = try await patients.addPatient(OCKPatient(id: "alex", givenName: "Alex", familyName: "Kim"))
        print("patient \(patient.id): \(try await patients.fetchPatients(query: OCKPatientQuery()).count) in the custom store")

        let store = OCKStore(name: "example", type: .inMemory)
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Date(), end: nil, text: nil)
        let task = try await store.addTask(OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: nil, schedule: schedule))
        _ = try await store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)]))
        print("task \(task.id): \(try await store.fetchOutcomes(query: OCKOutcomeQuery()).count) outcome stored")
    }
}
