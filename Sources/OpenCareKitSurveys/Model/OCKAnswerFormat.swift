import Foundation
import OpenCareKitUI

/// How a question is answered, as ResearchKit's answer formats.
public enum OCKAnswerFormat: Sendable, Hashable {
    /// A whole number from `minimum` to `maximum` (0–10 pain), with labels for the ends.
    case scale(minimum: Int, maximum: Int, minimumLabel: String, maximumLabel: String)
    /// A number with its unit and range (hours slept).
    case numeric(unit: String?, minimum: Double, maximum: Double)
    /// One of the choices, by id.
    case singleChoice([OCKChoice])
    /// Any number of the choices, by id.
    case multipleChoice([OCKChoice])
    /// Text of at most `maximumLength` characters.
    case text(maximumLength: Int)
    /// A date and time.
    case dateTime
    /// Yes or no.
    case yesNo
}

/// A choice of a choice question: an id (what results keep) and its text.
public struct OCKChoice: Sendable, Hashable, Identifiable {
    public var id: String
    /// What the participant reads.
    public var text: String

    /// A choice with the id `id`, unique in its question.
    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }
}

/// An answer to a question.
public enum OCKAnswer: Sendable, Hashable, Codable {
    /// A whole number, for a `scale` question; within its range.
    case scale(Int)
    /// A number, for a `numeric` question; finite and within its range (in its unit).
    case number(Double)
    /// The id of the one choice picked, for a `singleChoice` question.
    case choice(String)
    /// The ids of the choices picked, none twice, for a `multipleChoice` question; one outcome value each.
    case choices([String])
    /// What the participant wrote, for a `text` question: at most its `maximumLength` characters.
    case text(String)
    /// A moment, for a `dateTime` question: from 1 January 1900 to 1 January 3000 (UTC). A form's wall-clock time is
    /// read in the time zone the server gives `OCKSurveyForm`.
    case date(Date)
    /// Yes (true) or no (false), for a `yesNo` question.
    case yesNo(Bool)
}

extension OCKAnswerFormat {
    /// Whether some answer fits: a range that is not empty, at least one choice and no two with one id, room for text.
    var isAnswerable: Bool {
        switch self {
        case let .scale(minimum, maximum, _, _): minimum <= maximum && maximum - minimum <= 100
        case let .numeric(_, minimum, maximum): minimum.isFinite && maximum.isFinite && minimum <= maximum
        case let .singleChoice(choices), let .multipleChoice(choices): !choices.isEmpty && Set(choices.map(\.id)).count == choices.count
        case let .text(maximumLength): maximumLength > 0
        case .dateTime, .yesNo: true
        }
    }

    /// Throws unless `answer` fits this format: the right kind, in range, a known choice, not too long.
    func validate(_ answer: OCKAnswer, stepID: String) throws(OCKSurveyError) {
        func invalid(_ key: OCKStringKey, _ arguments: String...) -> OCKSurveyError {
            .invalidAnswer(stepID: stepID, reason: .init(key: key, arguments: arguments))
        }
        switch (self, answer) {
        case let (.scale(minimum, maximum, _, _), .scale(value)):
            guard (minimum...maximum).contains(value) else { throw invalid(.answerScaleRange, String(minimum), String(maximum)) }
        case let (.numeric(_, minimum, maximum), .number(value)):
            guard value.isFinite, value >= minimum, value <= maximum else {
                throw invalid(.answerNumberRange, HTML.fieldNumber(minimum), HTML.fieldNumber(maximum))
            }
        case let (.singleChoice(choices), .choice(id)):
            guard choices.contains(where: { $0.id == id }) else { throw invalid(.answerOneOfChoices) }
        case let (.multipleChoice(choices), .choices(ids)):
            guard ids.allSatisfy({ id in choices.contains { $0.id == id } }), Set(ids).count == ids.count else {
                throw invalid(.answerChoicesOffered)
            }
        case let (.text(maximumLength), .text(value)):
            // Characters for the reader, bytes for the server: combining marks cannot make a short answer huge.
            guard value.count <= maximumLength, value.utf8.count <= maximumLength * 4 else {
                throw invalid(.answerTooLong, String(maximumLength))
            }
        case let (.dateTime, .date(value)):
            guard value.timeIntervalSince1970.isFinite, (-2_208_988_800...32_503_680_000).contains(value.timeIntervalSince1970) else {
                throw invalid(.answerDateRange)
            }
        case (.yesNo, .yesNo):
            break
        default:
            throw invalid(.answerWrongKind)
        }
    }
}
