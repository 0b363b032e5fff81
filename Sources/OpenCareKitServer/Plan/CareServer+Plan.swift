import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// The care plan editor's routes: the plan, and adding, changing, ending and deleting tasks. Every form works without
/// JavaScript (a POST that redirects, or the form again with each problem beside its field); the script previews as
/// the person types. Each change is written through `OCKPlanEditor`, audited (`plan:task`, with the new version's
/// uuid, which the task's history reads back), and reaches open Care pages through the store's change signal.
extension CareServer {
    static let taskAuditResource = "plan:task"

    static func addPlanRoutes(to routes: inout RecordRouteTable) {
        routes.get("/plan", .page("plan", .editPlan), handler: CareServer.getPlan)
        routes.get("/plan/tasks/new", .page("plan", .editPlan), handler: CareServer.getPlanTasksNew)
        routes.post("/plan/tasks", .page("plan", .editPlan, action: .create), handler: CareServer.postPlanTasks)
        routes.get("/plan/tasks/:id", .page("plan", .editPlan), handler: CareServer.getPlanTasksId)
        routes.post("/plan/tasks/:id", .page("plan", .editPlan, action: .update), handler: CareServer.postPlanTasksId)
        // The script's preview as the person types: the preview section only, never a write (audited as a read).
        routes.post("/plan/preview/tasks", .page("plan", .editPlan, action: .read), handler: CareServer.postPlanPreviewTasks)
        routes.post("/plan/preview/tasks/:id", .page("plan", .editPlan, action: .read), handler: CareServer.postPlanPreviewTasksId)
        routes.post("/plan/tasks/:id/end", .page("plan", .editPlan, action: .update), handler: CareServer.postPlanTasksIdEnd)
        routes.post("/plan/tasks/:id/delete", .page("plan", .editPlan, action: .delete), handler: CareServer.postPlanTasksIdDelete)
    }

    var editor: OCKPlanEditor { OCKPlanEditor(store: store, calendar: calendar) }


    static func parameter(_ name: String, _ context: RecordContext) -> String {
        (context.parameters.get(name) ?? "").removingPercentEncoding ?? ""
    }

    func notFound(_ request: Request, _ words: EditorText) -> Response {
        errorPage(PageMessage(words), status: .notFound, context: renderContext(for: request))
    }

    /// The form of a stored task, with its style and survey as the page shows them.
    func taskForm(_ task: OCKTask) -> TaskForm {
        let style = task.userInfo?[OCKDailyTasksPage.cardStyleKey] ?? configuration.cardStyles[task.id]?.rawValue ?? ""
        let survey = survey(for: task)?.id ?? ""
        return TaskForm(task: task, style: style == "survey" ? "" : style, survey: survey, calendar: calendar,
                        alerts: (try? task.alertRules()) ?? [])
    }

    /// The address of a task's page.
    func taskURL(_ id: String) -> String {
        url("/plan/tasks/" + Self.pathSegment(id))
    }

