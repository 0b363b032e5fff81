import Foundation

/// A live query's results: an asynchronous sequence that yields the current result, then a new result after each change
/// to the store that affects it. Type-erased, as in CareKitStore.
///
/// ``OCKStore``'s live queries yield a new result only when it differs from the last one, and run until a fetch fails
/// or the consumer stops iterating (leaving the loop cancels the query).
///
/// For example:
/// ```swift
/// for try await tasks in store.anyTasks(matching: OCKTaskQuery(for: Date())) {
///     print(tasks.map(\.id))
/// }
/// ```
public struct CareStoreQueryResults<Result: Sendable>: AsyncSequence, Sendable {
    public typealias Element = [Result]

    private let makeNext: @Sendable () -> @Sendable () async throws -> [Result]?

    /// Wraps any sequence of result arrays.
    public init<Base: AsyncSequence & Sendable>(wrapping base: Base) where Base.Element == [Result] {
        makeNext = {
            let iterator = IteratorBox(base.makeAsyncIterator())
            return { try await iterator.next() }
        }
    }

    /// Iterates a live query's results: each call to `next()` waits for the next result.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let nextElement: @Sendable () async throws -> [Result]?

        public mutating func next() async throws -> [Result]? {
            try await nextElement()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(nextElement: makeNext())
    }
}

/// Holds an iterator so a `@Sendable` closure can advance it. One consumer calls `next()` at a time, as
/// `AsyncIteratorProtocol` requires, so the unchecked conformance is safe.
private final class IteratorBox<Base: AsyncIteratorProtocol>: @unchecked Sendable {
    private var base: Base

    init(_ base: Base) { self.base = base }

    func next() async throws -> Base.Element? {
        try await base.next()
    }
}

/// A store that can remove all of its data: the root of the store protocols, which are all for class types.
public protocol OCKAnyResettableStore: AnyObject, Sendable {
    /// Removes every entity and version, leaving an empty store.
    ///
    /// - Throws: `OCKStoreError.resetFailed` (or the store's own error) if the store could not be emptied.
    func reset() throws
}
