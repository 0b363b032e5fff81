import Foundation
import Hummingbird
import OpenCareKitUI

/// The fields of an `application/x-www-form-urlencoded` body, with typed accessors whose errors name the field
/// (never its value).
struct FormFields: Sendable {
    /// Each field's first value.
    let values: [String: String]
    /// Each field's values in order (checkboxes of one name).
    let all: [String: [String]]

    init(_ body: String) {
        all = OCKFormBody.fields(body)
        values = all.compactMapValues(\.first)
    }

    /// Reads a form body of at most `limit` bytes (the context's upload size by default).
    static func read<Context: RequestContext>(_ request: Request, context: Context, limit: Int? = nil) async throws -> FormFields {
        var request = request
        let buffer = try await request.collectBody(upTo: limit ?? context.maxUploadSize)
        return FormFields(String(buffer: buffer))
    }

    /// Reads a record route's form body (the gate has read it already, up to the route's limit).
    static func read(_ request: Request, context: RecordContext, limit: Int? = nil) async throws -> FormFields {
        try await read(request, context: context.base, limit: limit)
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name], !value.isEmpty else { throw FormError(field: name, reason: .fieldRequired) }
        return value
    }

    func uuid(_ name: String) throws -> UUID {
        guard let value = UUID(uuidString: try string(name)) else { throw FormError(field: name, reason: .fieldNotUUID) }
        return value
    }

    func integer(_ name: String, in range: ClosedRange<Int> = 0...Int(Int32.max)) throws -> Int {
        guard let value = Int(try string(name)), range.contains(value) else {
            throw FormError(field: name, reason: .fieldWholeNumber, arguments: [String(range.lowerBound), String(range.upperBound)])
        }
        return value
    }

    func boolean(_ name: String) throws -> Bool {
        switch try string(name) {
        case "true": true
        case "false": false
        default: throw FormError(field: name, reason: .fieldTrueOrFalse)
        }
    }

    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double {
        let text = try string(name).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        // Decimal numbers only: `Double("0x10")` is 16, and "1e3", "inf" and "nan" are not what a person types.
        guard Self.isDecimal(text), let value = Double(text), value.isFinite else {
            throw FormError(field: name, reason: .fieldNumber)
        }
        guard range.contains(value) else {
            throw FormError(field: name, reason: .fieldNumberRange,
                            arguments: [HTML.fieldNumber(range.lowerBound), HTML.fieldNumber(range.upperBound)], status: .unprocessableContent)
        }
        return value
    }
}

extension FormFields {
    /// Whether `text` is a decimal number: an optional sign, digits, and at most one point with digits on a side.
    static func isDecimal(_ text: String) -> Bool {
        var digits = text.utf8[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        return !digits.isEmpty && parts.allSatisfy { $0.allSatisfy(isDigit) } && parts.contains { !$0.isEmpty }
            && (parts.count == 1 || digits.count > 1)
    }
}

/// A form field that is missing or wrong: 400, or 422 for a well-formed value out of range.
struct FormError: AnsweringError, Sendable {
    let formField: String
    /// A sentence of `ErrorText` taking the field's name as `{0}`, then `arguments`.
    let reason: ErrorText
    var arguments: [String] = []
    var status: HTTPResponse.Status = .badRequest

    init(field: String, reason: ErrorText, arguments: [String] = [], status: HTTPResponse.Status = .badRequest) {
        (formField, self.reason, self.arguments, self.status) = (field, reason, arguments, status)
    }

    var errorField: String? { formField }
    var message: PageMessage { PageMessage(reason, arguments: [formField] + arguments) }
    func message(in language: OCKLanguage) -> String { message.text(language) }
}
