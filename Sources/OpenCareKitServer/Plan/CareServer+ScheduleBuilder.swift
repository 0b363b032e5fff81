import Foundation
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

/// The schedule builder's fields, the choice of when a change applies, and the preview.
extension CareServer {
    func scheduleFields(_ form: TaskForm, html: EditorHTML, task: OCKTask?, localization: OCKLocalization) -> HTML {
        let language = html.language
        func text(_ words: EditorText) -> String { words.text(language) }
        if let task, OCKScheduleRule(schedule: task.schedule) == nil, !form.replacesSchedule {
            return html.group(text(.scheduleSection), id: "schedule", [
                .element("p", ["class": "ock-notice"], [.text(text(.customScheduleNote))]),
                EditorHTML.hidden("keep-schedule", "true"),
                .element("p", [:], [EditorHTML.button(text(.replaceSchedule), intent: "replace-schedule")]),
            ])
        }
        let times = form.shownTimes
        let targets = form.shownTargets
        return html.group(text(.scheduleSection), id: "schedule", [
            form.replacesSchedule ? EditorHTML.hidden("replace-schedule", "true") : .empty,
            html.group(text(.repeats), id: "repeat", [
                html.choice(text(.everyDays), type: "radio", name: "repeat", id: "repeat-days", value: "days", checked: form.repeats == "days"),
                html.choice(text(.everyWeeks), type: "radio", name: "repeat", id: "repeat-weeks", value: "weeks", checked: form.repeats == "weeks"),
                html.field(text(.every), id: "every", type: "number", value: form.every, extra: ["min": "1", "max": "366", "inputmode": "numeric"]),
            ]),
            html.group(text(.onWeekdays), id: "weekdays", [2, 3, 4, 5, 6, 7, 1].map { weekday in
                html.choice(OCKScheduleRule.weekdayName(weekday, localization), type: "checkbox",
                            name: "weekday", id: "weekday-\(weekday)", value: String(weekday), checked: form.weekdays.contains(weekday))
            }),
            html.group(text(.timing), id: "timing", [
                html.choice(text(.atTimes), type: "radio", name: "timing", id: "timing-times", value: "times", checked: form.timing == "times"),
                html.choice(text(.allDay), type: "radio", name: "timing", id: "timing-all-day", value: "allDay", checked: form.timing == "allDay"),
            ]),
            html.group(text(.atTimes), id: "times", times.enumerated().map { index, row in
                .element("div", ["class": "ock-field-row"], [
                    html.field(EditorText.time.text(language, String(index + 1)), id: "time-\(index + 1)", name: "time", type: "time", value: row.time),
                    html.field(EditorText.timeLabel.text(language, String(index + 1)), id: "time-label-\(index + 1)", name: "time-label", value: row.label),
                ])
            } + [EditorHTML.button(text(.addTime), intent: "add-time")]),
            html.field(text(.duration), id: "duration", type: "number", value: form.duration, hint: text(.durationHint),
                       extra: ["min": "1", "max": "1440", "inputmode": "numeric"]),
            html.field(text(.allDayLabel), id: "all-day-label", value: form.allDayLabel),
            html.field(text(.starts), id: "start", type: "date", value: form.start),
            html.field(text(.ends), id: "end", type: "date", value: form.end, hint: text(.endsHint)),
            html.group(text(.targets), id: "targets", targets.enumerated().map { index, row in
                let number = String(index + 1)
                return .element("div", ["class": "ock-field-row"], [
                    html.field(EditorText.targetValue.text(language, number), id: "target-value-\(number)", name: "target-value", value: row.value,
                               extra: ["inputmode": "decimal"]),
                    html.field(EditorText.targetUnits.text(language, number), id: "target-units-\(number)", name: "target-units", value: row.units),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "target-kind-\(number)"], [.text(EditorText.targetKind.text(language, number))]),
                        .element("select", ["id": "target-kind-\(number)", "name": "target-kind"], [("", EditorText.kindNone), ("dose", .kindDose)].map { value, words in
                            .element("option", ["value": value, "selected": row.kind == value ? "selected" : nil].compactMapValues { $0 }, [.text(words.text(language))])
                        }),
                    ]),
                ])
            } + [EditorHTML.button(text(.addTarget), intent: "add-target")]),
        ])
    }

    /// When the change applies: the next event not yet done (named), or the start of a chosen day.
    /// `next` is the suggested effective date; `latest` the start of the latest event with an outcome. The end form
    /// has the same fields with ids starting `prefix` (its problems are keyed by those ids).
    func appliesFields(_ form: TaskForm, html: EditorHTML, next: Date, latest: Date?, now: Date, localization: OCKLocalization,
                       prefix: String = "") -> HTML {
        let language = html.language
        let moment = { (date: Date) in localization.fullDay(date) + " " + localization.time(date) }
        return html.group(EditorText.appliesSection.text(language), id: prefix + "effective", [
            html.choice(EditorText.appliesNext.text(language, moment(next)), type: "radio", name: "effective", id: prefix + "effective-next",
                        value: "next", checked: form.effective != "date"),
            html.choice(EditorText.appliesDate.text(language), type: "radio", name: "effective", id: prefix + "effective-date-choice",
                        value: "date", checked: form.effective == "date"),
            html.field(EditorText.appliesDate.text(language), id: prefix + "effective-date", name: "effective-date", type: "date",
                       value: form.effectiveDate.isEmpty ? dayString(now) : form.effectiveDate),
            .element("p", [:], [.text(EditorText.appliesExplain.text(language))]),
            .element("p", [:], [.text(latest.map { EditorText.appliesExplainOutcomes.text(language, moment($0)) }
                ?? EditorText.appliesNothingYet.text(language))]),
        ])
    }

    /// The next 14 days of the task as the Care page will show them, with the rule in words; updated in place as the
    /// person types when scripts run.
    /// `suggested` is when a change to the stored task applies unless the form names a day (nil for a new task).
    func previewSection(_ proposed: OCKTask?, form: TaskForm, suggested: Date?, now: Date, localization: OCKLocalization) async throws -> HTML {
        let language = localization.language
        var children: [HTML] = [.element("h2", ["id": "preview-heading"], [.text(EditorText.previewHeading.text(language))])]
        if var proposed {
            if let suggested {
                let chosen = form.effective == "date" ? TaskForm.day(form.effectiveDate, calendar: calendar)?.start(in: calendar) : nil
                proposed.effectiveDate = chosen ?? suggested
            } else {
                proposed.effectiveDate = max(proposed.schedule.startDate(), calendar.startOfDay(for: now))
            }
            let rule = OCKScheduleRule(schedule: proposed.schedule)
            children.append(.element("p", ["class": "ock-preview-rule", "id": "preview-rule"],
                                     [.text(rule?.words(localization) ?? EditorText.customSchedule.text(language))]))
            let days = try await editor.preview(proposed, from: now)
            children.append(.element("ol", ["class": "ock-preview-days"], days.map { day, events in
                .element("li", [:], [
                    .element("span", ["class": "ock-preview-day"], [.text(localization.fullDay(day))]),
                    .element("span", ["class": "ock-preview-times"], [.text(events.isEmpty ? EditorText.previewNothing.text(language)
                        : events.map { Self.eventWords($0, localization) }.joined(separator: ", "))]),
                ])
            }))
        }
        return .element("section", ["class": "ock-preview", "id": "plan-preview", "aria-labelledby": "preview-heading", "aria-live": "polite"], children)
    }

    /// An event as its card says when it is: "8:00 AM Breakfast", "All day".
    static func eventWords(_ event: OCKEvent<OCKTask, OCKOutcome>, _ localization: OCKLocalization) -> String {
        let when = event.scheduleEvent.element.duration == .allDay ? localization.string(.allDay) : localization.time(event.scheduleEvent.start)
        return [when, event.scheduleEvent.element.text].compactMap { $0 }.joined(separator: " ")
    }

    /// The forms to end the task (from its next event not yet done, or a chosen day) and, without outcomes, to delete
    /// it. `next` and `latest` are as for `appliesFields`.
    func endAndDelete(_ task: OCKTask, endForm: TaskForm, html: EditorHTML, next: Date, latest: Date?, now: Date, token: String,
                      localization: OCKLocalization) -> [HTML] {
        let language = localization.language
        let hidden = [EditorHTML.hidden(CSRF.fieldName, token), EditorHTML.hidden("version", task.uuid.uuidString)]
        return [
            .element("section", ["aria-labelledby": "end-heading", "class": "ock-page-section"], [
                .element("h2", ["id": "end-heading"], [.text(EditorText.endSection.text(language))]),
                .element("p", [:], [.text(EditorText.endExplain.text(language))]),
                .element("form", ["method": "post", "action": taskURL(task.id) + "/end", "class": "ock-editor-form", "novalidate": "novalidate"], hidden + [
                    appliesFields(endForm, html: html, next: next, latest: latest, now: now, localization: localization, prefix: "end-"),
                    .element("p", ["class": "ock-form-actions"], [
                        .element("button", ["type": "submit", "class": "ock-button"], [.text(EditorText.endTask.text(language))]),
                    ]),
                ]),
            ]),
            .element("section", ["aria-labelledby": "delete-heading", "class": "ock-page-section"], [
                .element("h2", ["id": "delete-heading"], [.text(EditorText.deleteSection.text(language))]),
                .element("p", [:], [.text((latest != nil ? EditorText.deleteRefused : .deleteExplain).text(language))]),
                latest != nil ? .empty : .element("form", ["method": "post", "action": taskURL(task.id) + "/delete"], hidden + [
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(EditorText.deleteTask.text(language))]),
                ]),
            ]),
        ]
    }
}
