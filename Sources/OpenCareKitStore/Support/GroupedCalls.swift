/// Calls that arrive while one is under way wait for the next, and share it: one `perform` for a burst of callers
/// rather than one each (group commit). A caller's `perform` always starts after it asked, so it sees everything
/// done before the call.
///
/// For example, audit entries appended as one transaction per burst of requests, or one read of a record's revision
/// for every request that arrived while the last read was under way.
package actor GroupedCalls<Item: Sendable, Output: Sendable> {
    private let perform: @Sendable ([Item]) async throws -> Output
    private var pending: [(items: [Item], done: CheckedContinuation<Output, any Error>)] = []
    private var isPerforming = false

    /// - Parameter perform: Does the work of every caller of a burst, their items in the order they came.
    package init(_ perform: @escaping @Sendable ([Item]) async throws -> Output) {
        self.perform = perform
    }

    /// Adds `items` to the next `perform` and returns its output (or throws its error) once it has finished.
    package func call(_ items: [Item] = []) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            pending.append((items, continuation))
            if !isPerforming {
                isPerforming = true
                Task { await self.drain() }
            }
        }
    }

    /// How many callers wait for the next `perform` (for tests).
    package var waiting: Int { pending.count }

    private func drain() async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            do {
                let output = try await perform(batch.flatMap(\.items))
                for caller in batch { caller.done.resume(returning: output) }
            } catch {
                for caller in batch { caller.done.resume(throwing: error) }
            }
        }
        isPerforming = false
    }
}
