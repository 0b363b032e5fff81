import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

/// The editor's pages: the plan, and one task's form with its schedule builder, preview, end, delete and history.
extension CareServer {
    func editorPage(_ request: Request, title: String, main: [HTML], token: String, status: HTTPResponse.Status = .ok) -> Response {
        let context = renderContext(for: request)
        var response = AppPage.response(AppPage(title: title, base: basePath, idleSeconds: idleSeconds, tab: nil, main: main,
                                                metadata: ["ock-csrf": token]).render(in: context), status: status)
        if CSRF.token(of: request) == nil { response.setCookie(CSRF.cookie(token, publicOrigin: configuration.publicOrigin)) }
        return response
    }

    /// The plan: its tasks (each with its schedule in words), with links to change them.
    /// `note` and `problems` are a refused note as typed, shown in its form.
    func planPage(_ request: Request, _ context: RecordContext, note: (title: String, content: String) = ("", ""),
                  problems: [TaskForm.Problem] = [], status: HTTPResponse.Status = .ok) async throws -> Response {
        let localization = renderContext(for: request).localization
        let language = localization.language
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        let now = configuration.now()
        let tasks = try await editor.tasks()
            .sorted { ($0.title ?? $0.id).localizedStandardCompare($1.title ?? $1.id) == .orderedAscending }
        let done = request.uri.queryParameters.get("done")
        let notices: [String: EditorText] = ["deleted": .deleted, "ended": .endedNotice, "contact-deleted": .contactDeleted, "note": .noteAdded,
                                               "template": .templateApplied]
        let notice = done.flatMap { notices[$0] }
        let contacts = try await editor.contacts()
            .sorted { ($0.category?.rawValue ?? "~", $0.name.familyName ?? "", $0.id) < ($1.category?.rawValue ?? "~", $1.name.familyName ?? "", $1.id) }
        let notes = try await editor.carePlan()?.notes ?? []
        let main: [HTML] = [
            .element("h1", [:], [.text(EditorText.planTitle.text(language))]),
            .element("p", [:], [.text(EditorText.planIntro.text(language))]),
            notice.map { .element("p", ["class": "ock-notice", "role": "status"], [.text($0.text(language))]) } ?? .empty,
            .element("section", ["aria-labelledby": "plan-tasks"], [
                .element("h2", ["id": "plan-tasks"], [.text(EditorText.tasks.text(language))]),
                tasks.isEmpty ? .element("p", [:], [.text(EditorText.noTasks.text(language))]) : .element("ul", ["class": "ock-plan-list"], tasks.map { task in
                    let rule = OCKScheduleRule(schedule: task.schedule)
                    let isEnded = task.schedule.endDate().map { $0 <= now } ?? false
                    return .element("li", ["class": "ock-plan-item"], [
                        .element("a", ["href": taskURL(task.id), "class": "ock-link-row"], [.text(task.title ?? task.id)]),
                        .element("span", ["class": "ock-plan-rule"], [.text((rule?.words(localization) ?? EditorText.customSchedule.text(language))
                            + (isEnded ? " · " + EditorText.ended.text(language) : ""))]),
                    ])
                }),
                .element("p", [:], [
                    .element("a", ["href": url("/plan/tasks/new"), "class": "ock-button"], [.text(EditorText.addTask.text(language))]),
                    .text(" "),
                    .element("a", ["href": url("/plan/templates"), "class": "ock-button"], [.text(EditorText.templatesLink.text(language))]),
                ]),
            ]),
            planContactsSection(contacts, language: language),
            planNotesSection(notes, typed: note, problems: problems, token: token, language: language),
            .element("p", [:], [.element("a", ["href": url("/care"), "class": "ock-link-row"], [.text(localization.string(.backToCare))])]),
        ]
        return editorPage(request, title: EditorText.planTitle.text(language), main: main, token: token, status: status)
    }

