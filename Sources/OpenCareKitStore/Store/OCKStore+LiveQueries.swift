import Foundation

extension OCKStore {
    /// A live query: yields `fetch()` now, then again after each committed change of `kinds` — only when the result
    /// differs from the last one yielded.
    func liveQuery<T: Equatable & Sendable>(_ kinds: StoreChanges.Kinds,
                                            _ fetch: @escaping @Sendable () async throws -> [T])
        -> some AsyncSequence<[T], any Error> & Sendable {
        AsyncThrowingStream<[T], any Error> { continuation in
            // Subscribe before the first fetch, so no change between the two is missed.
            let subscription = self.changes.subscribe()
            let work = _Concurrency.Task {
                do {
                    var last = try await fetch()
                    continuation.yield(last)
                    // Changes during a fetch collapse into one pending signal: a burst of writes costs one fetch.
                    for await _ in subscription.signals where !subscription.take().isDisjoint(with: kinds) {
                        let current = try await fetch()
                        if current != last {
                            last = current
                            continuation.yield(current)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                work.cancel()
                subscription.cancel()
            }
        }
    }
}

extension OCKStore {
    /// Yields once after each committed change to the store, of any entity, by this process or (with
    /// `watchExternalChanges`) another. Changes that arrive before the consumer reads collapse into one signal.
    ///
    /// Pages that show many kinds of data at once (charts, contact lists) use it to know when to refresh.
    public func changeSignals() -> AsyncStream<Void> {
        let subscription = changes.subscribe()
        return AsyncStream { continuation in
            let work = _Concurrency.Task {
                for await _ in subscription.signals {
                    _ = subscription.take()
                    continuation.yield()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                work.cancel()
                subscription.cancel()
            }
        }
    }
}

extension OCKStore {
    /// A number that grows with every committed change this store has announced: its own writes, `reset()`, and
    /// other processes' commits seen by `checkForExternalChanges()`. It grows before the write's call returns, so
    /// anything computed when it had one value is out of date once it has another (caches key on it).
    public var changeCount: Int { changes.count }
}
