import Foundation
@testable import OpenCareKitStore
import Testing

/// The UUIDs the store makes for new entities and versions: version 7, later ones sorting later.
@Suite struct TimeOrderedUUIDTests {
    private func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    @Test func theyAreVersion7WithRFC9562sVariantAndCarryTheirMillisecond() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.5)
        let uuid = UUID.timeOrdered(at: date)
        let raw = bytes(uuid)
        #expect(raw[6] >> 4 == 7)
        #expect(raw[8] >> 6 == 0b10)
        let milliseconds = raw[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_795_000_000_500)
    }

    @Test func laterOnesSortLaterAsBytesAndAsText() {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        // A microsecond apart: the millisecond's fraction orders those of the same millisecond.
        let uuids = (0..<5_000).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 1e-6)) }
        let fractions = Set(uuids.map { bytes($0)[6...7] })
        #expect(fractions.count > 4)
        for (earlier, later) in zip(uuids, uuids.dropFirst()) where bytes(earlier)[0..<8] != bytes(later)[0..<8] {
            #expect(bytes(earlier).lexicographicallyPrecedes(bytes(later)))
            #expect(earlier.uuidString < later.uuidString)
        }
        #expect(Set(uuids).count == uuids.count)
    }

    @Test func newEntitiesAndTheStoresVersionsGetThem() async throws {
        let task = OCKTask(id: "walk", title: nil, carePlanUUID: nil,
                           schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(), end: nil, text: nil))
        let outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [])
        for uuid in [task.uuid, outcome.uuid, try #require(UUID(uuidString: outcome.id))] {
            #expect(bytes(uuid)[6] >> 4 == 7)
        }
        let store = OCKStore(name: "uuids", type: .inMemory)
        try await store.addTask(task)
        var update = task
        update.title = "Walk"
        let updated = try await store.updateTask(update)
        #expect(bytes(updated.uuid)[6] >> 4 == 7)
        #expect(updated.uuid != task.uuid)
    }
}
