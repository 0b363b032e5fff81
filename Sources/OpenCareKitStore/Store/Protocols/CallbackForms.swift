import Foundation
import Synchronization

// CareKit's callback forms of the store API, for code written against CareKit before async/await: each runs the
// async form and hands its result to `completion` on `callbackQueue`. As in CareKit the queue defaults to the main
// queue, which only runs callbacks in a process that runs its main loop (`dispatchMain()`, `RunLoop.main.run()`); a
// server or command-line tool passes another queue. Errors that are not `OCKStoreError`s arrive as the operation's
// `OCKStoreError` case with the error's description.
//
// A write without a completion (`store.addTask(task)` from synchronous code, as CareKit allows) compiles and neither
// waits nor reports an error. It is unavailable from async code: in top-level code (a `main.swift`, where Swift ranks
// a synchronous candidate first) `_ = try await store.addOutcome(outcome)` would pick it and silently not wait, as
// with CareKit; here that is a compile error that says so. A write on a named queue without a completion
// (`store.addTask(task, callbackQueue: q)`) is CareKit's fire and forget from anywhere.

/// Runs `work` after the calls made before it on `store`, and delivers its result to `completion` on `queue`.
func deliver<T: Sendable>(for store: some Any, on queue: DispatchQueue, to completion: OCKResultClosure<T>?,
                          failure: @escaping @Sendable (String) -> OCKStoreError,
                          _ work: @escaping @Sendable () async throws -> T) {
    CallbackLine.shared.run(for: CallbackLine.key(of: store)) {
        let result: Result<T, OCKStoreError>
        do {
            result = .success(try await work())
        } catch let error as OCKStoreError {
            result = .failure(error)
        } catch {
            result = .failure(failure(String(describing: error)))
        }
        // Nothing to deliver: no block left on the queue (the main queue never runs one in a process without a main loop).
        guard let completion else { return }
        queue.async { completion(result) }
    }
}

/// The order of a store's callback calls. CareKit's store runs its calls one after the other on one queue, so code
/// written for it relies on `store.addTask(task, callbackQueue: q)` being in place for the call made after it, which
/// need not wait (`store.addOutcome(outcome, callbackQueue: q) { … }`). Here each store's callback calls run in the
/// order they were made, each once the one before it ended (its completion need not have run); calls on different
/// stores, and the async forms, do not wait for each other. A store is the instance for a class (and an actor), and
/// its type for a value type, which has no identity.
///
/// Bounded by the caller: a line holds the calls made and not yet run, and is gone once it is empty.
final class CallbackLine: Sendable {
    static let shared = CallbackLine()

    /// The last call of each store that has calls left to run, and a number naming it.
    private let tails = Mutex<(next: UInt64, last: [ObjectIdentifier: (number: UInt64, run: _Concurrency.Task<Void, Never>)])>((0, [:]))

    static func key(of store: some Any) -> ObjectIdentifier {
        let type = type(of: store as Any)
        return type is AnyClass ? ObjectIdentifier(store as AnyObject) : ObjectIdentifier(type)
    }

    /// The call the current task runs for its store's line: the store, and the call's number.
    @TaskLocal static var running: (store: ObjectIdentifier, number: UInt64)?
    /// The call each store's line runs now.
    private let current = Mutex<[ObjectIdentifier: UInt64]>([:])

    /// Runs `work` once the store's calls made before it have ended. A call that a store's own call makes while it runs
    /// (its async form answering through one of its callback forms) runs at once: waiting behind the call that made it
    /// would never end. (A task the call started that calls the store after the call ended waits in line as any caller.)
    func run(for key: ObjectIdentifier, _ work: @escaping @Sendable () async -> Void) {
        if let running = Self.running, running.store == key, current.withLock({ $0[key] }) == running.number {
            _Concurrency.Task { await work() }
            return
        }
        tails.withLock { tails in
            let before = tails.last[key]?.run
            let number = tails.next
            tails.next &+= 1
            let run = _Concurrency.Task {
                await before?.value
                self.current.withLock { $0[key] = number }
                await Self.$running.withValue((key, number)) { await work() }
                self.current.withLock { if $0[key] == number { $0[key] = nil } }
                self.ended(number, of: key)
            }
            tails.last[key] = (number, run)
        }
    }

