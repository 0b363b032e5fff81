import Foundation
import Synchronization
@testable import OpenCareKitServer
import OpenCareKitUI
import Testing

@Suite struct LiveCareHubTests {
    func update(_ text: String) -> CareUpdate { CareUpdate(cards: [.init(id: "task-a", html: text)], calendar: "", notice: nil) }

    @Test func pagesOfOneDayShareOneSourceAndGetOnlyChanges() async throws {
        let hub = LiveCareHub()
        let key = LiveCareHub.Key(day: "2026-11-16", language: .english, today: "2026-11-16")
        let (source, feed) = AsyncThrowingStream<CareUpdate, any Error>.makeStream()
        let starts = Counter()
        let makeSource: @Sendable () -> AsyncThrowingStream<CareUpdate, any Error> = { starts.increment(); return source }
        let first = try #require(await hub.subscribe(key, source: makeSource))
        feed.yield(update("one"))
        var firstIterator = first.makeAsyncIterator()
        #expect(await firstIterator.next() == update("one"))
        // A second page gets the latest state at once, from the same source.
        let second = try #require(await hub.subscribe(key, source: makeSource))
        var secondIterator = second.makeAsyncIterator()
        #expect(await secondIterator.next() == update("one"))
        #expect(starts.value == 1)
        #expect(await hub.subscriberCounts[key] == 2)
        // The same state again is not sent; a new one goes to both.
        feed.yield(update("one"))
        feed.yield(update("two"))
        #expect(await firstIterator.next() == update("two"))
        #expect(await secondIterator.next() == update("two"))
        // When the source ends (the store failed), the pages' streams end so they reconnect.
        feed.finish()
        #expect(await firstIterator.next() == nil)
        #expect(await secondIterator.next() == nil)
    }

    @Test func anUpdateIsOneServerSentEventOfJSON() throws {
        let event = CareUpdate(cards: [.init(id: "task-a", html: "<p>line\nbreak</p>")], calendar: "<nav></nav>", notice: "n").serverSentEvent
        #expect(event.hasPrefix("event: update\ndata: {"))
        #expect(event.hasSuffix("}\n\n"))
        #expect(event.components(separatedBy: "\n").count == 4) // no raw newline inside the data line
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
