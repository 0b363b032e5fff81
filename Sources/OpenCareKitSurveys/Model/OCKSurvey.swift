import Foundation
import OpenCareKitUI

/// An ordered survey, as ResearchKit's ordered task: onboarding, informed consent, or a daily check-in. Steps have
/// identifiers that results and outcome values are keyed by.
///
/// For example:
/// ```swift
/// let checkIn = try OCKSurvey(id: "check-in", title: "Daily check-in", steps: [
///     OCKSurveyStep(id: "pain", kind: .question(prompt: "How would you rate your pain today?",
///                   format: .scale(minimum: 0, maximum: 10, minimumLabel: "none", maximumLabel: "worst"))),
///     OCKSurveyStep(id: "notes", kind: .question(prompt: "Anything to add?", format: .text(maximumLength: 500)),
///                   isOptional: true),
/// ])
/// ```
public struct OCKSurvey: Sendable, Hashable, Identifiable {
    /// The `userInfo` key under which a task names its survey by the survey's id, as a plan editor saves it.
    public static let taskUserInfoKey = "ock.survey"

    public var id: String
    /// The survey's title, shown at the top of each of its pages.
    public var title: String
    /// The steps, checked when the survey was made.
    public private(set) var steps: [OCKSurveyStep]

    /// A survey of `steps`, in order, checked now: a survey that is made can be answered.
    ///
    /// - Throws: `OCKSurveyError.invalidSurvey` for no steps, two steps with one identifier, a signature of a
    ///   document version no consent-review step shows, an optional consent review or signature (consent is never
    ///   skipped), or an answer format that cannot be answered (an empty range, a scale of more than 101 values, no
    ///   choices, choices sharing an id, text of no length).
    public init(id: String, title: String, steps: [OCKSurveyStep]) throws {
        func invalid(_ reason: String) -> OCKSurveyError { .invalidSurvey(reason: reason) }
        guard !steps.isEmpty else { throw invalid("A survey needs at least one step.") }
        guard Set(steps.map(\.id)).count == steps.count else { throw invalid("Step identifiers must be unique.") }
        for step in steps {
            switch step.kind {
            case let .signature(version):
                let reviewed = steps.contains { if case let .consentReview(document) = $0.kind { document.version == version } else { false } }
                guard reviewed else { throw invalid("A signature step needs a consent review of its document version.") }
                guard !step.isOptional else { throw invalid("A signature step cannot be optional.") }
            case .consentReview:
                guard !step.isOptional else { throw invalid("A consent review cannot be optional.") }
            case let .question(_, format):
                guard format.isAnswerable else { throw invalid("The question \"\(step.id)\" has a format that cannot be answered.") }
            case .instruction, .permissions, .completion:
                break
            }
        }
        self.id = id
        self.title = title
        self.steps = steps
    }

    /// The step with `id`, if the survey has one.
    public func step(_ id: String) -> OCKSurveyStep? { steps.first { $0.id == id } }

    /// Whether the survey can be answered as one form (`OCKSurveyPageView`), as the app does on a device offline:
    /// instructions and questions only. A consent (its review and signature) and permissions, which the browser asks
    /// for, are answered step by step.
    public var isAnsweredOnOnePage: Bool {
        steps.allSatisfy { step in
            switch step.kind {
            case .instruction, .question, .completion: true
            case .consentReview, .signature, .permissions: false
            }
        }
    }
}

/// One step of a survey.
public struct OCKSurveyStep: Sendable, Hashable, Identifiable {
    /// What the step shows and asks.
    public enum Kind: Sendable, Hashable {
        /// Title, text, image and body items: welcome, "before you join".
        case instruction(OCKInstructionContent)
        /// The consent document to read, section by section.
        case consentReview(OCKConsentDocument)
        /// The participant's full name and signature, or the typed-name alternative with an explicit "I agree".
        case signature(documentVersion: String)
        /// The web's permissions, explained; each optional.
        case permissions([OCKPermission])
        /// A question with its answer format.
        case question(prompt: String, format: OCKAnswerFormat)
        /// The closing message.
        case completion(OCKInstructionContent)
    }

    public var id: String
    /// What the step shows and asks, and so which result it takes.
    public var kind: Kind
    /// Whether the participant may go on without answering.
    public var isOptional: Bool

    /// A step with the identifier `id`, unique in its survey; required unless `isOptional`. The survey checks it when
    /// it is made.
    public init(id: String, kind: Kind, isOptional: Bool = false) {
        self.id = id
        self.kind = kind
        self.isOptional = isOptional
    }

    /// Whether the step waits for an answer before Next (instructions and completion do not).
    public var needsResult: Bool {
        switch kind {
        case .instruction, .completion: false
        case .consentReview, .signature, .permissions, .question: true
        }
    }
}

/// The content of an instruction or completion step.
public struct OCKInstructionContent: Sendable, Hashable {
    /// A line of a "before you join" list: an icon name and its text.
    public struct BodyItem: Sendable, Hashable {
        /// The name of its icon, an `OCKIcon` raw value of OpenCareKitUI (`heart`, `checklist`, `signature`, `lock`…);
        /// a name that is no icon shows the heart.
        public var icon: String
        /// The line's text.
        public var text: String

