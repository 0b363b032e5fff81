import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// A task's history: each version, what changed from the one before in words ("times 8:00 AM → 9:00 AM, effective
/// Nov 24"), and who changed it when, from the audit log.
extension CareServer {
    /// How many of the record's plan entries the history reads back.
    static let historyAuditLimit = 2_000

    func historySection(_ task: OCKTask, context: RecordContext, localization: OCKLocalization) async throws -> HTML {
        let language = localization.language
        let versions = try await editor.versions(ofTaskWithID: task.id)
        var entries: [String: AuditEntry] = [:]
        for entry in try await context.auditTrail.read(Self.taskAuditResource, Self.historyAuditLimit) where entries[entry.draft.detail] == nil {
            entries[entry.draft.detail] = entry
        }
        var names: [CareAccountID: String] = [:]
        var items: [HTML] = []
        for (index, version) in versions.enumerated() {
            let previous = index > 0 ? versions[index - 1] : nil
            let entry = entries["version " + version.uuid.uuidString]
            var who = EditorText.historyUnknownPerson.text(language)
            if let account = entry?.draft.account {
                if names[account] == nil { names[account] = try await context.auditTrail.accountName(account) ?? "" }
                if let name = names[account], !name.isEmpty { who = name }
            }
            let when = (entry?.draft.recorded ?? version.updatedDate).map { localization.shortDate($0) + " " + localization.time($0) } ?? ""
            let changes = previous.map { Self.changes(from: $0, to: version, localization: localization) } ?? [EditorText.historyCreated.text(language)]
            let effective = EditorText.historyEffective.text(language, localization.shortDate(version.effectiveDate) + " " + localization.time(version.effectiveDate))
            items.append(.element("li", ["class": "ock-history-item"], [
                .element("p", ["class": "ock-history-who"], [.text(EditorText.historyBy.text(language, who, when))]),
                .element("p", ["class": "ock-history-what"], [
                    .text((changes.isEmpty ? EditorText.historyNoChange.text(language) : changes.joined(separator: "; ")) + ", " + effective),
                ]),
            ]))
        }
        return .element("section", ["aria-labelledby": "history-heading", "class": "ock-page-section"], [
            .element("h2", ["id": "history-heading"], [.text(EditorText.historyHeading.text(language))]),
            .element("ol", ["class": "ock-history", "reversed": "reversed"], items.reversed()),
        ])
    }

    /// What differs between two versions, field by field, in words.
    static func changes(from old: OCKTask, to new: OCKTask, localization: OCKLocalization) -> [String] {
        let language = localization.language
        var changes: [String] = []
        func change(_ field: EditorText, _ before: String?, _ after: String?) {
            guard before != after else { return }
            changes.append("\(field.text(language)) \(before ?? "—") → \(after ?? "—")")
        }
        change(.fieldTitle, old.title, new.title)
        if old.instructions != new.instructions { changes.append(EditorText.fieldInstructions.text(language)) }
        if old.schedule != new.schedule {
            if let before = OCKScheduleRule(schedule: old.schedule), let after = OCKScheduleRule(schedule: new.schedule) {
                changes += ruleChanges(before, after, localization: localization)
            } else {
                change(.fieldSchedule, OCKScheduleRule(schedule: old.schedule)?.words(localization) ?? EditorText.customSchedule.text(language),
                       OCKScheduleRule(schedule: new.schedule)?.words(localization) ?? EditorText.customSchedule.text(language))
            }
        }
        let yes = EditorText.yes.text(language), no = EditorText.no.text(language)
        change(.fieldCounts, old.impactsAdherence ? yes : no, new.impactsAdherence ? yes : no)
        change(.fieldStyle, old.userInfo?[OCKDailyTasksPage.cardStyleKey], new.userInfo?[OCKDailyTasksPage.cardStyleKey])
        change(.fieldSurvey, old.userInfo?[OCKSurvey.taskUserInfoKey], new.userInfo?[OCKSurvey.taskUserInfoKey])
        change(.fieldGroup, old.groupIdentifier, new.groupIdentifier)
        change(.fieldTags, old.tags?.joined(separator: ", "), new.tags?.joined(separator: ", "))
        if old.userInfo?[OCKTask.alertRulesKey] != new.userInfo?[OCKTask.alertRulesKey] { changes.append(EditorText.fieldAlerts.text(language)) }
        return changes
    }

    /// The parts of two rules that differ: "times 8:00 AM → 9:00 AM", "repeats Every day → Every 2 days".
    static func ruleChanges(_ old: OCKScheduleRule, _ new: OCKScheduleRule, localization: OCKLocalization) -> [String] {
        var changes: [String] = []
        func change(_ english: String, _ korean: String, _ before: String, _ after: String) {
            guard before != after else { return }
            changes.append("\(localization.language == .korean ? korean : english) \(before.isEmpty ? "—" : before) → \(after.isEmpty ? "—" : after)")
        }
        func times(_ rule: OCKScheduleRule) -> String {
            rule.isAllDay ? EditorText.allDay.text(localization.language)
                : rule.times.map { [rule.timeWords($0, localization), $0.label].compactMap { $0 }.joined(separator: " ") }
                .joined(separator: ", ")
        }
        func day(_ day: OCKScheduleRule.Day?, _ rule: OCKScheduleRule) -> String {
            day.flatMap { $0.start(in: rule.calendar) }.map(localization.shortDate) ?? ""
        }
        change("repeats", "반복", old.repetitionWords(localization), new.repetitionWords(localization))
        change(old.times.count + new.times.count > 2 ? "times" : "time", "시각", times(old), times(new))
        change("duration", "길이", old.isAllDay ? "" : "\(old.durationMinutes) min", new.isAllDay ? "" : "\(new.durationMinutes) min")
        change("start", "시작", day(old.start, old), day(new.start, new))
        change("end", "종료", day(old.end, old), day(new.end, new))
        change("targets", "목표", old.targets.map { localization.number($0.value, unit: $0.units, fractionDigits: 2) }.joined(separator: ", "),
               new.targets.map { localization.number($0.value, unit: $0.units, fractionDigits: 2) }.joined(separator: ", "))
        return changes
    }
}
