import Foundation

/// FHIR R4's primitive datatypes and the required value sets of the elements the importer reads, checked as R4
/// defines them (http://hl7.org/fhir/R4/datatypes.html): what R4 allows is accepted — a birth date of a year alone,
/// a dateTime of a day — and nothing else.
enum FHIRDatatypes {
    /// Whether `text` is an R4 `date`: a year, a year and month, or a day, with no time and no zone.
    static func isDate(_ text: String) -> Bool {
        text.wholeMatch(of: #/([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?/#) != nil
    }

    /// Whether `text` is an R4 `dateTime`: a `date`, or a day with a time and its zone.
    static func isDateTime(_ text: String) -> Bool {
        text.wholeMatch(of: #/([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?/#) != nil
    }

    /// Whether `text` is an R4 `id`.
    static func isID(_ text: String) -> Bool {
        text.wholeMatch(of: #/[A-Za-z0-9\-\.]{1,64}/#) != nil
    }

    /// R4's `integer`: 32 bits, signed.
    static let integers = Int(Int32.min)...Int(Int32.max)

    /// The codes of the required value sets the importer reads.
    enum ValueSet {
        static let bundleType: Set = ["document", "message", "transaction", "transaction-response", "batch", "batch-response",
                                      "history", "searchset", "collection"]
        static let administrativeGender: Set = ["male", "female", "other", "unknown"]
        static let carePlanStatus: Set = ["draft", "active", "on-hold", "revoked", "completed", "entered-in-error", "unknown"]
        static let carePlanIntent: Set = ["proposal", "plan", "order", "option"]
        static let carePlanActivityKind: Set = ["Appointment", "CommunicationRequest", "DeviceRequest", "MedicationRequest",
                                                "NutritionOrder", "Task", "ServiceRequest", "VisionPrescription"]
        static let carePlanActivityStatus: Set = ["not-started", "scheduled", "in-progress", "on-hold", "completed", "cancelled",
                                                  "stopped", "unknown", "entered-in-error"]
        static let observationStatus: Set = ["registered", "preliminary", "final", "amended", "corrected", "cancelled",
                                             "entered-in-error", "unknown"]
        static let questionnaireResponseStatus: Set = ["in-progress", "completed", "amended", "entered-in-error", "stopped"]
        static let consentStatus: Set = ["draft", "proposed", "active", "rejected", "inactive", "entered-in-error"]
    }

    /// The moment a `date` or `dateTime` stands for: a time as written, or the start of the year, month or day it
    /// names (in UTC, as R4 leaves partial dates without a zone); nil unless `text` is one, on a day that exists.
    static func moment(_ text: String, allowsTime: Bool = true) -> Date? {
        guard allowsTime ? isDateTime(text) : isDate(text) else { return nil }
        if text.contains("T") { return FHIRInstants().date(text) }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(year: parts[0], month: parts.count > 1 ? parts[1] : 1, day: parts.count > 2 ? parts[2] : 1)
        guard let start = calendar.date(from: components), calendar.dateComponents([.year, .month, .day], from: start) == components else {
            return nil
        }
        return start
    }
}
