@testable import OpenCareKitStore
import Synchronization
import Testing

/// Group commit: callers that ask while a `perform` is under way share the next one, which starts after they asked.
@Suite struct GroupedCallsTests {
    @Test func callsThatArriveDuringAPerformShareTheNextOneAndAnErrorReachesEachOfItsCallers() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (started, start) = AsyncStream<Void>.makeStream()
        let performed = Mutex<[[Int]]>([])
        struct Refused: Error {}
        let calls = GroupedCalls<Int, Int> { items in
            let count = performed.withLock { performed in
                performed.append(items)
                return performed.count
            }
            if count == 1 {
                start.yield()
                for await _ in gate { break }
            }
            if items.contains(4) { throw Refused() }
            return count
        }
        async let first = calls.call([1])
        for await _ in started { break }
        // The first perform is under way: these two wait for the next, together.
        async let second = calls.call([2])
        async let third = calls.call([3])
        while await calls.waiting < 2 { await Task.yield() }
        open.yield()
        let answers = try await [first, second, third]
        #expect(answers == [1, 2, 2])
        #expect(performed.withLock { $0 } == [[1], [2, 3]])
        await #expect(throws: Refused.self) { try await calls.call([4]) }
        #expect(try await calls.call([5]) == 4)
    }
}