    /// One task's page: the form (with `problems` beside their fields), the preview of the next 14 days, and for a
    /// stored task its end and delete forms and its history.
    /// `endForm` is the end form as submitted, when it was refused.
    func taskPage(_ request: Request, _ context: RecordContext, form: TaskForm, task: OCKTask?, problems: [TaskForm.Problem] = [],
                  notice: String? = nil, endForm: TaskForm? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let localization = renderContext(for: request).localization
        let language = localization.language
        let html = EditorHTML(language: language, problems: problems)
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        let now = configuration.now()
        let title = task.map { EditorText.editTask.text(language, $0.title ?? $0.id) } ?? EditorText.newTask.text(language)
        var previewProblems: [TaskForm.Problem] = []
        let proposed = try await proposedTask(form, current: task, problems: &previewProblems)
        let saved = request.uri.queryParameters.get("saved") != nil
        var main: [HTML] = [
            .element("h1", [:], [.text(title)]),
            problems.isEmpty ? .empty : .element("p", ["class": "ock-notice", "role": "alert"], [.text(EditorText.problemsSummary.text(language))]),
            notice.map { .element("p", ["class": "ock-notice", "role": "alert"], [.text($0)]) } ?? .empty,
            saved ? .element("p", ["class": "ock-notice", "role": "status"], [.text(EditorText.saved.text(language))]) : .empty,
        ]
        var formChildren: [HTML] = [EditorHTML.hidden(CSRF.fieldName, token), EditorHTML.hidden("version", form.version)]
        formChildren.append(taskFields(form, html: html, isNew: task == nil))
        formChildren.append(scheduleFields(form, html: html, task: task, localization: localization))
        formChildren.append(alertFields(form.alerts, html: html))
        // Read once for the page: when a change (or the end) applies unless chosen, and the latest event with an outcome.
        var suggested: Date?, latest: Date?
        if let task {
            let next = try await editor.suggestedEffectiveDate(current: task, now: now)
            latest = try await store.latestOutcomeEventStart(ofTaskWithID: task.id)
            suggested = next
            formChildren.append(appliesFields(form, html: html, next: next, latest: latest, now: now, localization: localization))
        }
        formChildren.append(try await previewSection(proposed, form: form, suggested: suggested, now: now, localization: localization))
        formChildren.append(.element("p", ["class": "ock-form-actions"], [
            EditorHTML.button(EditorText.preview.text(language), intent: "preview"),
            EditorHTML.button(EditorText.save.text(language), intent: "save", primary: true),
        ]))
        main.append(.element("form", ["method": "post", "action": task.map { taskURL($0.id) } ?? url("/plan/tasks"),
                                      "class": "ock-editor-form", "data-ock-editor": "preview", "novalidate": "novalidate",
                                      "data-ock-preview": url("/plan/preview/tasks" + (task.map { "/" + Self.pathSegment($0.id) } ?? ""))],
                             formChildren))
        if let task, let suggested {
            main += endAndDelete(task, endForm: endForm ?? TaskForm(today: ""), html: html, next: suggested, latest: latest, now: now,
                                 token: token, localization: localization)
            main.append(try await historySection(task, context: context, localization: localization))
        }
        main.append(.element("p", [:], [.element("a", ["href": url("/plan"), "class": "ock-link-row"], [.text(EditorText.cancel.text(language))])]))
        return editorPage(request, title: title, main: main, token: token, status: status)
    }

    func taskFields(_ form: TaskForm, html: EditorHTML, isNew: Bool) -> HTML {
        let language = html.language
        let styles = OCKDailyTasksPage.CardStyle.allCases.filter { $0 != .survey }
        return html.group(EditorText.taskSection.text(language), id: "task-section", [
            isNew ? html.field(EditorText.taskID.text(language), id: "task-id", value: form.id, hint: EditorText.taskIDHint.text(language),
                               extra: ["autocomplete": "off", "maxlength": "64"]) : .empty,
            html.field(EditorText.title.text(language), id: "title", value: form.title, extra: ["required": "required", "maxlength": "200"]),
            html.field(EditorText.instructions.text(language), id: "instructions", type: "textarea", value: form.instructions),
            html.select(EditorText.cardStyle.text(language), id: "style",
                        options: [("", EditorText.styleAutomatic.text(language))] + styles.map { ($0.rawValue, Self.styleName($0, language)) },
                        selected: form.style),
            html.select(EditorText.survey.text(language), id: "survey",
                        options: [("", EditorText.noSurvey.text(language))] + configuration.surveyCatalog.values.sorted { $0.id < $1.id }.map { ($0.id, $0.title) },
                        selected: form.survey),
            html.choice(EditorText.countsTowardAdherence.text(language), type: "checkbox", name: "counts", id: "counts", value: "true", checked: form.counts),
            html.field(EditorText.group.text(language), id: "group", value: form.group),
            html.field(EditorText.tags.text(language), id: "tags", value: form.tags, hint: EditorText.tagsHint.text(language)),
        ])
    }

