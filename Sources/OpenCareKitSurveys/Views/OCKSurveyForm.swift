import Foundation
import OpenCareKitUI

/// Reads a step's result back from the fields `OCKSurveyStepView` posts. Every field is untrusted: values that do
/// not parse are refused with an error naming the step, never echoing the value.
public enum OCKSurveyForm {
    /// The result of `step` in `fields` (each name with its values, in order), or nil when the participant gave
    /// none (an unanswered question, an empty name). The result still has to pass `OCKSurveySession.record`.
    ///
    /// - Parameters:
    ///   - step: The step whose page posted `fields`.
    ///   - fields: The posted form, each field's name with its values in order.
    ///   - now: The signature's date.
    ///   - timeZone: Where a date-and-time answer's wall-clock time is.
    public static func result(for step: OCKSurveyStep, fields: [String: [String]], now: Date,
                              timeZone: TimeZone) throws(OCKSurveyError) -> OCKStepResult? {
        func value(_ name: String) -> String? {
            guard let text = fields[name]?.first?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            return text
        }
        func invalid(_ key: OCKStringKey) -> OCKSurveyError { .invalidAnswer(stepID: step.id, reason: .init(key)) }
        switch step.kind {
        case .instruction, .completion:
            return nil
        case .consentReview:
            guard let version = value("version") else { return nil }
            return .consentReviewed(version: version)
        case .signature:
            guard let name = value("fullName") else { return nil }
            var image: Data?
            if let drawn = value("signature") {
                let prefix = "data:image/png;base64,"
                guard drawn.hasPrefix(prefix), let data = Data(base64Encoded: String(drawn.dropFirst(prefix.count))) else {
                    throw invalid(.signatureNotPNG)
                }
                image = data
            }
            return .signature(OCKSignature(fullName: name, image: image, agreed: value("agree") == "true", date: now))
        case let .permissions(permissions):
            var granted: [String: Bool] = [:]
            for permission in permissions { granted[permission.id] = value("permission.\(permission.id)") == "granted" }
            return .permissions(granted)
        case let .question(_, format):
            let answers = (fields["answer"] ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            if case .multipleChoice = format {
                return answers.isEmpty ? nil : .answer(.choices(answers))
            }
            guard let text = answers.first else { return nil }
            guard answers.count == 1 else { throw invalid(.answerOneOnly) }
            switch format {
            case .scale:
                guard let number = Int(text) else { throw invalid(.answerWholeNumber) }
                return .answer(.scale(number))
            case .numeric:
                guard let number = Double(text.replacingOccurrences(of: ",", with: ".")), number.isFinite else {
                    throw invalid(.answerNumber)
                }
                return .answer(.number(number))
            case .singleChoice:
                return .answer(.choice(text))
            case .multipleChoice:
                return .answer(.choices(answers))
            case .text:
                return .answer(.text(text))
            case .dateTime:
                guard let date = date(fromLocal: text, timeZone: timeZone) else { throw invalid(.answerDateTime) }
                return .answer(.date(date))
            case .yesNo:
                switch text {
                case "true": return .answer(.yesNo(true))
                case "false": return .answer(.yesNo(false))
                default: throw invalid(.answerYesNo)
                }
            }
        }
    }

    /// Every step's result from one form holding the whole survey (`OCKSurveyPageView`, which names a step's fields
    /// after it: "pain.answer"), recorded in a session as its steps would be one by one: the session, and the first
    /// step refused, if any (a wrong answer, a required question unanswered). The other steps' answers are kept, to
    /// show the form again with them.
    public static func session(answering survey: OCKSurvey, fields: [String: [String]], now: Date,
                               timeZone: TimeZone) -> (session: OCKSurveySession, refusal: OCKSurveyError?) {
        var session = OCKSurveySession(survey: survey)
        var refusal: OCKSurveyError?
        for step in survey.steps {
            let prefix = OCKSurveyPageView.fieldPrefix(of: step)
            var own: [String: [String]] = [:]
            for (name, values) in fields where name.hasPrefix(prefix) { own[String(name.dropFirst(prefix.count))] = values }
            do throws(OCKSurveyError) {
                if let result = try result(for: step, fields: own, now: now, timeZone: timeZone) {
                    try session.record(result, for: step.id)
                } else if step.needsResult {
                    // Unanswered: skipped if optional, else refused as missing (as Next refuses it).
                    try session.record(.skipped, for: step.id)
                }
            } catch {
                refusal = refusal ?? error
            }
        }
        return (session, refusal)
    }

    /// `YYYY-MM-DDTHH:MM` (a `datetime-local` field) for `date` in `timeZone`.
    public static func localDateTime(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0)
    }

    /// The moment a `datetime-local` value names in `timeZone`, or nil when it is not one (or names a time that
    /// does not exist there, such as one skipped by a daylight-saving change).
    public static func date(fromLocal text: String, timeZone: TimeZone) -> Date? {
        let halves = text.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = halves[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2, (2...3).contains(time.count),
              time.allSatisfy({ $0.count == 2 }), let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
              let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        let second = time.count == 3 ? Int(time[2]) : 0
        guard let second else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute,
                                                            second: second)) else { return nil }
        let check = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard check.year == year, check.month == month, check.day == dayOfMonth, check.hour == hour, check.minute == minute else {
            return nil
        }
        return date
    }
}
