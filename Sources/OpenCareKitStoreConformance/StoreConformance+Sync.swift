import Foundation
@testable import OpenCareKitStore
import Testing

extension StoreConformance {
    static let sync: [StoreCheck] = [
        StoreCheck("revisionsHoldWhatTheRemoteHasNotSeen") { store in
            let store = try #require(store as? OCKStore)
            // A store's own clock starts at 1.
            let start = try await store.knowledgeVector()
            let process = try #require(start.uuids.first)
            #expect(start == .init([process: 1]))
            let task = try await store.addTask(Fixture.daily("med"))
            let outcome = try await store.addOutcome(Fixture.done(task, 0))
            // A remote that knows nothing gets both, as one revision written under {me: 1}; the clock moves on.
            let first = try await store.computeRevisions(since: .init())
            #expect(first.knowledge == start)
            #expect(first.revisions.map(\.knowledgeVector) == [start])
            #expect(first.revisions.first?.entities.map(\.uuid) == [task.uuid, outcome.uuid])
            // Each entity whole, as a fetch gives it: an outcome with its values.
            #expect(first.revisions.first?.entities == [.task(try await store.fetchTask(withID: "med")),
                                                        .outcome(try #require(try await store.fetchOutcomes(query: OCKOutcomeQuery()).first))])
            #expect(try await store.knowledgeVector() == .init([process: 2]))
            // A remote that knows {me: 1} has seen them.
            #expect(try await store.computeRevisions(since: start).revisions.isEmpty)
            // What is written after is newer than anything a remote was told: an update and a delete come alone.
            var renamed = task
            renamed.title = "Ibuprofen"
            renamed.effectiveDate = Fixture.date(2)
            let second = try await store.updateTask(renamed)
            let tombstone = try await store.deleteOutcome(outcome)
            let next = try await store.computeRevisions(since: start)
            #expect(next.knowledge == .init([process: 3]))
            #expect(next.revisions.map(\.knowledgeVector) == [.init([process: 3])])
            #expect(next.revisions.first?.entities.map(\.uuid) == [second.uuid, tombstone.uuid])
            #expect(next.revisions.first?.entities.last?.value.deletedDate != nil)
            // A remote that knows only another device has seen none of them; one ahead on this store's clock, all.
            let stranger = try await store.computeRevisions(since: .init([UUID(): 7]))
            #expect(stranger.revisions.map(\.knowledgeVector) == [start, .init([process: 3])])
            #expect(stranger.revisions.flatMap(\.entities).count == 4)
            #expect(try await store.computeRevisions(since: .init([process: 99])).revisions.isEmpty)
            // A reset store starts again as a new process that knows nothing.
            try store.reset()
            let again = try await store.knowledgeVector()
            #expect(again.processes.count == 1 && again.uuids.first != process && again.processes.values.first == 1)
            #expect(try await store.computeRevisions(since: .init()).revisions.isEmpty)
        },
    ]
}
