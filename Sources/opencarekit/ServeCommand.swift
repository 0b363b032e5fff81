import ArgumentParser
import Foundation
import Hummingbird
import Logging
import OpenCareKit
import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys

/// `opencarekit serve`: the care app in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the care app: the daily tasks page in a browser, on this machine only by default.")

    @Option(help: "The address to listen on (default: 127.0.0.1, this machine only).")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The data directory holding opencarekit.sqlite (default: $OPENCAREKIT_DATA_DIR, else $XDG_DATA_HOME/opencarekit, else ~/.local/share/opencarekit).")
    var data: String?

    @Flag(help: "Add the demo care plan when the store is empty (onboarding first, then the care feed), and run its surveys and show its cards in their demo styles.")
    var demo = false

    @Option(help: "The patient's IANA time zone (default: this machine's).")
    var zone: String = TimeZone.current.identifier

    func run() async throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port: must be from 0 to 65535") }
        guard let timeZone = TimeZone(identifier: zone) else { throw ValidationError("--zone: not a known time zone identifier") }
        let directory = data.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let store = OCKStore(name: "opencarekit", type: .onDisk(), directory: directory)
        do {
            try store.open()
        } catch {
            throw ValidationError("cannot open the store in the data directory: \((error as? LocalizedError)?.errorDescription ?? "\(type(of: error))")")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if demo, try await store.fetchTasks(query: OCKTaskQuery()).isEmpty {
            try await OCKDemoCarePlan(calendar: calendar, start: calendar.startOfDay(for: Date())).seed(into: store)
            Self.say("Added the demo care plan.")
        }
        // On loopback, answer only to loopback names, so a rebinding DNS name cannot reach the app.
        let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]
        let server = CareServer(store: store, configuration: .init(
            timeZone: timeZone, cardStyles: demo ? OCKDemoCarePlan.cardStyles : [:], insights: demo ? OCKDemoCarePlan.insights : [],
            surveys: demo ? OCKDemoSurveys.byTaskID : [:], onboardingTaskID: demo ? OCKDemoSurveys.onboardingTaskID : nil,
            allowedHosts: loopback.contains(host.lowercased()) ? loopback : nil))
        var logger = Logger(label: "opencarekit")
        logger.logLevel = .warning
        let host = self.host
        let app = Application(
            router: server.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenCareKit"),
            services: [ExternalChangeWatcher(store: store)],
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                Self.say("OpenCareKit is running at http://\(shown):\(bound)/ (Ctrl-C to stop)")
            },
            logger: logger)
        do {
            try await app.runService()
        } catch {
            throw ValidationError("cannot serve on \(host):\(port): \(Self.describe(error))")
        }
    }

    /// Writes a line to standard output at once (print is buffered when the output is a file or a pipe).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// "address already in use" rather than a NIO error dump.
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") || text.contains("EADDRINUSE") { return "the port is in use" }
        if text.contains("Permission denied") || text.contains("EACCES") { return "permission denied" }
        if text.contains("Cannot assign requested address") || text.contains("EADDRNOTAVAIL") { return "no such address here" }
        return text.split(separator: "\n").first.map(String.init) ?? "\(type(of: error))"
    }
}
