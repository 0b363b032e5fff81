import Foundation

/// A type an outcome value can hold: `Int`, `Double`, `Bool`, `String`, `Data` or `Date`.
public protocol OCKOutcomeValueUnderlyingType: Codable, Sendable {}

extension Int: OCKOutcomeValueUnderlyingType {}
extension Double: OCKOutcomeValueUnderlyingType {}
extension Bool: OCKOutcomeValueUnderlyingType {}
extension String: OCKOutcomeValueUnderlyingType {}
extension Data: OCKOutcomeValueUnderlyingType {}
extension Date: OCKOutcomeValueUnderlyingType {}

/// The type of value an `OCKOutcomeValue` holds; the raw value is its JSON `type`.
public enum OCKOutcomeValueType: String, Codable, Hashable, Sendable, CaseIterable {
    /// An `Int`, a `Double`, a `Bool`, a `String`, `Data` or a `Date` value, in that order.
    case integer, double, boolean, text, binary, date
}

/// One value recorded for an event (a dose taken, a pain level, a note), or a target a schedule expects.
///
/// Same API and JSON as CareKitStore: `{"type": "double", "createdDate": …, "units": "mg", "value": 200}`.
///
/// For example:
/// ```swift
/// var dose = OCKOutcomeValue(200.0, units: "mg")
/// dose.kind = "ibuprofen"
/// dose.doubleValue // 200
/// ```
public struct OCKOutcomeValue: Codable, Hashable, Sendable, CustomStringConvertible {
    /// An optional tag saying what the value measures, such as a survey question id.
    public var kind: String?
    /// The units of the value, such as "mg".
    public var units: String?
    /// When the value was recorded.
    public var createdDate: Date
    /// When what the value measures ended, if it spans time.
    public var endDate: Date?
    /// The value itself.
    public var value: OCKOutcomeValueUnderlyingType

    /// A value with optional units, recorded now.
    public init(_ value: OCKOutcomeValueUnderlyingType, units: String? = nil) {
        self.init(value, units: units, createdDate: Date())
    }

    /// A value with optional units, recorded at `createdDate`.
    public init(_ value: OCKOutcomeValueUnderlyingType, units: String? = nil, createdDate: Date) {
        self.value = value
        self.units = units
        self.createdDate = createdDate
    }

    /// The type of `value`.
    public var type: OCKOutcomeValueType {
        switch value {
        case is Int: .integer
        case is Double: .double
        case is Bool: .boolean
        case is String: .text
        case is Data: .binary
        default: .date
        }
    }

    /// The value if it is an `Int`.
    public var integerValue: Int? { value as? Int }
    /// The value if it is a `Double`.
    public var doubleValue: Double? { value as? Double }
    /// The value if it is a `Bool`.
    public var booleanValue: Bool? { value as? Bool }
    /// The value if it is a `String`.
    public var stringValue: String? { value as? String }
    /// The value if it is `Data`.
    public var dataValue: Data? { value as? Data }
    /// The value if it is a `Date`.
    public var dateValue: Date? { value as? Date }

    /// The value as a number, for integer, double and boolean values.
    public var numberValue: NSNumber? {
        switch value {
        case let value as Int: NSNumber(value: value)
        case let value as Double: NSNumber(value: value)
        case let value as Bool: NSNumber(value: value)
        default: nil
        }
    }

    /// The value as a `Double` for integer, double and boolean values (a boolean is 0 or 1).
    var doubleRepresentation: Double? {
        switch value {
        case let value as Int: Double(value)
        case let value as Double: value
        case let value as Bool: value ? 1 : 0
        default: nil
        }
    }

    public var description: String {
        switch value {
        case let value as Data: "\(value.count) bytes"
        default: "\(value)"
        }
    }

    // MARK: - Equality

    /// As in CareKit, two values are equal when they say the same — the same value of the same type, kind, units
    /// and end — whenever each was recorded: `createdDate` is left out (compare it apart where the moment matters).
    public static func == (lhs: OCKOutcomeValue, rhs: OCKOutcomeValue) -> Bool {
        lhs.type == rhs.type && lhs.kind == rhs.kind && lhs.units == rhs.units
            && lhs.endDate == rhs.endDate && lhs.hashableValue == rhs.hashableValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(kind)
        hasher.combine(units)
        hasher.combine(endDate)
        hasher.combine(hashableValue)
    }

    private var hashableValue: AnyHashable {
        switch value {
        case let value as Int: AnyHashable(value)
        case let value as Double: AnyHashable(value)
        case let value as Bool: AnyHashable(value)
        case let value as String: AnyHashable(value)
        case let value as Data: AnyHashable(value)
        case let value as Date: AnyHashable(value)
        default: AnyHashable(0)
        }
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case kind, units, value, type, createdDate, endDate
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(createdDate, forKey: .createdDate)
        try container.encodeIfPresent(endDate, forKey: .endDate)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(units, forKey: .units)
        switch value {
        case let value as Int: try container.encode(value, forKey: .value)
        case let value as Double: try container.encode(value, forKey: .value)
        case let value as String: try container.encode(value, forKey: .value)
        case let value as Bool: try container.encode(value, forKey: .value)
        case let value as Data: try container.encode(value, forKey: .value)
        case let value as Date: try container.encode(value, forKey: .value)
        default:
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "Unsupported outcome value type"))
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(OCKOutcomeValueType.self, forKey: .type)
        switch type {
        case .integer: value = try container.decode(Int.self, forKey: .value)
        case .double: value = try container.decode(Double.self, forKey: .value)
        case .boolean: value = try container.decode(Bool.self, forKey: .value)
        case .text: value = try container.decode(String.self, forKey: .value)
        case .binary: value = try container.decode(Data.self, forKey: .value)
        case .date: value = try container.decode(Date.self, forKey: .value)
        }
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        units = try container.decodeIfPresent(String.self, forKey: .units)
        createdDate = try container.decode(Date.self, forKey: .createdDate)
        endDate = try container.decodeIfPresent(Date.self, forKey: .endDate)
        try checkDecoded(decoder)
    }
}

extension OCKOutcomeValue: OCKValidatable {
    /// Throws if a date is outside 1900…4001 or a number is not finite.
    public func validate() throws(OCKValidationError) {
        try DateBounds.check(createdDate, field: "createdDate")
        if let endDate { try DateBounds.check(endDate, field: "endDate") }
        if let value = value as? Double, !value.isFinite {
            throw OCKValidationError(field: "value", reason: "must be a finite number")
        }
        if let value = value as? Date { try DateBounds.check(value, field: "value") }
    }
}
