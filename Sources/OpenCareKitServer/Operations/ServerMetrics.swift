import CoreMetrics
import Foundation
import HTTPTypes
import Prometheus
import Synchronization

/// The server's metrics, in Prometheus's text format on `/metrics` (loopback or the operator's token only). Every
/// series has a bounded set of labels: routes are the router's patterns (never a raw path, which carries ids), the
/// methods and statuses the server answers with, and fixed names.
///
/// - `opencarekit_http_requests_total{route,method,status}` and `opencarekit_http_request_duration_seconds{route,method}`
///   (a histogram, up to the response's head: a live stream counts until it starts);
/// - `opencarekit_live_streams`: live streams (server-sent events) open now;
/// - `opencarekit_store_call_duration_seconds{kind}`: each store transaction, `read` or `write`;
/// - `opencarekit_sign_in_failures_total`: wrong passwords and codes;
/// - `opencarekit_reminders_waiting` (deferred to quiet hours' end, and follow-ups), `opencarekit_reminders_followed`
///   (schedule elements the reminder index follows), `opencarekit_reminders_total{result}` (`pushed`, `failed`,
///   `expired`, `dropped`, `skipped`, `done`, `late`), `opencarekit_reminder_lateness_seconds` (a histogram: each push message
///   from its due time until the push service answered).
///
/// Each host has its own registry (tests run several at once); the metrics go through swift-metrics' API with this
/// registry's factory.
public final class ServerMetrics: Sendable {
    /// The registry the metrics are kept in.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let requests = Mutex<[RequestSeries: (count: CoreMetrics.Counter, duration: CoreMetrics.Timer)]>([:])
    let liveStreams: Meter
    let signInFailures: CoreMetrics.Counter
    let storeReads: CoreMetrics.Timer
    let storeWrites: CoreMetrics.Timer
    let remindersWaiting: Meter
    let remindersFollowed: Meter
    private let reminderResults: [String: CoreMetrics.Counter]
    private let reminderLatenessTimer: CoreMetrics.Timer

    /// Results a reminder can have, as `opencarekit_reminders_total` labels them.
    static let reminderResultNames = ["pushed", "failed", "expired", "dropped", "skipped", "done", "late"]

    /// Metrics kept in `registry`. Every series but the request ones is made at once, so a scrape shows them before
    /// anything happens (the live-stream gauge at 0); a request series appears with its first request. ``CareHost``
    /// makes its own (its `metrics`), which `/metrics` serves.
    ///
    /// For example:
    /// ```swift
    /// let metrics = ServerMetrics()
    /// let text = String(decoding: metrics.exposition(), as: UTF8.self)
    /// ```
    ///
    /// - Parameter registry: The Prometheus registry to keep them in, a new one by default. Two instances on one
    ///   registry would count into the same series.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Page renders take milliseconds; reports and PDFs seconds.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
        ]
        // A reminder is due at a minute's start and may be sent up to 15 minutes late.
        factory.durationHistogramBuckets["opencarekit_reminder_lateness_seconds"] = [
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
            .seconds(30), .seconds(60), .seconds(300), .seconds(900),
        ]
        self.factory = factory
        reminderLatenessTimer = CoreMetrics.Timer(label: "opencarekit_reminder_lateness_seconds", factory: factory)
        liveStreams = Meter(label: "opencarekit_live_streams", factory: factory)
        signInFailures = CoreMetrics.Counter(label: "opencarekit_sign_in_failures_total", factory: factory)
        storeReads = CoreMetrics.Timer(label: "opencarekit_store_call_duration_seconds", dimensions: [("kind", "read")], factory: factory)
        storeWrites = CoreMetrics.Timer(label: "opencarekit_store_call_duration_seconds", dimensions: [("kind", "write")], factory: factory)
        remindersWaiting = Meter(label: "opencarekit_reminders_waiting", factory: factory)
        remindersFollowed = Meter(label: "opencarekit_reminders_followed", factory: factory)
        reminderResults = Dictionary(uniqueKeysWithValues: Self.reminderResultNames.map { name in
            (name, CoreMetrics.Counter(label: "opencarekit_reminders_total", dimensions: [("result", name)], factory: factory))
        })
        // The live-stream gauge is there from the start, at 0, for dashboards.
        liveStreams.set(0)
    }

    struct RequestSeries: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// Counts a request to `route` (a router pattern, or "NotFound") answered with `status` after `duration`.
    func request(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        let key = RequestSeries(route: route, method: method.rawValue, status: status.code)
        let series = requests.withLock { known in
            if let series = known[key] { return series }
            let made = (count: CoreMetrics.Counter(label: "opencarekit_http_requests_total",
                                                   dimensions: [("route", key.route), ("method", key.method), ("status", "\(key.status)")],
                                                   factory: factory),
                        duration: CoreMetrics.Timer(label: "opencarekit_http_request_duration_seconds",
                                                    dimensions: [("route", key.route), ("method", key.method)], factory: factory))
            known[key] = made
            return made
        }
        series.count.increment()
        series.duration.recordNanoseconds(duration.nanoseconds)
    }

    /// Counts `count` reminders that ended with `result` (one of `reminderResultNames`).
    func reminders(_ result: String, _ count: Int) {
        guard count > 0 else { return }
        reminderResults[result]?.increment(by: count)
    }

    /// Records one push message's lateness: from its due time until the push service answered.
    func reminderLateness(_ seconds: TimeInterval) {
        reminderLatenessTimer.recordNanoseconds(Int64(max(0, min(seconds, 86_400)) * 1e9))
    }

    /// The metrics in Prometheus's text exposition format (version 0.0.4).
    public func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// The content type of `exposition()`.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}
