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
        let writer = Thread {
            stdin.fileHandleForWriting.write(body)
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
