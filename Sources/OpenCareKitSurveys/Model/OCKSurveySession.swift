import Foundation
import OpenCareKitUI

/// A signature: the signer's full name, and either a drawn image (PNG) or the typed-name alternative with an
/// explicit "I agree".
public struct OCKSignature: Sendable, Hashable, Codable {
    /// Signature images larger than this are refused.
    public static let maximumImageBytes = 256 * 1024
    /// Names longer than this (in characters, or four times as many bytes) are refused.
    public static let maximumNameLength = 200

    /// Whether `data` begins with PNG's eight-byte signature.
    public static func isPNG(_ data: Data) -> Bool {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// The signer's full name as typed; the session trims it, and refuses an empty one or one longer than
    /// `maximumNameLength`.
    public var fullName: String
    /// The drawn signature as PNG; nil when the name was typed instead.
    public var image: Data?
    /// Whether the signer ticked "I agree"; a signature without it is refused.
    public var agreed: Bool
    /// When it was signed.
    public var date: Date

    /// A signature; `image` is a PNG of at most `maximumImageBytes`, or nil for the typed name.
    public init(fullName: String, image: Data?, agreed: Bool, date: Date) {
        self.fullName = fullName
        self.image = image
        self.agreed = agreed
        self.date = date
    }
}

/// What a step produced.
public enum OCKStepResult: Sendable, Hashable, Codable {
    /// The participant read the consent document (all of it: agreeing happens at the signature).
    case consentReviewed(version: String)
    /// The signature of a signature step.
    case signature(OCKSignature)
    /// Each permission's id and whether it was granted (false: declined or skipped).
    case permissions([String: Bool])
    /// The answer to a question.
    case answer(OCKAnswer)
    /// An optional step the participant skipped.
    case skipped
}

/// A survey in progress: where the participant is, and the results so far. Going back keeps answers; Next refuses
/// a required step without its result.
///
/// A session is a value and does no I/O: keep its `snapshot` between requests, and resume it with
/// `init(survey:restoring:)`, which checks every result again.
///
/// For example:
/// ```swift
/// var session = OCKSurveySession(survey: OCKDemoSurveys.checkIn)
/// try session.record(.answer(.scale(3)), for: "pain")
/// try session.next()
/// try session.record(.answer(.number(7.5)), for: "sleep")
/// try session.next()
/// try session.record(.answer(.yesNo(true)), for: "exercises")
/// let values = try session.finish().outcomeValues(createdDate: .now)
///
/// let kept = try JSONEncoder().encode(session.snapshot)
/// let resumed = try OCKSurveySession(survey: OCKDemoSurveys.checkIn,
///                                    restoring: JSONDecoder().decode(OCKSurveySession.Snapshot.self, from: kept))
/// ```
public struct OCKSurveySession: Sendable, Hashable {
    /// The survey being answered.
    public let survey: OCKSurvey
    /// The current step's index in `survey.steps`, from 0.
    public private(set) var currentIndex = 0
    /// The results so far, by step id; going back keeps them.
    public private(set) var results: [String: OCKStepResult] = [:]

    /// A new session at the survey's first step, with no results.
    public init(survey: OCKSurvey) {
        self.survey = survey
    }

    /// Where a session is and what it holds, to keep it elsewhere and resume it later (as ResearchKit's restoration
    /// data): a survey in progress outlives the server that began it.
    public struct Snapshot: Sendable, Hashable, Codable {
        /// The current step's index.
        public var step: Int
        /// The results so far, by step id.
        public var results: [String: OCKStepResult]

        /// A snapshot at the step with index `step`, holding `results`. `OCKSurveySession.init(survey:restoring:)`
        /// checks it.
        public init(step: Int, results: [String: OCKStepResult]) {
            self.step = step
            self.results = results
        }
    }

    /// Where the session is and what it holds, to keep (it is `Codable`) and resume with `init(survey:restoring:)`.
    public var snapshot: Snapshot { Snapshot(step: currentIndex, results: results) }

    /// Resumes a session of `survey` from `snapshot`, checking it as if each result were recorded again: a snapshot
    /// kept before the survey changed, or altered where it was kept, is refused rather than resumed.
    ///
    /// - Throws: `unknownStep` for a result of a step the survey does not have or a current step outside it,
    ///   `invalidAnswer` for a result the step would not take now, `missingAnswer` for a current step past a required
    ///   step without its result.
    public init(survey: OCKSurvey, restoring snapshot: Snapshot) throws(OCKSurveyError) {
        self.survey = survey
        guard survey.steps.indices.contains(snapshot.step) else { throw .unknownStep("#\(snapshot.step)") }
        for (stepID, result) in snapshot.results { try record(result, for: stepID) }
        // Every step before the current one was passed by Next, which leaves no required step without its result.
        for step in survey.steps[..<snapshot.step] where step.needsResult && !step.isOptional && results[step.id] == nil {
            throw .missingAnswer(stepID: step.id)
        }
        currentIndex = snapshot.step
    }