    /// Reads a submitted task form: the form again (with problems, or a preview), or the change saved and a redirect.
    func submitTask(_ request: Request, _ context: RecordContext, id: String?) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        var form = TaskForm(fields)
        let now = configuration.now()
        if form.intent == "replace-schedule", form.start.isEmpty {
            // The builder starts as for a new task (every day from today, at 08:00, for an hour), for a schedule it
            // could not show.
            let fresh = TaskForm(today: dayString(now))
            (form.repeats, form.every, form.timing, form.times, form.duration, form.start) =
                (fresh.repeats, fresh.every, fresh.timing, fresh.times, fresh.duration, fresh.start)
        }
        guard let current = try await formTask(id) else { return notFound(request, .noSuchTask) }
        var problems: [TaskForm.Problem] = []
        let proposed = try await proposedTask(form, current: current, problems: &problems)
        guard form.intent == "save", problems.isEmpty, let proposed else {
            let status: HTTPResponse.Status = form.intent == "save" && !problems.isEmpty ? .unprocessableContent : .ok
            return try await taskPage(request, context, form: form, task: current, problems: problems, status: status)
        }
        let saved: OCKTask
        do {
            if let current {
                // A stale form: the version it was read from is no longer the newest.
                guard form.version == current.uuid.uuidString else { throw OCKPlanEditor.Failure.changedMeanwhile }
                let effective = try await effectiveDate(form, current: current, now: now, problems: &problems)
                guard let effective else {
                    return try await taskPage(request, context, form: form, task: current, problems: problems, status: .unprocessableContent)
                }
                saved = try await editor.update(proposed, effective: effective, now: now)
            } else {
                saved = try await editor.add(proposed, now: now)
            }
        } catch let failure as OCKPlanEditor.Failure {
            return try await refusal(failure, request, context, form: form, current: current)
        } catch let error as OCKStoreError where error.status.code < 500 {
            // The store's reasons are English sentences for developers; the page says what happened.
            throw LocalizedRefusal(error.status, PageMessage(error.status == .unprocessableContent ? ErrorText.changeRefused : ErrorText.planChanged))
        }
        try await auditTask(saved, action: current == nil ? .create : .update, context)
        return Response.redirect(to: taskURL(saved.id) + "?saved=1", type: .normal)
    }

    /// The stored task a form is about: `.some(nil)` for a new task (no `id`), nil when `id` names no task.
    func formTask(_ id: String?) async throws -> OCKTask?? {
        guard let id else { return .some(nil) }
        return try await editor.task(withID: id).map { .some($0) }
    }

    /// The preview section of a task form as typed (for the script; the Preview button renders the whole page).
    func previewTask(_ request: Request, _ context: RecordContext, id: String?) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        var form = TaskForm(fields)
        form.intent = "preview"
        guard let current = try await formTask(id) else { return notFound(request, .noSuchTask) }
        var problems: [TaskForm.Problem] = []
        let proposed = try await proposedTask(form, current: current, problems: &problems)
        let now = configuration.now()
        var suggested: Date?
        if let current { suggested = try await editor.suggestedEffectiveDate(current: current, now: now) }
        let section = try await previewSection(proposed, form: form, suggested: suggested, now: now,
                                               localization: renderContext(for: request).localization)
        return AppPage.response(section.rendered, status: .ok)
    }

    static func pathSegment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: pathSegmentAllowed) ?? ""
    }

    /// The answer to a change the editor refused: the form with the problem (409 with the current version when the
    /// task changed meanwhile).
    func refusal(_ failure: OCKPlanEditor.Failure, _ request: Request, _ context: RecordContext, form: TaskForm,
                 current: OCKTask?) async throws -> Response {
        let localization = renderContext(for: request).localization
        switch failure {
        case .changedMeanwhile:
            guard let id = current?.id, let newest = try await editor.task(withID: id) else { return notFound(request, .noSuchTask) }
            return try await taskPage(request, context, form: taskForm(newest), task: newest,
                                      notice: EditorText.changedMeanwhile.text(localization.language), status: .conflict)
        case let .tooEarly(earliest):
            return try await taskPage(request, context, form: form, task: current,
                                      problems: [tooEarlyProblem(earliest, localization)], status: .unprocessableContent)
        case .idTaken:
            return try await taskPage(request, context, form: form, task: current,
                                      problems: [TaskForm.Problem(field: "task-id", text: .idTaken)], status: .conflict)
        case let .planFull(limit):
            return try await taskPage(request, context, form: form, task: current,
                                      problems: [TaskForm.Problem(field: "title", text: .planFull, argument: String(limit))], status: .conflict)
        case .noSuchTask, .tooManyNotes:
            return notFound(request, .noSuchTask)
        case .hasOutcomes:
            return try await taskPage(request, context, form: form, task: current,
                                      notice: EditorText.deleteRefused.text(localization.language), status: .conflict)
        }
    }

    /// The problem of a change that would apply before `earliest`, named to the minute.
    func tooEarlyProblem(_ earliest: Date, _ localization: OCKLocalization) -> TaskForm.Problem {
        TaskForm.Problem(field: "effective", text: .tooEarly, argument: localization.shortDate(earliest) + " " + localization.time(earliest))
    }

    /// The task the form describes: `current` changed, or a new task.
    func proposedTask(_ form: TaskForm, current: OCKTask?, problems: inout [TaskForm.Problem]) async throws -> OCKTask? {
        let fields = form.fields(isNew: current == nil, problems: &problems)
        var schedule: OCKSchedule?
        if let current, OCKScheduleRule(schedule: current.schedule) == nil, !form.replacesSchedule {
            // No rule expresses it: it is kept exactly, whatever the form says.
            schedule = current.schedule
        } else if let rule = form.rule(calendar: calendar, problems: &problems) {
            do { schedule = try rule.schedule() } catch { problems.append(TaskForm.Problem(field: "times", text: .tooManyTimes)) }
        }
        if fields.style.map({ OCKDailyTasksPage.CardStyle(rawValue: $0) == nil || $0 == "survey" }) == true {
            problems.append(TaskForm.Problem(field: "style", text: .chooseOption))
        }
        if let survey = fields.survey, configuration.surveyCatalog[survey] == nil, current.flatMap({ self.survey(for: $0) })?.id != survey {
            problems.append(TaskForm.Problem(field: "survey", text: .chooseOption))
        }
        let alerts = form.alerts.rules(problems: &problems)
        // The rules the form shows, then the task's others as they are (made by a template or the API).
        let kept = ((try? current?.alertRules()) ?? []).filter { rule in
            !form.alerts.shownIDs.contains(rule.id) && !alerts.contains { $0.id == rule.id }
        }
        if alerts.count + kept.count > OCKAlertRule.maximumRulesPerTask {
            problems.append(TaskForm.Problem(field: "alerts", text: .tooManyAlerts, argument: String(OCKAlertRule.maximumRulesPerTask)))
        }
        guard problems.isEmpty, let schedule else { return nil }
        var task: OCKTask
        if let current {
            task = current
        } else {
            task = OCKTask(id: fields.id, title: nil, carePlanUUID: try await carePlanUUID(), schedule: schedule)
        }
        task.title = fields.title
        task.instructions = fields.instructions
        task.schedule = schedule
        task.impactsAdherence = fields.counts
        task.groupIdentifier = fields.group
        task.tags = fields.tags
        task.timezone = calendar.timeZone
        var info = task.userInfo ?? [:]
        info[OCKDailyTasksPage.cardStyleKey] = fields.survey != nil ? OCKDailyTasksPage.CardStyle.survey.rawValue : fields.style
        if configuration.surveys[task.id] == nil { info[OCKSurvey.taskUserInfoKey] = fields.survey }
        task.userInfo = info.isEmpty ? nil : info
        task.setAlertRules(alerts + kept)
        return task
    }

    /// The record's care plan, which new tasks belong to (nil when the record has none).
    func carePlanUUID() async throws -> UUID? {
        try await editor.carePlan()?.uuid
    }

    /// When the change applies, from the form's choice; nil (with a problem) for a day that cannot be read.
    func effectiveDate(_ form: TaskForm, current: OCKTask, now: Date, problems: inout [TaskForm.Problem]) async throws -> Date? {
        guard form.effective == "date" else {
            return try await editor.suggestedEffectiveDate(current: current, now: now)
        }
        guard let day = TaskForm.day(form.effectiveDate, calendar: calendar), let start = day.start(in: calendar) else {
            problems.append(TaskForm.Problem(field: "effective", text: .dateInvalid))
            return nil
        }
        return start
    }

    /// Ends or deletes a task, from the form on its page.
    func endOrDeleteTask(_ request: Request, _ context: RecordContext, id: String, deleting: Bool) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        guard let current = try await editor.task(withID: id) else { return notFound(request, .noSuchTask) }
        let form = TaskForm(fields)
        let now = configuration.now()
        do {
            guard form.version == current.uuid.uuidString else { throw OCKPlanEditor.Failure.changedMeanwhile }
            if deleting {
                try await editor.delete(current)
                try await auditTask(current, action: .delete, context)
                return Response.redirect(to: url("/plan?done=deleted"), type: .normal)
            }
            var problems: [TaskForm.Problem] = []
            // The end form's problems are shown beside its own fields (ids starting "end-").
            let refused = { (problems: [TaskForm.Problem]) in
                try await self.taskPage(request, context, form: self.taskForm(current), task: current,
                                        problems: problems.map { TaskForm.Problem(field: "end-" + $0.field, text: $0.text, argument: $0.argument) },
                                        endForm: form, status: .unprocessableContent)
            }
            guard let effective = try await effectiveDate(form, current: current, now: now, problems: &problems) else {
                return try await refused(problems)
            }
            do {
                let ended = try await editor.end(current, effective: effective, now: now)
                try await auditTask(ended, action: .update, context)
            } catch let OCKPlanEditor.Failure.tooEarly(earliest) {
                return try await refused([tooEarlyProblem(earliest, renderContext(for: request).localization)])
            }
            return Response.redirect(to: url("/plan?done=ended"), type: .normal)
        } catch let failure as OCKPlanEditor.Failure {
            return try await refusal(failure, request, context, form: taskForm(current), current: current)
        }
    }

    /// Writes the change of `task`'s version to the audit log: who, when, and the version's uuid (never its content).
    func auditTask(_ task: OCKTask, action: AuditEntry.Action, _ context: RecordContext) async throws {
        try await context.auditTrail.write(Self.taskAuditResource, action, "version " + task.uuid.uuidString)
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/plan`.
    func getPlan(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await planPage(request, context)
    }

    /// `GET /records/{record}/plan/tasks/new`.
    func getPlanTasksNew(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await taskPage(request, context, form: TaskForm(today: dayString(configuration.now())), task: nil)
    }

    /// `POST /records/{record}/plan/tasks`.
    func postPlanTasks(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await submitTask(request, context, id: nil)
    }

    /// `GET /records/{record}/plan/tasks/{id}`.
    func getPlanTasksId(_ request: Request, _ context: RecordContext) async throws -> Response {
        let id = Self.parameter("id", context)
        guard let task = try await editor.task(withID: id) else { return notFound(request, .noSuchTask) }
        return try await taskPage(request, context, form: taskForm(task), task: task)
    }

    /// `POST /records/{record}/plan/tasks/{id}`.
    func postPlanTasksId(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await submitTask(request, context, id: Self.parameter("id", context))
    }

    /// `POST /records/{record}/plan/preview/tasks`.
    func postPlanPreviewTasks(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await previewTask(request, context, id: nil)
    }

    /// `POST /records/{record}/plan/preview/tasks/{id}`.
    func postPlanPreviewTasksId(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await previewTask(request, context, id: Self.parameter("id", context))
    }

    /// `POST /records/{record}/plan/tasks/{id}/end`.
    func postPlanTasksIdEnd(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await endOrDeleteTask(request, context, id: Self.parameter("id", context), deleting: false)
    }

    /// `POST /records/{record}/plan/tasks/{id}/delete`.
    func postPlanTasksIdDelete(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await endOrDeleteTask(request, context, id: Self.parameter("id", context), deleting: true)
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
