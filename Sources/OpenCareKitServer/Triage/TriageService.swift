import Foundation
import Logging
import OpenCareKitDirectory
import OpenCareKitStore
import ServiceLifecycle

/// Raises each record's alerts (`CareHost.raiseAlerts(of:at:)`): after every change to a record open in this
/// process — whoever wrote it: a page, the JSON API, a sync, an import, the command line or another server, while the
/// record is open here — and, where `sweepsDaily`, at the start of each record's day in its time zone (the missed-
/// doses and no-activity rules change with the day alone; the directory is read on the quarter hours, when a day can
/// begin) and once at start-up for every record.
///
/// Changes are handled one record at a time, in the order they come; a record that changes while it is being looked
/// at is looked at once more after, however often it changed. A day's sweep looks at `sweepConcurrency` records at once.
/// With several app servers on one database, every server raises alerts for its own changes and exactly one sweeps
/// (`--no-triage-sweep` on the others).
public actor TriageService: Service {
    private let host: CareHost
    private let sweepsDaily: Bool
    private let logger: Logger
    /// Each record's day (in its time zone) when the sweep last looked at it.
    private var sweptDay: [CareRecordID: String] = [:]
    /// Records changed while their change was handled, to look at again.
    private var pending: [CareRecordID] = []
    private var pendingSet: Set<CareRecordID> = []
    private var draining = false

    static let sweepConcurrency = 4
    static let pageSize = 500

    /// A service raising `host`'s alerts; `CareHost.triageService(sweepsDaily:)` makes the same one. Add it to the
    /// application's services on every app server of a database, with `sweepsDaily` on exactly one.
    ///
    /// For example:
    /// ```swift
    /// let triage = TriageService(host: host, sweepsDaily: true)
    /// let app = Application(router: host.router(), services: [triage])
    /// ```
    ///
    /// - Parameters:
    ///   - host: The host whose records and change feed the service follows.
    ///   - sweepsDaily: Whether this server also looks at every record at start-up and at the start of each
    ///     record's day; false on all but one app server (as `serve --no-triage-sweep` does).
    ///   - logger: Where failures are logged (by the error's type, never a record's data).
    public init(host: CareHost, sweepsDaily: Bool, logger: Logger = Logger(label: "opencarekit.triage")) {
        self.host = host
        self.sweepsDaily = sweepsDaily
        self.logger = logger
    }

    public func run() async throws {
        let changes = host.changeFeed.subscribe()
        let (wake, wakeInput) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // Taking changes never waits for the alerts of earlier ones, so none is dropped from the feed.
                group.addTask { [self] in
                    for await record in changes {
                        await self.enqueue(record)
                        wakeInput.yield()
                    }
                }
                group.addTask { [self] in
                    for await _ in wake { await self.drain() }
                }
                if self.sweepsDaily {
                    group.addTask { [self] in
                        var first = true
                        while !Task.isCancelled {
                            // A day begins somewhere only on a quarter hour (every time zone is whole quarter hours
                            // from UTC): the directory is read then, and once at start-up.
                            let minute = Int((self.host.configuration.now().timeIntervalSince1970 / 60).rounded(.down))
                            if first || minute % 15 == 0 { _ = await self.sweep(at: self.host.configuration.now()) }
                            first = false
                            let now = self.host.configuration.now().timeIntervalSince1970
                            let next = (now / 60).rounded(.down) * 60 + 60
                            try? await Task.sleep(for: .milliseconds(Int64((next - now) * 1_000) + 50))
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// Raises the alerts of `record` (and of any record waiting).
    package func changed(_ record: CareRecordID) async {
        enqueue(record)
        await drain()
    }

    /// Adds `record` to the records waiting, unless it waits already.
    private func enqueue(_ record: CareRecordID) {
        if pendingSet.insert(record).inserted { pending.append(record) }
    }

    /// Raises the alerts of the records waiting, in order, until none waits. A record that changes while it is looked
    /// at waits again.
    private func drain() async {
        guard !draining else { return }
        draining = true
        while !pending.isEmpty {
            let next = pending.removeFirst()
            pendingSet.remove(next)
            await evaluate(next, at: host.configuration.now())
        }
        draining = false
    }

    /// Looks at every record whose day began since the sweep last looked at it (every record, the first time); how
    /// many it looked at.
    package func sweep(at now: Date) async -> Int {
        var looked = 0
        var after: CareRecordID?
        while true {
            let page: [CareRecord]
            do {
                page = try await host.directory.records(limit: Self.pageSize, after: after)
            } catch {
                logger.error("triage: the directory could not be read", metadata: ["error": "\(type(of: error))"])
                return looked
            }
            let due = page.filter { sweptDay[$0.id] != CareServer.dayString(now, calendar: CareHost.calendar(of: $0)) }
            // A record whose alerts could not be raised is looked at again at the next sweep.
            let raised = await concurrently(due, limit: Self.sweepConcurrency) { [self] record in
                await self.raise(record, at: now) ? record : nil
            }.compactMap { $0 }
            for record in raised { sweptDay[record.id] = CareServer.dayString(now, calendar: CareHost.calendar(of: record)) }
            looked += due.count
            guard page.count == Self.pageSize, let last = page.last else { return looked }
            after = last.id
        }
    }

    private func evaluate(_ id: CareRecordID, at now: Date) async {
        do {
            // A record gone from the directory has nothing to raise.
            guard let record = try await host.directory.record(id) else { return }
            _ = await raise(record, at: now)
        } catch {
            logger.warning("triage: the directory could not be read", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// Raises `record`'s alerts; false (logged) if they could not be.
    private nonisolated func raise(_ record: CareRecord, at now: Date) async -> Bool {
        do {
            try await host.raiseAlerts(of: record, at: now)
            return true
        } catch {
            // No patient data: the error's type only.
            logger.warning("triage: a record's alerts could not be raised", metadata: ["error": "\(type(of: error))"])
            return false
        }
    }
}

extension CareHost {
    /// The service that raises this host's alerts (`TriageService`); `sweepsDaily` on exactly one app server.
    public func triageService(sweepsDaily: Bool) -> TriageService {
        TriageService(host: self, sweepsDaily: sweepsDaily)
    }
}
