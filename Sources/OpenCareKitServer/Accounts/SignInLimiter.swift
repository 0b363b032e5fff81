import CoreMetrics
import Foundation
import Synchronization

/// Failed sign-ins, counted per client address and per email address (whether or not an account has it, so that
/// the answers never tell which emails exist), over a sliding window. Past the limit, sign-in is refused with
/// 429 until the oldest failure leaves the window. Memory is bounded: at most `maximumKeys` are tracked, the
/// stalest forgotten first.
final class SignInLimiter: Sendable {
    /// Failures are counted over this window (15 minutes).
    static let window: TimeInterval = 15 * 60
    /// Failures per email address within the window (an account is also locked for the window after 10).
    static let perEmail = 10
    /// Failures per client address within the window (several people may share one address).
    static let perAddress = 30
    static let maximumKeys = 10_000

    private let failures = Mutex<[String: [Date]]>([:])
    /// Counts every failure, for the metrics.
    private let failureCount: CoreMetrics.Counter?

    init(counting failureCount: CoreMetrics.Counter? = nil) {
        self.failureCount = failureCount
    }

    /// Seconds until sign-in may be tried again for `email` from `address`, or nil if it may be tried now.
    func retryAfter(email: String, address: String, now: Date) -> TimeInterval? {
        failures.withLock { failures in
            let limits = [("email:" + email, Self.perEmail), ("address:" + address, Self.perAddress)]
            return limits.compactMap { key, limit -> TimeInterval? in
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                failures[key] = recent.isEmpty ? nil : recent
                guard recent.count >= limit, let oldest = recent.first else { return nil }
                return Self.window - now.timeIntervalSince(oldest)
            }.max()
        }
    }

    func noteFailure(email: String, address: String, now: Date) {
        failureCount?.increment()
        failures.withLock { failures in
            for key in ["email:" + email, "address:" + address] {
                if failures[key] == nil, failures.count >= Self.maximumKeys,
                   let stalest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })?.key {
                    failures[stalest] = nil
                }
                failures[key, default: []].append(now)
                if let count = failures[key]?.count, count > Self.perAddress { failures[key]?.removeFirst(count - Self.perAddress) }
            }
        }
    }

    /// Forgets an email's failures after it signs in.
    func reset(email: String) {
        failures.withLock { _ = $0.removeValue(forKey: "email:" + email) }
    }
}
