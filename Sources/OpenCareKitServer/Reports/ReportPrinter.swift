import Foundation
import Synchronization

/// Prints a report page to PDF with headless Chromium, the server's one optional runtime dependency: without it the
/// report's PDF link says what is missing, and printing from the browser still works.
///
/// Each PDF is one Chromium process on a page written to a temporary directory with its stylesheet (the page itself
/// forbids scripts and connections in its CSP), every network name unresolvable (the page needs nothing from outside),
/// killed after `timeout`; at most
/// `maximumConcurrent` run at once, and more are refused (the person tries again).
public final class ReportPrinter: Sendable {
    /// Why a PDF was not made. The report page answers `busy` with 503 Service Unavailable and `Retry-After: 5`,
    /// and `failed(_:)` with 500, as the server's fault.
    public enum Failure: Error, Sendable {
        /// `maximumConcurrent` PDFs are being made.
        case busy
        /// Chromium failed, or ran out of time.
        case failed(String)
    }

    /// The Chromium executable, or nil when none was found.
    public let chromium: String?
    /// The stylesheet written beside each page.
    let stylesheet: String
    let timeout: Duration
    let maximumConcurrent: Int
    private let running = Mutex(0)
    /// The most bytes of PDF read back.
    static let maximumBytes = 64 << 20

    /// The names `chromium` is looked for under on `PATH`, in order.
    public static let executableNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// A printer using `chromium` (a path), or the first of `executableNames` found on `PATH`.
    public init(chromium: String? = nil, stylesheet: String, timeout: Duration = .seconds(60), maximumConcurrent: Int = 2) {
        self.chromium = chromium ?? Self.findOnPath()
        self.stylesheet = stylesheet
        self.timeout = timeout
        self.maximumConcurrent = maximumConcurrent
    }

    static func findOnPath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in executableNames {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// The PDF of `html`, a whole page whose stylesheet link is `report.css`.
    func pdf(of html: String) async throws -> Data {
        guard let chromium else { throw Failure.failed("no Chromium") }
        let admitted = running.withLock { count in
            guard count < maximumConcurrent else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Failure.busy }
        defer { running.withLock { $0 -= 1 } }
        let directory = FileManager.default.temporaryDirectory.appending(path: "ock-report-\(UUID().uuidString)")
        // Readable by this server's user only: it holds a patient's report while Chromium prints it.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appending(path: "report.html"), output = directory.appending(path: "report.pdf")
        try Data(html.utf8).write(to: page)
        try Data(stylesheet.utf8).write(to: directory.appending(path: "report.css"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-extensions", "--disable-background-networking",
            "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND",
            "--user-data-dir=\(directory.appending(path: "profile").path)", "--no-pdf-header-footer",
            "--print-to-pdf=\(output.path)", page.absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status = try await run(process)
        guard status == 0, let data = try? Data(contentsOf: output), data.starts(with: Data("%PDF".utf8)), data.count <= Self.maximumBytes else {
            throw Failure.failed("Chromium ended with status \(status)")
        }
        return data
    }

    /// Runs `process` to its end, or kills it after `timeout`; its exit status (-1 when killed).
    private func run(_ process: Process) async throws -> Int32 {
        let ended = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { process in
            ended.continuation.yield(process.terminationStatus)
            ended.continuation.finish()
        }
        try process.run()
        let timeout = self.timeout
        return await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in ended.stream { return status }
                return -1
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            var terminated = false
            while let result = await group.next() {
                if let status = result { return status }
                // Out of time (or cancelled): ask Chromium to stop; one that has not after a grace period is killed.
                if !terminated {
                    terminated = true
                    process.terminate()
                    group.addTask {
                        try? await Task.sleep(for: .seconds(5))
                        return nil
                    }
                } else {
                    kill(process.processIdentifier, SIGKILL)
                }
            }
            return -1
        }
    }
}
