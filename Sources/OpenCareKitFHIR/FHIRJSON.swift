import Foundation
import OpenCareKitStore

/// A FHIR resource as JSON, with its object members in the order they were made (`resourceType` first, as FHIR's
/// examples write it), so that an export is the same text every time.
///
/// For example:
/// ```swift
/// let patient: FHIRJSON = .object(
///     ("resourceType", "Patient"),
///     ("id", "r1"),
///     ("gender", nil),               // left out
///     ("name", .array([])))          // left out
/// patient.text                       // {"resourceType":"Patient","id":"r1"}
/// patient["id"]?.string              // "r1"
/// ```
public indirect enum FHIRJSON: Sendable, Hashable {
    /// A JSON string: FHIR's `string`, `code`, `id`, `uri`, `date`, `dateTime`, `instant`, `base64Binary` and the like.
    case string(String)
    /// A JSON number without a fraction, written as its digits: FHIR's `integer`, `positiveInt` and `unsignedInt`.
    case integer(Int)
    /// A JSON number that may have a fraction: FHIR's `decimal`. `text` writes it in plain digits, without an
    /// exponent, and writes a value that is not finite (which JSON cannot hold) as `0`.
    case decimal(Double)
    /// A JSON `true` or `false`: FHIR's `boolean`.
    case bool(Bool)
    /// A JSON array, its items in order. FHIR has no empty arrays: the variadic `object(_:)` leaves them out.
    case array([FHIRJSON])
    /// A JSON object, its members in the order given (and written in that order by `text`).
    case object([Member])

    /// One member of a JSON object: its key and its value.
    public struct Member: Sendable, Hashable {
        /// The member's name, such as `resourceType` or `valueQuantity`.
        public var key: String
        /// The member's value.
        public var value: FHIRJSON

        /// A member named `key` holding `value`.
        ///
        /// - Parameters:
        ///   - key: The member's name.
        ///   - value: The member's value.
        public init(_ key: String, _ value: FHIRJSON) {
            self.key = key
            self.value = value
        }
    }

    /// An object of the members given, leaving out those that are nil and arrays that are empty (FHIR has no empty
    /// arrays or nulls).
    public static func object(_ members: (String, FHIRJSON?)...) -> FHIRJSON {
        .object(members.compactMap { key, value in
            guard let value else { return nil }
            if case let .array(items) = value, items.isEmpty { return nil }
            return Member(key, value)
        })
    }

    /// The member `key` of an object.
    public subscript(key: String) -> FHIRJSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string; nil for any other value.
    public var string: String? { if case let .string(text) = self { text } else { nil } }
    /// The items of an array; nil for any other value.
    public var array: [FHIRJSON]? { if case let .array(items) = self { items } else { nil } }
    /// The value of a Boolean; nil for any other value (a string `"true"` included).
    public var bool: Bool? { if case let .bool(flag) = self { flag } else { nil } }
    /// A number, whole or not.
    public var number: Double? {
        switch self {
        case let .integer(number): Double(number)
        case let .decimal(number): number
        default: nil
        }
    }
    /// A whole number: an integer, or a decimal without a fraction whose magnitude is below 10¹⁵ (as JSON reads
    /// `2.0`); nil for a decimal with a fraction and for any value that is not a number.
    public var integer: Int? {
        switch self {
        case let .integer(number): number
        case let .decimal(number) where number.rounded() == number && abs(number) < 1e15: Int(number)
        default: nil
        }
    }

    /// The JSON text, without spaces.
    public var text: String {
        var output = ""
        write(into: &output)
        return output
    }

    private func write(into output: inout String) {
        switch self {
        case let .string(text): Self.writeString(text, into: &output)
        case let .integer(number): output += String(number)
        case let .decimal(number): output += number.isFinite ? Self.decimalText(number) : "0"
        case let .bool(flag): output += flag ? "true" : "false"
        case let .array(items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(into: &output)
            }
            output += "]"
        case let .object(members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, into: &output)
                output += ":"
                member.value.write(into: &output)
            }
            output += "}"
        }
    }

    /// A decimal as its shortest text that reads back the same, without an exponent (FHIR decimals allow one, but
    /// plain digits read everywhere).
    static func decimalText(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        let text = "\(number)"
        guard text.contains("e") else { return text }
        return NSDecimalNumber(string: text).stringValue
    }

    private static func writeString(_ text: String, into output: inout String) {
        JSONStringLiteral.append(text, to: &output)
    }
}

extension FHIRJSON: Decodable {
    /// Reads any JSON (member order is not kept: it carries no meaning). `null` is refused: FHIR has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .decimal(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([FHIRJSON].self) {
            self = .array(items)
        } else if let members = try? container.decode([String: FHIRJSON].self) {
            self = .object(members.sorted { $0.key < $1.key }.map { Member($0.key, $0.value) })
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "FHIR JSON has no null values.")
        }
    }
}

extension FHIRJSON: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
