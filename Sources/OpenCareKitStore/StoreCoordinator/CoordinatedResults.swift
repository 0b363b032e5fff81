import Foundation
import Synchronization

/// The order a coordinator merges results in: a list of keys, each saying whether one result comes before another
/// (nil: they tie on that key). Results tied on every key keep the order of the stores they came from.
struct MergeOrder<Result: Sendable>: Sendable {
    var keys: [@Sendable (Result, Result) -> Bool?] = []

    /// Orders by `value`; nil sorts as the smallest value, as the stores' SQL does (first ascending, last descending).
    mutating func by<Value: Comparable & Sendable>(_ ascending: Bool, _ value: @escaping @Sendable (Result) -> Value?) {
        keys.append { lhs, rhs in
            let left = value(lhs), right = value(rhs)
            if left == right { return nil }
            guard let left else { return ascending }
            guard let right else { return !ascending }
            return ascending ? left < right : right < left
        }
    }

    /// Then CareKit's default order, newest created first, then newest updated: the stores' own order after any
    /// requested one.
    mutating func byNewestCreated() {
        by(false) { ($0 as? any OCKObjectCompatible)?.createdDate }
        by(false) { ($0 as? any OCKObjectCompatible)?.updatedDate }
    }

    /// The stores' answers (in attach order) as one sorted list.
    func merge(_ answers: [[Result]]) -> [Result] {
        let all = answers.joined().enumerated()
        return all.sorted { lhs, rhs in
            for key in keys {
                if let before = key(lhs.element, rhs.element) { return before }
            }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// A query whose offset and limit a coordinator applies to the merged result.
protocol CoordinatedQuery: Sendable {
    var limit: Int? { get set }
    var offset: Int { get set }
}

extension OCKPatientQuery: CoordinatedQuery {}
extension OCKCarePlanQuery: CoordinatedQuery {}
extension OCKContactQuery: CoordinatedQuery {}
extension OCKTaskQuery: CoordinatedQuery {}
extension OCKOutcomeQuery: CoordinatedQuery {}

extension CoordinatedQuery {
    /// What each store is asked: from the first result, as many as the merged page needs (offset + limit).
    var perStore: Self {
        var query = self
        query.offset = 0
        if let limit, limit > 0 {
            let (needed, overflow) = limit.addingReportingOverflow(max(offset, 0))
            query.limit = overflow ? nil : needed
        }
        return query
    }

    /// The query's page of the merged results (CareKit: a nil or zero limit means no limit).
    func page<Result>(_ merged: [Result]) -> [Result] {
        let rest = merged.dropFirst(max(offset, 0))
        guard let limit, limit > 0 else { return Array(rest) }
        return Array(rest.prefix(limit))
    }
}

/// Fan-out reads: every store asked at once, answers kept in store order.
enum FanOut {
    static func fetch<Store: Sendable, Query: Sendable, Result: Sendable>(
        _ stores: [Store], _ query: Query, _ fetch: @escaping @Sendable (Store, Query) async throws -> [Result]
    ) async throws -> [[Result]] {
        try await withThrowingTaskGroup(of: (Int, [Result]).self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask { (index, try await fetch(store, query)) }
            }
            var answers = [[Result]](repeating: [], count: stores.count)
            for try await (index, answer) in group { answers[index] = answer }
            return answers
        }
    }

    /// One live query from several: once every store's query has yielded, the merge of their latest results, and
    /// again whenever any of them yields. It fails when any of them fails, ends when all end, and stops them all
    /// when its consumer stops. Without stores it yields one empty result and ends. A consumer slower than the
    /// stores sees the newest merged result, not a backlog.
    static func live<Result: Sendable>(_ streams: [CareStoreQueryResults<Result>],
                                       merge: @escaping @Sendable ([[Result]]) -> [Result]) -> CareStoreQueryResults<Result> {
        let combined = AsyncThrowingStream<[Result], any Error>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            guard !streams.isEmpty else {
                continuation.yield([])
                continuation.finish()
                return
            }
            let latest = LatestAnswers<Result>(count: streams.count)
            let work = _Concurrency.Task {
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for (index, stream) in streams.enumerated() {
                            group.addTask {
                                for try await answer in stream {
                                    // Merged and yielded under the lock, so results leave in the order they were formed.
                                    latest.record(answer, at: index) { continuation.yield(merge($0)) }
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
        return CareStoreQueryResults(wrapping: combined)
    }
}

/// The newest answer of each store of a combined live query.
private final class LatestAnswers<Result: Sendable>: Sendable {
    private let answers: Mutex<[[Result]?]>

    init(count: Int) {
        answers = Mutex(Array(repeating: nil, count: count))
    }

    /// Records `answer` and, once every store has answered, passes all the newest answers to `complete`.
    func record(_ answer: [Result], at index: Int, complete: ([[Result]]) -> Void) {
        answers.withLock { answers in
            answers[index] = answer
            let all = answers.compactMap { $0 }
            if all.count == answers.count { complete(all) }
        }
    }
}
