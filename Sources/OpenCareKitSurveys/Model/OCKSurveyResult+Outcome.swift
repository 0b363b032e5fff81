import Foundation
import OpenCareKitStore

extension OCKSurveyResult {
    /// The answers as outcome values, the role of OCKSurveyTaskViewController's `extractOutcome`: one value per
    /// answer (one per choice for multiple choice), with `kind` set to the question's step id and numeric answers
    /// carrying their unit. Skipped questions and non-question steps give none.
    public func outcomeValues(createdDate: Date) -> [OCKOutcomeValue] {
        survey.steps.flatMap { step -> [OCKOutcomeValue] in
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
            return values.map { value in
                var value = value
                value.kind = step.id
                return value
            }
        }
    }
}
