import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// The care records a host has open: at most `capacity` servers (their stores, page caches and live hubs), the
/// least recently used closed first. Records open on first use, so a host with 10,000 records starts at once.
///
/// A record closed here while a live page still follows it stays open for that page until it goes (the page holds
/// its server); the next request opens it again.
final class CareRecordPool: Sendable {
    private struct State {
        var servers: [CareRecordID: (server: CareServer, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int
    private let open: @Sendable (CareRecord) throws -> CareServer

    init(capacity: Int, open: @escaping @Sendable (CareRecord) throws -> CareServer) {
        self.capacity = max(1, capacity)
        self.open = open
    }

    /// The open server of record `id`, opening it from `load`'s record if needed; nil if `load` finds none.
    func server(for id: CareRecordID, load: () async throws -> CareRecord?) async throws -> CareServer? {
        if let server = state.withLock({ Self.use(id, in: &$0) }) { return server }
        guard let record = try await load() else { return nil }
        let opened = try open(record)
        return state.withLock { state in
            if let server = Self.use(id, in: &state) { return server }
            if state.servers.count >= capacity, let oldest = state.servers.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.servers[oldest] = nil
            }
            state.clock += 1
            state.servers[id] = (opened, state.clock)
            return opened
        }
    }

    private static func use(_ id: CareRecordID, in state: inout State) -> CareServer? {
        guard let entry = state.servers[id] else { return nil }
        state.clock += 1
        state.servers[id]?.lastUse = state.clock
        return entry.server
    }

    /// The server of record `id` if it is open, without counting as a use.
    func openServer(_ id: CareRecordID) -> CareServer? { state.withLock { $0.servers[id]?.server } }

    /// How many records are open.
    var openCount: Int { state.withLock { $0.servers.count } }

    /// Whether record `id` is open.
    func isOpen(_ id: CareRecordID) -> Bool { state.withLock { $0.servers[id] != nil } }
}
