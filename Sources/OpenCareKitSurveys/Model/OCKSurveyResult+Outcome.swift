import Foundation
import OpenCareKitStore

extension OCKSurveyResult {
    /// The kind of the value that marks a survey finished when it gave no other value (every question skipped).
    public static let completedKind = "survey.completed"

    /// The answers as outcome values, the role of OCKSurveyTaskViewController's `extractOutcome`: one value per
    /// answer (one per choice for multiple choice), with `kind` set to the question's step id and numeric answers
    /// carrying their unit; then each signed consent (`OCKSignedConsent`'s "consent.…" values); then each
    /// permission choice as a Boolean of kind "permission.<id>". A survey that gives none of these gives one date
    /// value of kind `completedKind`, so its outcome still records that it was done.
    public func outcomeValues(createdDate: Date) -> [OCKOutcomeValue] {
        let answers = survey.steps.flatMap { step -> [OCKOutcomeValue] in
            guard case let .question(_, format) = step.kind, case let .answer(answer)? = results[step.id] else { return [] }
            let values: [OCKOutcomeValue] = switch answer {
            case let .scale(value): [OCKOutcomeValue(value, createdDate: createdDate)]
            case let .number(value):
                [OCKOutcomeValue(value, units: { if case let .numeric(unit, _, _) = format { unit } else { nil } }(), createdDate: createdDate)]
            case let .choice(id): [OCKOutcomeValue(id, createdDate: createdDate)]
            case let .choices(ids): ids.map { OCKOutcomeValue($0, createdDate: createdDate) }
            case let .text(text): [OCKOutcomeValue(text, createdDate: createdDate)]
            case let .date(date): [OCKOutcomeValue(date, createdDate: createdDate)]
            case let .yesNo(value): [OCKOutcomeValue(value, createdDate: createdDate)]
            }
            return values.map { $0.with(kind: step.id) }
        }
        let consents = signedConsents.flatMap { $0.outcomeValues(createdDate: createdDate) }
        let permissions = survey.steps.flatMap { step -> [OCKOutcomeValue] in
            guard case let .permissions(granted)? = results[step.id] else { return [] }
            return granted.sorted { $0.key < $1.key }.map {
                OCKOutcomeValue($0.value, createdDate: createdDate).with(kind: "permission.\($0.key)")
            }
        }
        let values = answers + consents + permissions
        return values.isEmpty ? [OCKOutcomeValue(createdDate, createdDate: createdDate).with(kind: Self.completedKind)] : values
    }

    /// The consents signed in this survey: each signature with the document of its version that the survey showed.
    public var signedConsents: [OCKSignedConsent] {
        survey.steps.compactMap { step in
            guard case let .signature(version) = step.kind, case let .signature(signature)? = results[step.id],
                  let document = survey.consentDocument(version: version) else { return nil }
            return OCKSignedConsent(document: document, signature: signature)
        }
    }
}

extension OCKSurvey {
    /// The consent document of `version` that a consent-review step shows.
    public func consentDocument(version: String) -> OCKConsentDocument? {
        steps.lazy.compactMap { step -> OCKConsentDocument? in
            if case let .consentReview(document) = step.kind, document.version == version { document } else { nil }
        }.first
    }
}

extension OCKOutcomeValue {
    func with(kind: String) -> OCKOutcomeValue {
        var value = self
        value.kind = kind
        return value
    }
}