    /// The care team's alerts of the task: a group of fields for each kind, empty for none.
    func alertFields(_ rows: TaskForm.AlertRows, html: EditorHTML) -> HTML {
        let language = html.language
        func text(_ words: EditorText) -> String { words.text(language) }
        func number(_ words: EditorText, _ id: String, _ value: String, decimal: Bool = false) -> HTML {
            html.field(text(words), id: id, type: decimal ? "text" : "number", value: value,
                       extra: decimal ? ["inputmode": "decimal"] : ["min": "1", "max": "90", "inputmode": "numeric"])
        }
        func urgent(_ id: String, _ checked: Bool) -> HTML {
            html.choice(text(.alertUrgent), type: "checkbox", name: id, id: id, value: "true", checked: checked)
        }
        return html.group(text(.alertsSection), id: "alerts", [
            .element("p", [:], [.text(text(.alertsExplain))]),
            html.group(text(.alertMissed), id: "alert-missed", [
                EditorHTML.hidden("alert-missed-id", rows.missedID),
                number(.alertMissedDays, "alert-missed-days", rows.missedDays), number(.alertMissedOf, "alert-missed-of", rows.missedOf),
                urgent("alert-missed-urgent", rows.missedUrgent),
            ]),
            html.group(text(.alertValue), id: "alert-value", [
                EditorHTML.hidden("alert-value-id", rows.valueID),
                html.field(text(.alertValueKind), id: "alert-value-kind", value: rows.valueKind, extra: ["maxlength": "40"]),
                number(.alertAtLeast, "alert-at-least", rows.atLeast, decimal: true), number(.alertAtMost, "alert-at-most", rows.atMost, decimal: true),
                urgent("alert-value-urgent", rows.valueUrgent),
            ]),
            html.group(text(.alertChange), id: "alert-change", [
                EditorHTML.hidden("alert-change-id", rows.changeID),
                html.field(text(.alertChangeKind), id: "alert-change-kind", value: rows.changeKind, extra: ["maxlength": "40"]),
                number(.alertChangeBy, "alert-change-by", rows.changeBy, decimal: true),
                number(.alertChangeWithin, "alert-change-within", rows.changeWithin),
                urgent("alert-change-urgent", rows.changeUrgent),
            ]),
            html.group(text(.alertQuiet), id: "alert-quiet", [
                EditorHTML.hidden("alert-quiet-id", rows.quietID),
                number(.alertQuietDays, "alert-quiet-days", rows.quietDays), urgent("alert-quiet-urgent", rows.quietUrgent),
            ]),
        ])
    }

    static func styleName(_ style: OCKDailyTasksPage.CardStyle, _ language: OCKLanguage) -> String {
        let names: [OCKDailyTasksPage.CardStyle: (String, String)] = [
            .simple: ("Simple: one button", "간단: 버튼 하나"), .instructions: ("With instructions", "안내 포함"),
            .checklist: ("Checklist", "체크리스트"), .grid: ("Grid of buttons", "버튼 격자"), .log: ("Log entries", "기록 남기기"),
            .labeledValue: ("Recorded value", "값 기록"), .numericProgress: ("Progress toward the target", "목표 진행률"),
            .survey: ("Survey", "설문"),
        ]
        let name = names[style] ?? (style.rawValue, style.rawValue)
        return language == .korean ? name.1 : name.0
    }
}
