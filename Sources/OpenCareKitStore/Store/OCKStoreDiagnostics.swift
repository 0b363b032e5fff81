import CoreMetrics
import Foundation
import Logging

/// What a store tells its operator about its own work: how long each call takes (to a metrics timer), and a
/// warning in the log for a call slower than `slowCallThreshold`, naming the call (`fetchEvents(query:)`) and its
/// duration — never the data it read or wrote.
///
/// A store reports nothing until given diagnostics:
/// ```swift
/// store.diagnostics = OCKStoreDiagnostics(logger: logger, readTimer: Timer(label: "store_read"))
/// ```
public struct OCKStoreDiagnostics: Sendable {
    /// Where slow calls are reported; its metadata (a record's hashed id, say) is on every line.
    public var logger: Logger
    /// A call taking longer is logged at `warning` (250 ms by default).
    public var slowCallThreshold: Duration
    /// Receives each read transaction's duration.
    public var readTimer: CoreMetrics.Timer?
    /// Receives each write transaction's duration.
    public var writeTimer: CoreMetrics.Timer?

    /// Diagnostics that log calls slower than `slowCallThreshold` to `logger` and time reads and writes with the timers
    /// given.
    public init(logger: Logger, slowCallThreshold: Duration = .milliseconds(250),
                readTimer: CoreMetrics.Timer? = nil, writeTimer: CoreMetrics.Timer? = nil) {
        self.logger = logger
        self.slowCallThreshold = slowCallThreshold
        self.readTimer = readTimer
        self.writeTimer = writeTimer
    }

    /// Notes that the call `function` (a read or a write) took `duration`.
    func record(_ function: String, isWrite: Bool, duration: Duration) {
        let timer = isWrite ? writeTimer : readTimer
        timer?.recordNanoseconds(duration.nanoseconds)
        if duration > slowCallThreshold {
            logger.warning("slow store call", metadata: [
                "call": "\(function)", "kind": isWrite ? "write" : "read", "duration_ms": "\(duration.milliseconds)",
            ])
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// The duration in milliseconds, with a fraction (for logs).
    package var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}