    /// The step the participant is at.
    public var currentStep: OCKSurveyStep { survey.steps[currentIndex] }

    /// "Step 2 of 5": the current position, counting from 1, and the number of steps.
    public var progress: (step: Int, of: Int) { (currentIndex + 1, survey.steps.count) }

    /// Whether the current step is the survey's last, whose Next is Done: after it, the survey is finished.
    public var isAtLastStep: Bool { currentIndex == survey.steps.count - 1 }

    /// Records the result of step `stepID` after checking it fits the step.
    ///
    /// - Throws: `unknownStep` for an id the survey does not have (a forged form), `invalidAnswer` for a result of
    ///   the wrong kind, out of range, an unsigned or oversized signature, or a consent of another version.
    public mutating func record(_ result: OCKStepResult, for stepID: String) throws(OCKSurveyError) {
        guard let step = survey.step(stepID) else { throw .unknownStep(stepID) }
        func invalid(_ key: OCKStringKey, _ arguments: String...) -> OCKSurveyError {
            .invalidAnswer(stepID: stepID, reason: .init(key: key, arguments: arguments))
        }
        switch (step.kind, result) {
        case (_, .skipped):
            guard step.isOptional else { throw .missingAnswer(stepID: stepID) }
        case let (.question(_, format), .answer(answer)):
            try format.validate(answer, stepID: stepID)
        case let (.consentReview(document), .consentReviewed(version)):
            guard version == document.version else { throw invalid(.consentVersionStale) }
        case let (.signature, .signature(signature)):
            let name = signature.fullName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw invalid(.signatureNameMissing) }
            guard name.count <= OCKSignature.maximumNameLength, name.utf8.count <= OCKSignature.maximumNameLength * 4 else {
                throw invalid(.signatureNameTooLong, String(OCKSignature.maximumNameLength))
            }
            guard signature.agreed else { throw invalid(.signatureNotAgreed) }
            if let image = signature.image {
                guard image.count <= OCKSignature.maximumImageBytes else { throw invalid(.signatureTooLarge, String(OCKSignature.maximumImageBytes / 1024)) }
                guard OCKSignature.isPNG(image) else { throw invalid(.signatureNotPNG) }
            }
        case let (.permissions(permissions), .permissions(granted)):
            guard Set(granted.keys).isSubset(of: Set(permissions.map(\.id))) else { throw invalid(.permissionUnknown) }
        default:
            throw invalid(.stepWrongKind)
        }
        results[stepID] = result
    }

    /// Forgets the result of `stepID`: the participant emptied a step they had answered before going back. Next
    /// then refuses the step if it is required, or records a skip.
    public mutating func clearResult(for stepID: String) {
        results.removeValue(forKey: stepID)
    }

    /// Moves to the next step.
    ///
    /// - Throws: `missingAnswer` when the current step is required and has no result.
    public mutating func next() throws(OCKSurveyError) {
        let step = currentStep
        if step.needsResult, results[step.id] == nil {
            guard step.isOptional else { throw .missingAnswer(stepID: step.id) }
            results[step.id] = .skipped
        }
        if currentIndex < survey.steps.count - 1 { currentIndex += 1 }
    }

    /// Moves to the previous step, keeping every result.
    public mutating func back() {
        if currentIndex > 0 { currentIndex -= 1 }
    }

    /// Whether every required step has its result.
    public var isComplete: Bool {
        survey.steps.allSatisfy { !$0.needsResult || $0.isOptional || results[$0.id] != nil }
    }

    /// The finished survey's results.
    ///
    /// - Throws: `notFinished` until every required step has a result.
    public func finish() throws(OCKSurveyError) -> OCKSurveyResult {
        guard isComplete else { throw .notFinished }
        return OCKSurveyResult(survey: survey, results: results)
    }
}

/// A finished survey's results, by step id, as `OCKSurveySession.finish()` gives them.
///
/// For example:
/// ```swift
/// let result = try session.finish()
/// let outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
///                          values: result.outcomeValues(createdDate: .now))
/// let consents = result.signedConsents
/// ```
public struct OCKSurveyResult: Sendable, Hashable {
    /// The survey answered.
    public let survey: OCKSurvey
    /// Each step's result, by step id: `.skipped` for an optional step passed without one; none for an instruction
    /// or a completion step.
    public let results: [String: OCKStepResult]
}
