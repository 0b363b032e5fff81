import Foundation

/// The built `opencarekit` executable run as a separate process, for the tests of every target that need it.
public enum CommandProcess {
    /// The executable, next to the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("opencarekit")
    }

    /// A minimal environment: the given time zone and a plain PATH, nothing inherited.
    public static func environment(timeZone: String = "UTC") -> [String: String] {
        ["TZ": timeZone, "PATH": "/usr/bin:/bin"]
    }

    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    /// Runs a command to its end, with `input` on its standard input.
    public static func run(_ arguments: [String], environment: [String: String] = environment(), input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                      errors: String(decoding: err, as: UTF8.self))
    }

    /// A server started by `startServer`: its process, the address it printed, and what it printed until then.
    public struct Server: Sendable {
        public let process: Process
        public let url: String
        public let output: String
    }

    /// Starts `serve` and waits for the line with its address (or for the process to end); standard output and
    /// error go to one pipe.
    public static func startServer(_ arguments: [String], environment: [String: String]) throws -> Server {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        while !text.contains("(Ctrl-C to stop)") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let url = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("http://") }.map(String.init) ?? ""
        return Server(process: process, url: url, output: text)
    }
}
