import Foundation
import Logging
import OpenCareKitStore
import Synchronization

/// How the server writes its log to standard error: `text` (swift-log's stream format, for people) or `json` (one
/// JSON object a line, for log collectors).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's `StreamLogHandler` lines, for people reading the log.
    case text
    /// One JSON object a line (``JSONLinesLogHandler``), for log collectors.
    case json

    /// A logger labelled `label` writing in this format at `level` and above to standard error.
    public func logger(label: String, level: Logger.Level) -> Logger {
        var logger = switch self {
        case .text: Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        case .json: Logger(label: label) { JSONLinesLogHandler(label: $0, sink: JSONLinesLogHandler.standardError) }
        }
        logger.logLevel = level
        return logger
    }
}

/// A log handler writing each message as one line of JSON: `time` (ISO 8601 with milliseconds, UTC), `level`,
/// `label`, `message`, the metadata's keys (the logger's, then the message's), and `source`. Lines are written whole.
public struct JSONLinesLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let sink: @Sendable (String) -> Void

    /// A handler for the logger `label` that passes each line to `sink`; it logs `info` and above until its
    /// `logLevel` is changed.
    ///
    /// For example:
    /// ```swift
    /// let logger = Logger(label: "opencarekit") { label in
    ///     JSONLinesLogHandler(label: label, sink: JSONLinesLogHandler.standardError)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The logger's label, written as each line's `label`.
    ///   - sink: Called with each line, newline included, on the thread that logs; it may be called from several
    ///     threads at once, so it must write each line whole (as `standardError` does).
    public init(label: String, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [(String, Logger.Metadata.Value)] = [
            ("time", .string(Self.timestamp(Date()))), ("level", .string(event.level.rawValue)), ("label", .string(label)),
            ("message", .string(event.message.description)),
        ]
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let given = event.metadata { merged.merge(given) { $1 } }
        fields += merged.sorted { $0.key < $1.key }.filter { !["time", "level", "label", "message"].contains($0.key) }
        fields.append(("source", .string(event.source)))
        sink("{" + fields.map { "\(Self.quoted($0.0)):\(Self.json($0.1))" }.joined(separator: ",") + "}\n")
    }

    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case let .string(text): quoted(text)
        case let .stringConvertible(convertible): quoted(convertible.description)
        case let .array(values): "[" + values.map(json).joined(separator: ",") + "]"
        case let .dictionary(values): "{" + values.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        JSONStringLiteral.quoted(text)
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().timeZone(separator: .omitted).time(includingFractionalSeconds: true)
            .timeSeparator(.colon).dateSeparator(.dash).dateTimeSeparator(.standard))
    }

    /// Writes lines to standard error, one whole line a write.
    public static let standardError: @Sendable (String) -> Void = { line in
        errorLock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    private static let errorLock = Mutex<Void>(())
}