    private func ended(_ number: UInt64, of key: ObjectIdentifier) {
        tails.withLock { tails in
            if tails.last[key]?.number == number { tails.last[key] = nil }
        }
    }
}


extension OCKAnyReadOnlyPatientStore {
    /// CareKit's callback form of `fetchAnyPatients(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchAnyPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<[any OCKAnyPatient]>) {
        StoreForms.checkImplemented(Self.self, "fetchAnyPatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyPatients(query: query) }
    }

    /// CareKit's callback form of `fetchAnyPatient(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyPatient(withID id: String, callbackQueue: DispatchQueue = .main,
                                completion: @escaping OCKResultClosure<any OCKAnyPatient>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyPatient(withID: id) }
    }
}

extension OCKAnyPatientStore {
    /// CareKit's callback form of `addAnyPatients(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyPatient]>?) {
        StoreForms.checkImplemented(Self.self, "addAnyPatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyPatients(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue) {
        addAnyPatients(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyPatients(_ values: [any OCKAnyPatient]) {
        addAnyPatients(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addAnyPatient(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyPatient>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyPatient(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue) {
        addAnyPatient(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyPatient(_ value: any OCKAnyPatient) {
        addAnyPatient(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyPatients(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func updateAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyPatient]>?) {
        StoreForms.checkImplemented(Self.self, "updateAnyPatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyPatients(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue) {
        updateAnyPatients(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyPatients(_ values: [any OCKAnyPatient]) {
        updateAnyPatients(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyPatient(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyPatient>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyPatient(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue) {
        updateAnyPatient(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyPatient(_ value: any OCKAnyPatient) {
        updateAnyPatient(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyPatients(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func deleteAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyPatient]>?) {
        StoreForms.checkImplemented(Self.self, "deleteAnyPatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyPatients(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyPatients(_ values: [any OCKAnyPatient], callbackQueue: DispatchQueue) {
        deleteAnyPatients(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyPatients(_ values: [any OCKAnyPatient]) {
        deleteAnyPatients(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyPatient(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyPatient>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyPatient(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyPatient(_ value: any OCKAnyPatient, callbackQueue: DispatchQueue) {
        deleteAnyPatient(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyPatient(_ value: any OCKAnyPatient) {
        deleteAnyPatient(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKReadablePatientStore {
    /// CareKit's callback form of `fetchPatients(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchPatients(query: OCKPatientQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[Patient]>) {
        StoreForms.checkImplemented(Self.self, "fetchPatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchPatients(query: query) }
    }

    /// CareKit's callback form of `fetchPatient(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchPatient(withID id: String, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<Patient>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchPatient(withID: id) }
    }
}

extension OCKPatientStore {
    /// CareKit's callback form of `addPatients(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addPatients(_ values: [Patient], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Patient]>?) {
        StoreForms.checkImplemented(Self.self, "addPatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addPatients(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addPatients(_ values: [Patient], callbackQueue: DispatchQueue) {
        addPatients(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addPatients(_ values: [Patient]) {
        addPatients(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addPatient(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addPatient(_ value: Patient, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Patient>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addPatient(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addPatient(_ value: Patient, callbackQueue: DispatchQueue) {
        addPatient(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addPatient(_ value: Patient) {
        addPatient(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updatePatients(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func updatePatients(_ values: [Patient], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Patient]>?) {
        StoreForms.checkImplemented(Self.self, "updatePatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updatePatients(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updatePatients(_ values: [Patient], callbackQueue: DispatchQueue) {
        updatePatients(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updatePatients(_ values: [Patient]) {
        updatePatients(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updatePatient(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updatePatient(_ value: Patient, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Patient>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updatePatient(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updatePatient(_ value: Patient, callbackQueue: DispatchQueue) {
        updatePatient(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updatePatient(_ value: Patient) {
        updatePatient(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deletePatients(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func deletePatients(_ values: [Patient], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Patient]>?) {
        StoreForms.checkImplemented(Self.self, "deletePatients")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deletePatients(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deletePatients(_ values: [Patient], callbackQueue: DispatchQueue) {
        deletePatients(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deletePatients(_ values: [Patient]) {
        deletePatients(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deletePatient(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deletePatient(_ value: Patient, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Patient>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deletePatient(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deletePatient(_ value: Patient, callbackQueue: DispatchQueue) {
        deletePatient(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deletePatient(_ value: Patient) {
        deletePatient(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKAnyReadOnlyCarePlanStore {
    /// CareKit's callback form of `fetchAnyCarePlans(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchAnyCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue = .main,
                                  completion: @escaping OCKResultClosure<[any OCKAnyCarePlan]>) {
        StoreForms.checkImplemented(Self.self, "fetchAnyCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyCarePlans(query: query) }
    }

    /// CareKit's callback form of `fetchAnyCarePlan(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyCarePlan(withID id: String, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<any OCKAnyCarePlan>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyCarePlan(withID: id) }
    }
}

extension OCKAnyCarePlanStore {
    /// CareKit's callback form of `addAnyCarePlans(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue = .main,
                                completion: OCKResultClosure<[any OCKAnyCarePlan]>?) {
        StoreForms.checkImplemented(Self.self, "addAnyCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyCarePlans(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue) {
        addAnyCarePlans(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyCarePlans(_ values: [any OCKAnyCarePlan]) {
        addAnyCarePlans(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addAnyCarePlan(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<any OCKAnyCarePlan>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyCarePlan(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue) {
        addAnyCarePlan(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyCarePlan(_ value: any OCKAnyCarePlan) {
        addAnyCarePlan(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyCarePlans(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue = .main,
                                   completion: OCKResultClosure<[any OCKAnyCarePlan]>?) {
        StoreForms.checkImplemented(Self.self, "updateAnyCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyCarePlans(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue) {
        updateAnyCarePlans(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyCarePlans(_ values: [any OCKAnyCarePlan]) {
        updateAnyCarePlans(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyCarePlan(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<any OCKAnyCarePlan>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyCarePlan(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue) {
        updateAnyCarePlan(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyCarePlan(_ value: any OCKAnyCarePlan) {
        updateAnyCarePlan(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyCarePlans(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue = .main,
                                   completion: OCKResultClosure<[any OCKAnyCarePlan]>?) {
        StoreForms.checkImplemented(Self.self, "deleteAnyCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyCarePlans(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan], callbackQueue: DispatchQueue) {
        deleteAnyCarePlans(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyCarePlans(_ values: [any OCKAnyCarePlan]) {
        deleteAnyCarePlans(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyCarePlan(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<any OCKAnyCarePlan>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyCarePlan(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyCarePlan(_ value: any OCKAnyCarePlan, callbackQueue: DispatchQueue) {
        deleteAnyCarePlan(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyCarePlan(_ value: any OCKAnyCarePlan) {
        deleteAnyCarePlan(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKReadableCarePlanStore {
    /// CareKit's callback form of `fetchCarePlans(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchCarePlans(query: OCKCarePlanQuery, callbackQueue: DispatchQueue = .main,
                               completion: @escaping OCKResultClosure<[Plan]>) {
        StoreForms.checkImplemented(Self.self, "fetchCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchCarePlans(query: query) }
    }

    /// CareKit's callback form of `fetchCarePlan(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchCarePlan(withID id: String, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<Plan>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchCarePlan(withID: id) }
    }
}

extension OCKCarePlanStore {
    /// CareKit's callback form of `addCarePlans(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addCarePlans(_ values: [Plan], callbackQueue: DispatchQueue = .main,
                             completion: OCKResultClosure<[Plan]>?) {
        StoreForms.checkImplemented(Self.self, "addCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addCarePlans(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addCarePlans(_ values: [Plan], callbackQueue: DispatchQueue) {
        addCarePlans(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addCarePlans(_ values: [Plan]) {
        addCarePlans(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addCarePlan(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addCarePlan(_ value: Plan, callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<Plan>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addCarePlan(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addCarePlan(_ value: Plan, callbackQueue: DispatchQueue) {
        addCarePlan(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addCarePlan(_ value: Plan) {
        addCarePlan(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateCarePlans(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func updateCarePlans(_ values: [Plan], callbackQueue: DispatchQueue = .main,
                                completion: OCKResultClosure<[Plan]>?) {
        StoreForms.checkImplemented(Self.self, "updateCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateCarePlans(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateCarePlans(_ values: [Plan], callbackQueue: DispatchQueue) {
        updateCarePlans(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateCarePlans(_ values: [Plan]) {
        updateCarePlans(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateCarePlan(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateCarePlan(_ value: Plan, callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<Plan>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateCarePlan(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateCarePlan(_ value: Plan, callbackQueue: DispatchQueue) {
        updateCarePlan(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateCarePlan(_ value: Plan) {
        updateCarePlan(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteCarePlans(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func deleteCarePlans(_ values: [Plan], callbackQueue: DispatchQueue = .main,
                                completion: OCKResultClosure<[Plan]>?) {
        StoreForms.checkImplemented(Self.self, "deleteCarePlans")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteCarePlans(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteCarePlans(_ values: [Plan], callbackQueue: DispatchQueue) {
        deleteCarePlans(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteCarePlans(_ values: [Plan]) {
        deleteCarePlans(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteCarePlan(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteCarePlan(_ value: Plan, callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<Plan>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteCarePlan(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteCarePlan(_ value: Plan, callbackQueue: DispatchQueue) {
        deleteCarePlan(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteCarePlan(_ value: Plan) {
        deleteCarePlan(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKAnyReadOnlyContactStore {
    /// CareKit's callback form of `fetchAnyContacts(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchAnyContacts(query: OCKContactQuery, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<[any OCKAnyContact]>) {
        StoreForms.checkImplemented(Self.self, "fetchAnyContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyContacts(query: query) }
    }

    /// CareKit's callback form of `fetchAnyContact(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyContact(withID id: String, callbackQueue: DispatchQueue = .main,
                                completion: @escaping OCKResultClosure<any OCKAnyContact>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyContact(withID: id) }
    }
}

extension OCKAnyContactStore {
    /// CareKit's callback form of `addAnyContacts(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyContact]>?) {
        StoreForms.checkImplemented(Self.self, "addAnyContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyContacts(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue) {
        addAnyContacts(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyContacts(_ values: [any OCKAnyContact]) {
        addAnyContacts(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addAnyContact(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyContact>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyContact(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue) {
        addAnyContact(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyContact(_ value: any OCKAnyContact) {
        addAnyContact(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyContacts(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func updateAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyContact]>?) {
        StoreForms.checkImplemented(Self.self, "updateAnyContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyContacts(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue) {
        updateAnyContacts(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyContacts(_ values: [any OCKAnyContact]) {
        updateAnyContacts(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyContact(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyContact>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyContact(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue) {
        updateAnyContact(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyContact(_ value: any OCKAnyContact) {
        updateAnyContact(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyContacts(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func deleteAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyContact]>?) {
        StoreForms.checkImplemented(Self.self, "deleteAnyContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyContacts(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyContacts(_ values: [any OCKAnyContact], callbackQueue: DispatchQueue) {
        deleteAnyContacts(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyContacts(_ values: [any OCKAnyContact]) {
        deleteAnyContacts(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyContact(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyContact>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyContact(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyContact(_ value: any OCKAnyContact, callbackQueue: DispatchQueue) {
        deleteAnyContact(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyContact(_ value: any OCKAnyContact) {
        deleteAnyContact(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKReadableContactStore {
    /// CareKit's callback form of `fetchContacts(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchContacts(query: OCKContactQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[Contact]>) {
        StoreForms.checkImplemented(Self.self, "fetchContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchContacts(query: query) }
    }

    /// CareKit's callback form of `fetchContact(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchContact(withID id: String, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<Contact>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchContact(withID: id) }
    }
}

extension OCKContactStore {
    /// CareKit's callback form of `addContacts(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addContacts(_ values: [Contact], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Contact]>?) {
        StoreForms.checkImplemented(Self.self, "addContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addContacts(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addContacts(_ values: [Contact], callbackQueue: DispatchQueue) {
        addContacts(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addContacts(_ values: [Contact]) {
        addContacts(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addContact(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addContact(_ value: Contact, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Contact>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addContact(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addContact(_ value: Contact, callbackQueue: DispatchQueue) {
        addContact(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addContact(_ value: Contact) {
        addContact(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateContacts(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func updateContacts(_ values: [Contact], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Contact]>?) {
        StoreForms.checkImplemented(Self.self, "updateContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateContacts(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateContacts(_ values: [Contact], callbackQueue: DispatchQueue) {
        updateContacts(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateContacts(_ values: [Contact]) {
        updateContacts(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateContact(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateContact(_ value: Contact, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Contact>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateContact(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateContact(_ value: Contact, callbackQueue: DispatchQueue) {
        updateContact(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateContact(_ value: Contact) {
        updateContact(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteContacts(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func deleteContacts(_ values: [Contact], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Contact]>?) {
        StoreForms.checkImplemented(Self.self, "deleteContacts")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteContacts(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteContacts(_ values: [Contact], callbackQueue: DispatchQueue) {
        deleteContacts(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteContacts(_ values: [Contact]) {
        deleteContacts(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteContact(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteContact(_ value: Contact, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Contact>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteContact(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteContact(_ value: Contact, callbackQueue: DispatchQueue) {
        deleteContact(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteContact(_ value: Contact) {
        deleteContact(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKAnyReadOnlyTaskStore {
    /// CareKit's callback form of `fetchAnyTasks(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchAnyTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[any OCKAnyTask]>) {
        StoreForms.checkImplemented(Self.self, "fetchAnyTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyTasks(query: query) }
    }

    /// CareKit's callback form of `fetchAnyTask(withID:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyTask(withID id: String, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<any OCKAnyTask>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyTask(withID: id) }
    }
}

extension OCKAnyTaskStore {
    /// CareKit's callback form of `addAnyTasks(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[any OCKAnyTask]>?) {
        StoreForms.checkImplemented(Self.self, "addAnyTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyTasks(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue) {
        addAnyTasks(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyTasks(_ values: [any OCKAnyTask]) {
        addAnyTasks(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addAnyTask(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<any OCKAnyTask>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyTask(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue) {
        addAnyTask(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyTask(_ value: any OCKAnyTask) {
        addAnyTask(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyTasks(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func updateAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyTask]>?) {
        StoreForms.checkImplemented(Self.self, "updateAnyTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyTasks(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue) {
        updateAnyTasks(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyTasks(_ values: [any OCKAnyTask]) {
        updateAnyTasks(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyTask(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyTask>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyTask(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue) {
        updateAnyTask(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyTask(_ value: any OCKAnyTask) {
        updateAnyTask(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyTasks(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func deleteAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyTask]>?) {
        StoreForms.checkImplemented(Self.self, "deleteAnyTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyTasks(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyTasks(_ values: [any OCKAnyTask], callbackQueue: DispatchQueue) {
        deleteAnyTasks(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyTasks(_ values: [any OCKAnyTask]) {
        deleteAnyTasks(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyTask(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyTask>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyTask(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyTask(_ value: any OCKAnyTask, callbackQueue: DispatchQueue) {
        deleteAnyTask(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyTask(_ value: any OCKAnyTask) {
        deleteAnyTask(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKReadableTaskStore {
    /// CareKit's callback form of `fetchTasks(query:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other by default.
    public func fetchTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue = .main,
                           completion: @escaping OCKResultClosure<[Task]>) {
        StoreForms.checkImplemented(Self.self, "fetchTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchTasks(query: query) }
    }

    /// CareKit's callback form of `fetchTask(withID:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``).
    public func fetchTask(withID id: String, callbackQueue: DispatchQueue = .main,
                          completion: @escaping OCKResultClosure<Task>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchTask(withID: id) }
    }
}

extension OCKTaskStore {
    /// CareKit's callback form of `addTasks(_:)`: runs it and hands its result to `completion` on `callbackQueue` (see
    /// ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements this
    /// form or the async one; each gets the other by default.
    public func addTasks(_ values: [Task], callbackQueue: DispatchQueue = .main,
                         completion: OCKResultClosure<[Task]>?) {
        StoreForms.checkImplemented(Self.self, "addTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addTasks(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addTasks(_ values: [Task], callbackQueue: DispatchQueue) {
        addTasks(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addTasks(_ values: [Task]) {
        addTasks(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addTask(_:)`: runs it and hands its result to `completion` on `callbackQueue` (see
    /// ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addTask(_ value: Task, callbackQueue: DispatchQueue = .main,
                        completion: OCKResultClosure<Task>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addTask(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addTask(_ value: Task, callbackQueue: DispatchQueue) {
        addTask(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addTask(_ value: Task) {
        addTask(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateTasks(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func updateTasks(_ values: [Task], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Task]>?) {
        StoreForms.checkImplemented(Self.self, "updateTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateTasks(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateTasks(_ values: [Task], callbackQueue: DispatchQueue) {
        updateTasks(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateTasks(_ values: [Task]) {
        updateTasks(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateTask(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateTask(_ value: Task, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Task>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateTask(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateTask(_ value: Task, callbackQueue: DispatchQueue) {
        updateTask(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateTask(_ value: Task) {
        updateTask(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteTasks(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func deleteTasks(_ values: [Task], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Task]>?) {
        StoreForms.checkImplemented(Self.self, "deleteTasks")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteTasks(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteTasks(_ values: [Task], callbackQueue: DispatchQueue) {
        deleteTasks(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteTasks(_ values: [Task]) {
        deleteTasks(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteTask(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteTask(_ value: Task, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Task>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteTask(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteTask(_ value: Task, callbackQueue: DispatchQueue) {
        deleteTask(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteTask(_ value: Task) {
        deleteTask(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKAnyReadOnlyOutcomeStore {
    /// CareKit's callback form of `fetchAnyOutcomes(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchAnyOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                                 completion: @escaping OCKResultClosure<[any OCKAnyOutcome]>) {
        StoreForms.checkImplemented(Self.self, "fetchAnyOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyOutcomes(query: query) }
    }

    /// CareKit's callback form of `fetchAnyOutcome(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyOutcome(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                                completion: @escaping OCKResultClosure<any OCKAnyOutcome>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyOutcome(query: query) }
    }
}

extension OCKAnyOutcomeStore {
    /// CareKit's callback form of `addAnyOutcomes(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[any OCKAnyOutcome]>?) {
        StoreForms.checkImplemented(Self.self, "addAnyOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyOutcomes(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue) {
        addAnyOutcomes(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyOutcomes(_ values: [any OCKAnyOutcome]) {
        addAnyOutcomes(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addAnyOutcome(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<any OCKAnyOutcome>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addAnyOutcome(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue) {
        addAnyOutcome(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addAnyOutcome(_ value: any OCKAnyOutcome) {
        addAnyOutcome(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyOutcomes(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyOutcome]>?) {
        StoreForms.checkImplemented(Self.self, "updateAnyOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyOutcomes(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue) {
        updateAnyOutcomes(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyOutcomes(_ values: [any OCKAnyOutcome]) {
        updateAnyOutcomes(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateAnyOutcome(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyOutcome>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateAnyOutcome(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue) {
        updateAnyOutcome(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateAnyOutcome(_ value: any OCKAnyOutcome) {
        updateAnyOutcome(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyOutcomes(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A
    /// store implements this form or the async one; each gets the other by default.
    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue = .main,
                                  completion: OCKResultClosure<[any OCKAnyOutcome]>?) {
        StoreForms.checkImplemented(Self.self, "deleteAnyOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyOutcomes(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome], callbackQueue: DispatchQueue) {
        deleteAnyOutcomes(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyOutcomes(_ values: [any OCKAnyOutcome]) {
        deleteAnyOutcomes(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteAnyOutcome(_:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue = .main,
                                 completion: OCKResultClosure<any OCKAnyOutcome>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteAnyOutcome(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteAnyOutcome(_ value: any OCKAnyOutcome, callbackQueue: DispatchQueue) {
        deleteAnyOutcome(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteAnyOutcome(_ value: any OCKAnyOutcome) {
        deleteAnyOutcome(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKReadableOutcomeStore {
    /// CareKit's callback form of `fetchOutcomes(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``). A store implements this form or the async one; each gets the other
    /// by default.
    public func fetchOutcomes(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<[Outcome]>) {
        StoreForms.checkImplemented(Self.self, "fetchOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchOutcomes(query: query) }
    }

    /// CareKit's callback form of `fetchOutcome(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchOutcome(query: OCKOutcomeQuery, callbackQueue: DispatchQueue = .main,
                             completion: @escaping OCKResultClosure<Outcome>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchOutcome(query: query) }
    }
}

extension OCKOutcomeStore {
    /// CareKit's callback form of `addOutcomes(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func addOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue = .main,
                            completion: OCKResultClosure<[Outcome]>?) {
        StoreForms.checkImplemented(Self.self, "addOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addOutcomes(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue) {
        addOutcomes(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addOutcomes(_ values: [Outcome]) {
        addOutcomes(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `addOutcome(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func addOutcome(_ value: Outcome, callbackQueue: DispatchQueue = .main,
                           completion: OCKResultClosure<Outcome>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.addFailed) { try await self.addOutcome(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func addOutcome(_ value: Outcome, callbackQueue: DispatchQueue) {
        addOutcome(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func addOutcome(_ value: Outcome) {
        addOutcome(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateOutcomes(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func updateOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Outcome]>?) {
        StoreForms.checkImplemented(Self.self, "updateOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateOutcomes(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue) {
        updateOutcomes(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateOutcomes(_ values: [Outcome]) {
        updateOutcomes(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `updateOutcome(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func updateOutcome(_ value: Outcome, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Outcome>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.updateFailed) { try await self.updateOutcome(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func updateOutcome(_ value: Outcome, callbackQueue: DispatchQueue) {
        updateOutcome(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func updateOutcome(_ value: Outcome) {
        updateOutcome(value, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteOutcomes(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing. A store implements
    /// this form or the async one; each gets the other by default.
    public func deleteOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue = .main,
                               completion: OCKResultClosure<[Outcome]>?) {
        StoreForms.checkImplemented(Self.self, "deleteOutcomes")
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteOutcomes(values) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteOutcomes(_ values: [Outcome], callbackQueue: DispatchQueue) {
        deleteOutcomes(values, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteOutcomes(_ values: [Outcome]) {
        deleteOutcomes(values, callbackQueue: .main, completion: nil)
    }

    /// CareKit's callback form of `deleteOutcome(_:)`: runs it and hands its result to `completion` on `callbackQueue`
    /// (see ``OCKResultClosure``). With a nil `completion` the call still runs and reports nothing.
    public func deleteOutcome(_ value: Outcome, callbackQueue: DispatchQueue = .main,
                              completion: OCKResultClosure<Outcome>?) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.deleteFailed) { try await self.deleteOutcome(value) }
    }

    /// Fire and forget, delivering nothing (CareKit's `completion: nil`).
    public func deleteOutcome(_ value: Outcome, callbackQueue: DispatchQueue) {
        deleteOutcome(value, callbackQueue: callbackQueue, completion: nil)
    }

    /// CareKit's write without a completion, from synchronous code: it neither waits for the store nor reports an error.
    @available(*, noasync, message: "This completion-less write does not wait for the store (in top-level code Swift picks it over the async form): write the code in an async function, or pass a completion")
    public func deleteOutcome(_ value: Outcome) {
        deleteOutcome(value, callbackQueue: .main, completion: nil)
    }
}

extension OCKAnyReadOnlyEventStore {
    /// CareKit's callback form of `fetchAnyEvents(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyEvents(query: OCKEventQuery, callbackQueue: DispatchQueue = .main,
                               completion: @escaping OCKResultClosure<[OCKAnyEvent]>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAnyEvents(query: query) }
    }

    /// CareKit's callback form of `fetchAnyEvent(forTask:occurrence:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int, callbackQueue: DispatchQueue = .main,
                              completion: @escaping OCKResultClosure<OCKAnyEvent>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) {
            try await self.fetchAnyEvent(forTask: task, occurrence: occurrence)
        }
    }

    /// CareKit's callback form of `fetchAdherence(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchAdherence(query: OCKAdherenceQuery, callbackQueue: DispatchQueue = .main,
                               completion: @escaping OCKResultClosure<[OCKAdherence]>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchAdherence(query: query) }
    }
}

extension OCKReadOnlyEventStore {
    /// CareKit's callback form of `fetchEvents(query:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchEvents(query: OCKEventQuery, callbackQueue: DispatchQueue = .main,
                            completion: @escaping OCKResultClosure<[Event]>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) { try await self.fetchEvents(query: query) }
    }

    /// CareKit's callback form of `fetchEvent(forTask:occurrence:)`: runs it and hands its result to `completion` on
    /// `callbackQueue` (see ``OCKResultClosure``).
    public func fetchEvent(forTask task: Task, occurrence: Int, callbackQueue: DispatchQueue = .main,
                           completion: @escaping OCKResultClosure<Event>) {
        deliver(for: self, on: callbackQueue, to: completion, failure: OCKStoreError.fetchFailed) {
            try await self.fetchEvent(forTask: task, occurrence: occurrence)
        }
    }
}
