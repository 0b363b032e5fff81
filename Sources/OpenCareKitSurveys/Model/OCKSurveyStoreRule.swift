import Foundation
import OpenCareKitStore

/// The store rule of an app's surveys, checked on every write whoever writes (the care page, the JSON API, the
/// command line, sync):
/// - a survey task's outcome must be one its survey could have given: values keyed by its questions, each a valid
///   answer, its permission choices, and — for a survey with a signature step — the signed consent of the document
///   the survey shows, with the text's hash intact;
/// - the consent task's outcome (the onboarding, holding the signed consent) is kept: it cannot be deleted or changed,
///   and the task itself cannot be deleted;
/// - onboarding comes first: while the consent task exists without an outcome, no other task's outcome can be
///   recorded or changed (the care plan opens after the consent is signed).
///
/// For example:
/// ```swift
/// store.addRule(OCKSurveyStoreRule(surveys: OCKDemoSurveys.byTaskID, consentTaskID: OCKDemoSurveys.onboardingTaskID))
/// ```
public struct OCKSurveyStoreRule: OCKStoreRule {
    /// The surveys by the id of their task.
    public let surveys: [String: OCKSurvey]
    /// The task whose outcome keeps the signed consent.
    public let consentTaskID: String?
    /// Surveys by their own id, for tasks that name theirs (`OCKSurvey.taskUserInfoKey`).
    public let catalog: [String: OCKSurvey]

    /// A rule for an app's surveys.
    ///
    /// - Parameters:
    ///   - surveys: The surveys by the id of the task that runs each.
    ///   - consentTaskID: The onboarding task, whose outcome keeps the signed consent and comes first; nil for a plan
    ///     without one (no outcome is then held back or kept).
    ///   - catalog: Surveys by their own id, for tasks that name theirs in their `userInfo`; none by default.
    public init(surveys: [String: OCKSurvey], consentTaskID: String?, catalog: [String: OCKSurvey] = [:]) {
        self.surveys = surveys
        self.consentTaskID = consentTaskID
        self.catalog = catalog
    }

    /// The survey of `task`: its id's, else the one it names.
    public func survey(for task: OCKTask) -> OCKSurvey? {
        surveys[task.id] ?? task.userInfo?[OCKSurvey.taskUserInfoKey].flatMap { catalog[$0] }
    }

    /// The refusal of a change to the signed consent.
    public static let consentKept = OCKStoreRuleViolation(
        rule: "consent-kept", "The signed consent is kept: the onboarding outcome that holds it cannot be deleted or changed.")
    /// The refusal of a care outcome before onboarding.
    public static let onboardingFirst = OCKStoreRuleViolation(
        rule: "onboarding-first", "Onboarding comes first: the care plan's outcomes can be recorded once the consent is signed.")

    public func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) async throws {
        switch write {
        case let .deleteTask(task) where task.id == consentTaskID:
            throw OCKStoreRuleViolation(rule: "consent-kept", "The onboarding task keeps the signed consent: it cannot be deleted.")
        case let .updateOutcome(_, _, task) where task.id == consentTaskID,
             let .deleteOutcome(_, task) where task.id == consentTaskID:
            throw Self.consentKept
        case let .updateTask(current, proposed) where current.id == consentTaskID
            && survey(for: current)?.id != survey(for: proposed)?.id:
            throw OCKStoreRuleViolation(rule: "consent-kept", "The onboarding task keeps the signed consent: its survey cannot change.")
        case let .addOutcome(outcome, task):
            try await checkOnboarded(before: task, context)
            guard let survey = survey(for: task), !context.isProposal else { return }
            try survey.checkOutcomeValues(outcome.values)
        case let .updateOutcome(_, proposed, task):
            try await checkOnboarded(before: task, context)
            guard let survey = survey(for: task), !context.isProposal else { return }
            try survey.checkOutcomeValues(proposed.values)
        case .addTask, .updateTask, .deleteTask, .deleteOutcome:
            return
        }
    }

    /// Throws unless an outcome of `task` may be recorded: it is the onboarding's own, or the onboarding is done (or
    /// the plan has none).
    private func checkOnboarded(before task: OCKTask, _ context: OCKStoreRuleContext) async throws {
        guard let consentTaskID, task.id != consentTaskID, try await context.currentTask(id: consentTaskID) != nil,
              try await !context.hasCurrentOutcome(ofTaskID: consentTaskID) else { return }
        throw Self.onboardingFirst
    }
}

