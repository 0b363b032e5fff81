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
        // The day must exist (in the proleptic Gregorian calendar R4 uses): the parsers below would roll 2026-02-29
        // over to March.
        let day = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        if day.count == 3, day[2] > daysIn(month: day[1], year: day[0]) { return nil }
        if text.contains("T") {
            // A leap second, which R4 allows, is the second after :59.
            guard text.dropFirst(17).hasPrefix("60") else { return FHIRInstants().date(text) }
            var text = text
            text.replaceSubrange(text.index(text.startIndex, offsetBy: 17)..<text.index(text.startIndex, offsetBy: 19), with: "59")
            return FHIRInstants().date(text)?.addingTimeInterval(1)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(year: day[0], month: day.count > 1 ? day[1] : 1, day: day.count > 2 ? day[2] : 1))
    }

    /// The days of `month` of `year` in the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
