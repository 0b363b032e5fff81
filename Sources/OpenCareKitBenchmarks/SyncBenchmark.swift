import Foundation
import OpenCareKitStore
import Synchronization

/// The sync benchmark (scripts/bench-sync), on disk:
///
/// (a) a device's push of `outcomeCount` outcomes merged into a record (`mergeRevisions`, after decoding the push's
///     JSON as the server does) against adding the same outcomes to a store of the same tasks with `addOutcomes`, in
///     batches of 10,000 (the store's own fastest path), in the same run;
/// (b) a device that knows nothing pulling a record of `pullVersions` versions, a page at a time, in a process of its
///     own (`sync-pull`), whose time and peak memory (max resident set) are reported.
struct SyncBenchmark {
    var outcomeCount = 100_000
    var pullVersions = 1_000_000
    var pageSize = 5_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opencarekit-bench-sync-\(UUID().uuidString)")

    func run() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await merging()
        try await pulling()
    }

    // MARK: - (a) Merging a push

    private func merging() async throws {
        let taskCount = 100
        let count = outcomeCount / taskCount * taskCount
        print("(a) Merging a push of \(count) outcomes (\(taskCount) daily tasks), against addOutcomes of the same, on disk")
        // The device: the tasks, then the outcomes, written as an app would.
        let device = OCKStore(name: "device", type: .onDisk(), directory: directory)
        let tasks = try await device.addTasks(StoreBenchmark.insertionTasks(taskCount))
        let planPage = try await device.revisions(since: .init(), limit: 1_000_000)
        _ = try await StoreBenchmark.addOutcomes(count, batch: 10_000, tasks: tasks, to: device)
        let push = try await device.revisions(since: try require(planPage.knowledge), limit: 10_000_000)
        let body = try JSONEncoder().encode(push.revisions)

        // The record the device pushes to already has the tasks (from an earlier push).
        let server = OCKStore(name: "server", type: .onDisk(), directory: directory)
        try await server.mergeRevisions(planPage.revisions, deviceKnowledge: planPage.knowledge)
        var began = DispatchTime.now().uptimeNanoseconds
        let decoded = try JSONDecoder().decode([OCKRevisionRecord].self, from: body)
        let decodeSeconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        began = DispatchTime.now().uptimeNanoseconds
        try await server.mergeRevisions(decoded, deviceKnowledge: push.knowledge)
        let mergeSeconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        let merged = try await server.fetchOutcomes(query: OCKOutcomeQuery()).count
        guard merged == count else { throw BenchmarkFailure("the server holds \(merged) outcomes after the merge, not \(count)") }

        // The reference: the same outcomes added directly to a store of the same tasks.
        let direct = OCKStore(name: "direct", type: .onDisk(), directory: directory)
        try await direct.mergeRevisions(planPage.revisions, deviceKnowledge: planPage.knowledge)
        let outcomes = decoded.flatMap(\.entities).compactMap { entity -> OCKOutcome? in
            if case let .outcome(outcome) = entity { outcome } else { nil }
        }
        var directSeconds = 0.0
        for first in stride(from: 0, to: outcomes.count, by: 10_000) {
            let chunk = Array(outcomes[first..<min(first + 10_000, outcomes.count)])
            let began = DispatchTime.now().uptimeNanoseconds
            try await direct.addOutcomes(chunk)
            directSeconds += Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        print("                                  seconds   outcomes/s")
        print(String(format: "  merge of the push                %8.2f %12.0f", mergeSeconds, Double(count) / mergeSeconds))
        print(String(format: "    (its JSON decoded first in     %8.2f)", decodeSeconds))
        print(String(format: "  addOutcomes (reference)          %8.2f %12.0f", directSeconds, Double(count) / directSeconds))
        print(String(format: "  the merge reaches %.0f%% of addOutcomes (target ≥ 40%%)", directSeconds / mergeSeconds * 100))
    }

    // MARK: - (b) Pulling a large record

    private func pulling() async throws {
        let taskCount = 100
        let perTask = max(1, pullVersions / taskCount - 1)
        let versions = taskCount * (perTask + 1)
        print("\n(b) A device that knows nothing pulls a record of \(versions) versions (\(taskCount) tasks, "
              + "\(taskCount * perTask) outcomes), \(pageSize) versions a page, in a process of its own")
        let server = OCKStore(name: "record", type: .onDisk(), directory: directory)
        let tasks = try await server.addTasks(StoreBenchmark.insertionTasks(taskCount))
        _ = try await StoreBenchmark.addOutcomes(taskCount * perTask, batch: 10_000, tasks: tasks, to: server)
        // The record's versions were written on the server, so its first sync gives them their vectors (in
        // transactions of `versionsSealedPerTransaction`): done here, timed apart, so the pull below measures pulling.
        let began = DispatchTime.now().uptimeNanoseconds
        _ = try await server.revisions(since: .init(), limit: 1)
        let perTransaction = OCKStore.versionsSealedPerTransaction
        print(String(format: "  (the server's first sync seals its %d versions in %.2f s, %d transactions of at most %d)", versions,
                     Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9,
                     (versions + perTransaction - 1) / perTransaction, perTransaction))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["sync-pull", "--data", directory.path, "--page", String(pageSize), "--expect", String(versions)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkFailure("the pulling process failed: \(output)") }
        print(output, terminator: "")
    }

    /// The pulling process: a new device store pulls the record in `data` through a remote that pages as the
    /// server's API does.
    static func pull(data: URL, page: Int, expect: Int) async throws {
        let remote = PagingRemote(server: OCKStore(name: "record", type: .onDisk(), directory: data), pageSize: page)
        let device = OCKStore(name: "pulling", type: .onDisk(), directory: data, remote: remote)
        let began = DispatchTime.now().uptimeNanoseconds
        try await device.synchronize()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        // The high-water mark of the pull itself, before the check below reads the device's store.
        let peakMiB = try Self.ownPeakResidentMiB()
        // Every version arrived: counted a page at a time (reading them all at once would be the memory measured).
        var held = 0
        var cursor: String?
        repeat {
            let page = try await device.revisions(since: .init(), after: cursor, limit: 10_000)
            held += page.revisions.reduce(0) { $0 + $1.entities.count }
            cursor = page.next
        } while cursor != nil
        guard held == expect else { throw BenchmarkFailure("the device holds \(held) versions after the pull, not \(expect)") }
        print("                                  seconds   versions/s   pages")
        print(String(format: "  pull of the whole record         %8.2f %12.0f %7d", seconds, Double(expect) / seconds, remote.pages))
        print(String(format: "  peak memory of the pulling process (its resident high-water mark): %.0f MiB (target ≤ 256 MiB)",
                     peakMiB))
    }

    /// This process image's peak resident memory, from `VmHWM` in /proc/self/status. Not `getrusage`'s `ru_maxrss`:
    /// on Linux that survives `exec`, so a process spawned by a large parent reports at least the parent's size at
    /// the spawn (the pull measured 704–768 MiB after the merge benchmark had grown the parent, 139 MiB otherwise,
    /// while its own resident size never passed 170 MiB).
    static func ownPeakResidentMiB() throws -> Double {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kiB = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw BenchmarkFailure("/proc/self/status has no VmHWM line")
        }
        return kiB / 1024
    }
}

/// A remote that is another store, paging as the server's sync API does.
final class PagingRemote: OCKAsyncRemoteSynchronizable {
    let server: OCKStore
    let pageSize: Int
    let automaticallySynchronizes = false
    private let state = Mutex(0)

    init(server: OCKStore, pageSize: Int) {
        self.server = server
        self.pageSize = pageSize
    }

    var pages: Int { state.withLock { $0 } }

    var delegate: (any OCKRemoteSynchronizationDelegate)? {
        get { nil }
        set {}
    }

    func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
                       mergeRevision: @escaping @Sendable (OCKRevisionRecord) async throws -> Void) async throws {
        var cursor: String?
        repeat {
            let page = try await server.revisions(since: knowledgeVector, after: cursor, limit: pageSize)
            state.withLock { $0 += 1 }
            for record in page.revisions { try await mergeRevision(record) }
            if let knowledge = page.knowledge { try await mergeRevision(OCKRevisionRecord(entities: [], knowledgeVector: knowledge)) }
            cursor = page.next
        } while cursor != nil
    }

    func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector) async throws {
        try await server.mergeRevisions(deviceRevisions, deviceKnowledge: deviceKnowledge)
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