        /// A line with the icon named `icon`.
        public init(icon: String, text: String) {
            self.icon = icon
            self.text = text
        }
    }

    /// The step's heading.
    public var title: String
    /// A paragraph under the heading; nil for none.
    public var detail: String?
    /// The name of an `OCKIcon` shown above the heading; nil, or a name that is no icon, shows none.
    public var image: String?
    /// Lines with icons under the heading ("before you join"); empty for none.
    public var bodyItems: [BodyItem]

    /// Content with a heading and, by default, nothing else.
    public init(title: String, detail: String? = nil, image: String? = nil, bodyItems: [BodyItem] = []) {
        self.title = title
        self.detail = detail
        self.image = image
        self.bodyItems = bodyItems
    }
}

/// A versioned consent document in sections, each with a summary and "learn more" content.
public struct OCKConsentDocument: Sendable, Hashable {
    /// One section of the document: a title, a summary the reader sees, and details behind "Learn more".
    public struct Section: Sendable, Hashable {
        /// The section's heading.
        public var title: String
        /// What the section says, in a few sentences.
        public var summary: String
        /// The details behind "Learn more"; nil for none.
        public var learnMore: String?

        /// A section; by default without details.
        public init(title: String, summary: String, learnMore: String? = nil) {
            self.title = title
            self.summary = summary
            self.learnMore = learnMore
        }
    }

    /// The document's version, such as `1.0`: a signature step names it, and the signed consent keeps it with the text
    /// and the text's hash. Give a changed text a new version.
    public var version: String
    /// The document's title.
    public var title: String
    /// The sections, in reading order.
    public var sections: [Section]

    /// A document of `sections`.
    public init(version: String, title: String, sections: [Section]) {
        self.version = version
        self.title = title
        self.sections = sections
    }

    /// The document's text as signed: title, then each section's title, summary and details.
    public var text: String {
        ([title] + sections.flatMap { [$0.title, $0.summary, $0.learnMore].compactMap { $0 } }).joined(separator: "\n\n")
    }
}

/// A permission the web can ask for, with why it is wanted. Every permission is optional.
public struct OCKPermission: Sendable, Hashable, Identifiable {
    /// A permission a survey can ask for. Its raw value is the permission's id in results and outcome values
    /// (`permission.notifications`).
    public enum Kind: String, Sendable, Hashable {
        /// Browser notifications, for reminders.
        case notifications
    }

    /// Which permission it is.
    public var kind: Kind
    /// Why it is wanted, in the participant's terms, shown beside the request.
    public var explanation: String
    public var id: String { kind.rawValue }

    /// A permission with its explanation.
    public init(kind: Kind, explanation: String) {
        self.kind = kind
        self.explanation = explanation
    }
}

/// Why a survey, a step or an answer is not acceptable. Reasons are whole sentences that never repeat the answer
/// (it may be health data).
///
/// What a participant can cause (`unknownStep`, `missingAnswer`, `invalidAnswer`, `notFinished`) reads in their language
/// (`message(_:)`, from OpenCareKitUI's string table); `invalidSurvey` is for the survey's author, in English.
public enum OCKSurveyError: Error, Hashable, Sendable {
    /// The survey itself is malformed (`OCKSurvey.init(id:title:steps:)`); `reason` says how, in English, for its
    /// author.
    case invalidSurvey(reason: String)
    /// A result names a step the survey does not have (a forged or outdated form), or a restored snapshot's current
    /// step is outside the survey. The associated value is the step's id, or `#` and the index.
    case unknownStep(String)
    /// A required step has no result: at Next, on a skip, or in a restored snapshot that is past it.
    case missingAnswer(stepID: String)
    /// The result does not fit the step: the wrong kind, out of range, an unknown choice, an unsigned or oversized
    /// signature, a consent of another version. `reason` is the sentence to show.
    case invalidAnswer(stepID: String, reason: Reason)
    /// A required step has no result yet, and the survey was asked for its result.
    case notFinished

    /// Why an answer was refused: a sentence of the string table, with its arguments.
    public struct Reason: Hashable, Sendable {
        /// The sentence's key in OpenCareKitUI's string table.
        public let key: OCKStringKey
        /// What the sentence is filled with, in order (a range's ends, a length): never the refused answer.
        public let arguments: [String]

        /// The sentence `key`, filled with `arguments`.
        public init(_ key: OCKStringKey, _ arguments: String...) {
            self.init(key: key, arguments: arguments)
        }

        /// The sentence `key`, filled with `arguments`.
        public init(key: OCKStringKey, arguments: [String]) {
            self.key = key
            self.arguments = arguments
        }
    }

    /// The sentence for the participant, in English.
    public var message: String {
        message(OCKLocalization(language: .english))
    }

    /// The sentence for the participant, in `localization`'s language.
    public func message(_ localization: OCKLocalization) -> String {
        switch self {
        case let .invalidSurvey(reason): reason
        case let .invalidAnswer(_, reason): localization.string(reason.key, arguments: reason.arguments)
        case .unknownStep: localization.string(.surveyUnknownStep)
        case .missingAnswer: localization.string(.answerRequired)
        case .notFinished: localization.string(.surveyNotFinished)
        }
    }
}
