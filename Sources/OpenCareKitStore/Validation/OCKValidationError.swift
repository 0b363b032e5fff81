import Foundation

/// A value that breaks one of the model's rules, naming the field and the rule.
///
/// CareKit traps on such values (`precondition`); OpenCareKit keeps CareKit's initializers but checks everything that
/// comes from outside — decoding, the store, the command line — with `validate()`, which throws this error instead.
/// The message names the field and the rule, never the value, so it is safe to log.
///
/// For example:
/// ```swift
/// do { try task.validate() } catch { print(error) } // "schedule.elements[0].end: must be after start"
/// ```
public struct OCKValidationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The path of the offending field, such as `schedule.elements[0].interval`.
    public var field: String
    /// The rule the value breaks, such as `must move forward in time`.
    public var reason: String

    /// An error for the field at path `field` (empty for the value itself) breaking the rule `reason`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The same error for a field nested under `parent`.
    public func nested(in parent: String) -> OCKValidationError {
        OCKValidationError(field: field.isEmpty ? parent : "\(parent).\(field)", reason: reason)
    }

    public var description: String { "\(field): \(reason)" }
    public var errorDescription: String? { description }
}

/// A model value that can check its own invariants.
public protocol OCKValidatable {
    /// Throws the first broken rule found, or returns if the value is valid.
    func validate() throws(OCKValidationError)
}

extension OCKValidatable {
    /// Validates a freshly decoded value, turning a failure into a `DecodingError` at the decoder's path.
    func checkDecoded(_ decoder: Decoder) throws {
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}

/// The range of dates OpenCareKit accepts from outside: 1900-01-01 up to Foundation's `distantFuture` (4001).
enum DateBounds {
    /// 1900-01-01T00:00:00Z.
    static let earliest = Date(timeIntervalSinceReferenceDate: -3_187_296_000)
    /// 2200-01-01T00:00:00Z: the latest start of a schedule element.
    static let latestStart = Date(timeIntervalSinceReferenceDate: 6_247_152_000)
    /// 4001-01-01T00:00:00Z (`Date.distantFuture`).
    static let latest = Date.distantFuture

    static func check(_ date: Date, field: String, latest: Date = latest) throws(OCKValidationError) {
        let t = date.timeIntervalSinceReferenceDate
        guard t.isFinite else { throw OCKValidationError(field: field, reason: "must be a finite date") }
        guard date >= earliest else { throw OCKValidationError(field: field, reason: "must not be before 1900") }
        guard date <= latest else { throw OCKValidationError(field: field, reason: "is too far in the future") }
    }
}
