import Foundation

/// A Python reference implementation (a script in scripts/python/ run with the interpreter of .venv), for the
/// differential tests of every target: JSON in on standard input, JSON out.
public enum PythonReference {
    /// The repository's root.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `$OPENCAREKIT_PYTHON` (scripts/test sets it), else .venv's interpreter, else the system's.
    public static var python: String {
        if let configured = ProcessInfo.processInfo.environment["OPENCAREKIT_PYTHON"] { return configured }
        let venv = root.appendingPathComponent(".venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs scripts/python/`script` with `input` (a JSON object) and returns the JSON object it printed.
    public static func run(_ script: String, _ input: [String: Any]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("scripts/python/\(script)").path]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        // Written from another thread: a script that prints while the input is still arriving cannot block both.
        let body = try JSONSerialization.data(withJSONObject: input)
        // A script that exits early (a package missing) closes its input: the write then fails (with SIGPIPE
        // ignored, as the servers under test ignore it), and the exit status below reports it; the non-throwing
        // `write(_:)`, or the signal, would stop the whole test process.
        signal(SIGPIPE, SIG_IGN)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: body)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(script) failed (run scripts/test to install its packages): \(message)")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "\(script) printed no JSON object")
        }
        return object
    }
}

/// A Python script that runs beside a test (a local stand-in for a service): started with `arguments`, it prints one
/// JSON line when ready and runs until its standard input closes (`stop()`, or the test process ending).
public final class PythonService: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    /// What the script printed when it was ready.
    public let ready: [String: Any]

    public init(_ script: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: PythonReference.python)
        process.arguments = [PythonReference.root.appendingPathComponent("scripts/python/\(script)").path] + arguments
        let output = Pipe()
        (process.standardInput, process.standardOutput) = (input, output)
        try process.run()
        // Read with read(2), retried when a signal interrupts it (other tests' processes end meanwhile).
        var line = Data()
        var byte: UInt8 = 0
        while true {
            let count = read(output.fileHandleForReading.fileDescriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            line.append(byte)
        }
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            try? input.fileHandleForWriting.close()
            throw PythonReference.Failure(description: "\(script) did not start (run scripts/test to install its packages)")
        }
        ready = object
    }

    /// Ends the script and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { stop() }
}
