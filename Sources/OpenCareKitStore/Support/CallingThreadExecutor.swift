import Foundation
import Synchronization

/// Runs asynchronous work to its end on the calling thread, for the places where synchronous code must wait for it:
/// a transaction's body inside SQLite's (GRDB's) synchronous transaction, and CareKit's synchronous calls.
///
/// The work runs as a task that prefers this executor, so each of its jobs — its start, and every resumption after an
/// await — is queued here and run by the waiting thread. The work needs no thread of the cooperative pool (where a
/// blocked caller might hold the last one) and, inside SQLite's transaction, runs on the connection's own thread, as
/// GRDB requires. Awaits of other executors (an actor, a PostgreSQL answer) suspend the work; the thread waits until
/// its next job comes.
package final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard !finished else {
            condition.unlock()
            // No thread waits here any more (a job of a task that outlived the work): the global executor runs it.
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` and blocks the calling thread, which runs the work's jobs, until it ends.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let executor = CallingThreadExecutor()
        let result = Mutex<Result<T, any Error>?>(nil)
        Task(executorPreference: executor) {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            executor.finish()
        }
        executor.runJobs()
        guard let outcome = result.withLock({ $0 }) else { throw CancellationError() }
        return try outcome.get()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs queued jobs, waiting for more, until the work has finished and nothing is queued.
    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