extension OCKSurvey {
    /// Throws unless `values` are outcome values this survey's results could give (`OCKSurveyResult.outcomeValues`).
    public func checkOutcomeValues(_ values: [OCKOutcomeValue]) throws(OCKStoreRuleViolation) {
        func refuse(_ reason: String) -> OCKStoreRuleViolation {
            OCKStoreRuleViolation(rule: "survey-answers", "A survey task's outcome comes from its survey: \(reason).")
        }
        guard !values.isEmpty else { throw refuse("it has no values") }
        // A survey finished with nothing to record (every question skipped) is its completion alone — only for a
        // survey that asks nothing required and takes no signature, or the marker would stand in for a consent.
        if values.count == 1, values[0].kind == OCKSurveyResult.completedKind, values[0].dateValue != nil {
            let needsAnswers = steps.contains { step in
                switch step.kind {
                case .question: !step.isOptional
                case .signature: true
                case .permissions, .instruction, .consentReview, .completion: false
                }
            }
            if needsAnswers { throw refuse("it must hold the answers the survey asks for") }
            return
        }
        var answers: [String: [OCKOutcomeValue]] = [:]
        for value in values {
            guard let kind = value.kind else { throw refuse("every value names its question") }
            answers[kind, default: []].append(value)
        }
        var hasSignature = false
        for step in steps {
            switch step.kind {
            case let .question(_, format):
                guard let given = answers.removeValue(forKey: step.id) else {
                    if !step.isOptional { throw refuse("a required question has no answer") }
                    continue
                }
                guard let answer = format.answer(from: given) else { throw refuse("an answer is not of its question's kind") }
                do { try format.validate(answer, stepID: step.id) } catch { throw refuse("an answer is out of its question's range") }
            case let .permissions(permissions):
                for permission in permissions {
                    guard let given = answers.removeValue(forKey: "permission.\(permission.id)") else { continue }
                    guard given.count == 1, given[0].booleanValue != nil else { throw refuse("a permission choice is not yes or no") }
                }
            case let .signature(version):
                hasSignature = true
                guard let consent = OCKSignedConsent(values: values), consent.documentVersion == version,
                      let document = consentDocument(version: version), consent.documentText == document.text,
                      consent.documentTitle == document.title, consent.isIntact,
                      !consent.signerName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw refuse("it must hold the consent signed to the document the survey shows")
                }
            case .instruction, .consentReview, .completion:
                continue
            }
        }
        if hasSignature {
            let consentKinds = Set(values.compactMap(\.kind).filter { $0.hasPrefix("consent.") })
            for kind in consentKinds {
                guard answers[kind]?.count == 1 else { throw refuse("the consent is given once") }
                answers[kind] = nil
            }
        }
        guard answers.isEmpty else { throw refuse("a value names no question of the survey") }
    }
}

extension OCKAnswerFormat {
    /// The answer outcome values of one question hold, or nil when they cannot be one.
    func answer(from values: [OCKOutcomeValue]) -> OCKAnswer? {
        if case .multipleChoice = self {
            let ids = values.compactMap(\.stringValue)
            return ids.count == values.count ? .choices(ids) : nil
        }
        guard values.count == 1 else { return nil }
        let value = values[0]
        switch self {
        case .scale: return value.integerValue.map(OCKAnswer.scale)
        case .numeric: return (value.doubleValue ?? value.integerValue.map(Double.init)).map(OCKAnswer.number)
        case .singleChoice: return value.stringValue.map(OCKAnswer.choice)
        case .text: return value.stringValue.map(OCKAnswer.text)
        case .dateTime: return value.dateValue.map(OCKAnswer.date)
        case .yesNo: return value.booleanValue.map(OCKAnswer.yesNo)
        case .multipleChoice: return nil
        }
    }
}
