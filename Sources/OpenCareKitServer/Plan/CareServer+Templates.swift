import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

/// Care plan templates in the editor: apply a built-in or imported template (JSON, validated against the template
/// format before anything is written) from a day and in a time zone, and download the record's plan as a template.
/// Applying adds the template's tasks and care team; an id the plan already uses is refused beside the template, and
/// nothing is written.
extension CareServer {
    static let templateAuditResource = "plan:template"

    /// A pasted template may be as large as the format allows, and a little more for the other fields.
    static let templateFormLimit = OCKCarePlanTemplate.maximumBytes * 3 + 4_096

    static func addTemplateRoutes(to routes: inout RecordRouteTable) {
        routes.get("/plan/templates", .page("plan", .editPlan), handler: CareServer.getPlanTemplates)
        routes.post("/plan/templates/apply", .page("plan", .editPlan, action: .create), formLimit: { _ in { _, _ in CareServer.templateFormLimit } }, handler: CareServer.postPlanTemplatesApply)
        routes.get("/plan/template.json", .page("plan", .editPlan), handler: CareServer.getPlanTemplateJson)
    }

    /// A template's problems as the page lists them: where (the JSON path) and what, in the reader's language.
    static func words(_ problem: OCKCarePlanTemplate.Problem, _ language: OCKLanguage) -> String {
        let what: String = switch problem.kind {
        case .notJSON: EditorText.templateNotJSON.text(language)
        case let .tooLarge(limit): EditorText.templateTooLarge.text(language, String(limit))
        case .unknownField: EditorText.templateUnknownField.text(language)
        case .missingField: EditorText.templateMissingField.text(language)
        case .wrongType: EditorText.templateWrongType.text(language)
        case .unsupportedFormat: EditorText.templateUnsupported.text(language)
        case .idInvalid: EditorText.idInvalid.text(language)
        case .idRepeated: EditorText.templateIDRepeated.text(language)
        case .textRequired: EditorText.templateTextRequired.text(language)
        case let .tooLong(limit): EditorText.tooLong.text(language, String(limit))
        case let .tooMany(limit): EditorText.templateTooMany.text(language, String(limit))
        case .outOfRange: EditorText.templateOutOfRange.text(language)
        case .notAllowed: EditorText.templateNotAllowed.text(language)
        case let .schedule(rule): TaskForm.words(rule).text(language, String(OCKScheduleRule.maximumLabelLength))
        case .idInUse: EditorText.templateIDInUse.text(language)
        }
        return EditorText.templateProblem.text(language, problem.path.isEmpty ? EditorText.templateWhole.text(language) : problem.path, what)
    }

    func applyTemplate(_ request: Request, _ context: RecordContext) async throws -> Response {
        let fields = try await FormFields.read(request, context: context, limit: Self.templateFormLimit)
        let choice = fields.values["template"] ?? "", json = fields.values["template-json"] ?? ""
        let start = fields.values["start"] ?? "", zone = (fields.values["time-zone"] ?? "").trimmingCharacters(in: .whitespaces)
        let refused = { (problems: [TaskForm.Problem], templateProblems: [OCKCarePlanTemplate.Problem]) in
            try await self.templatesPage(request, choice: choice, json: json, start: start, timeZone: zone, problems: problems,
                                         templateProblems: templateProblems, status: .unprocessableContent)
        }
        var problems: [TaskForm.Problem] = []
        var template: OCKCarePlanTemplate?
        if choice == "json" {
            do {
                template = try OCKCarePlanTemplate(json: Data(json.utf8))
            } catch {
                return try await refused([TaskForm.Problem(field: "template-json", text: .templateHasProblems)], error.all)
            }
        } else if let builtIn = OCKCarePlanTemplate.builtIn.first(where: { $0.id == choice }) {
            template = builtIn
        } else {
            problems.append(TaskForm.Problem(field: "template", text: .chooseOption))
        }
        let day = TaskForm.day(start, calendar: calendar)
        if day == nil { problems.append(TaskForm.Problem(field: "start", text: .dateInvalid)) }
        let timeZone = TimeZone(identifier: zone)
        if timeZone == nil || zone.isEmpty { problems.append(TaskForm.Problem(field: "time-zone", text: .timeZoneInvalid)) }
        guard problems.isEmpty, let template, let day, let timeZone else { return try await refused(problems, []) }

        // Everything is checked before anything is written: surveys this server has, ids the plan does not use.
        var conflicts: [OCKCarePlanTemplate.Problem] = []
        for (index, task) in template.tasks.enumerated() {
            if let survey = task.survey, configuration.surveyCatalog[survey] == nil {
                conflicts.append(.init(path: "tasks[\(index)].survey", kind: .notAllowed))
            }
            if !TaskForm.isIdentifier(task.id) {
                conflicts.append(.init(path: "tasks[\(index)].id", kind: .idInvalid))
            } else if try await editor.task(withID: task.id) != nil {
                conflicts.append(.init(path: "tasks[\(index)].id", kind: .idInUse))
            }
        }
        for (index, contact) in template.contacts.enumerated() {
            if !TaskForm.isIdentifier(contact.id) {
                conflicts.append(.init(path: "contacts[\(index)].id", kind: .idInvalid))
            } else if try await editor.contact(withID: contact.id) != nil {
                conflicts.append(.init(path: "contacts[\(index)].id", kind: .idInUse))
            }
        }
        do {
            try await editor.checkRoom(adding: template.tasks.count, contacts: template.contacts.count)
        } catch let OCKPlanEditor.Failure.planFull(limit) {
            conflicts.append(.init(path: "", kind: .tooMany(limit)))
        }
        let plan = try await carePlanUUID()
        let tasks: [OCKTask]
        do {
            tasks = try template.tasks(start: day, timeZone: timeZone, carePlanUUID: plan)
        } catch {
            conflicts += error.all
            tasks = []
        }
        guard conflicts.isEmpty else { return try await refused([TaskForm.Problem(field: choice == "json" ? "template-json" : "template", text: .templateHasProblems)], conflicts) }
        let now = configuration.now()
        // Not before today: a template adds nothing to days already past.
        let today = calendar.startOfDay(for: now)
        // Tasks, then contacts, each in one transaction. A write refused meanwhile (an id taken since the check)
        // takes back what this apply wrote, which has nothing recorded yet, and says so.
        let added: [OCKTask]
        do {
            added = try await store.addTasks(tasks.map { task in
                var task = task
                task.effectiveDate = max(task.effectiveDate, today)
                return task
            })
        } catch OCKStoreError.addFailed {
            return try await refused([TaskForm.Problem(field: "template", text: .changedMeanwhile)], [])
        }
        do {
            try await store.addContacts(template.contacts(carePlanUUID: plan, timeZone: timeZone, now: now))
        } catch OCKStoreError.addFailed {
            try await store.deleteTasks(added)
            return try await refused([TaskForm.Problem(field: "template", text: .changedMeanwhile)], [])
        }
        for task in added { try await auditTask(task, action: .create, context) }
        try await context.auditTrail.write(Self.templateAuditResource, .create, "applied " + template.id)
        return Response.redirect(to: url("/plan?done=template"), type: .normal)
    }

    /// The record's plan as a template, and the titles of the tasks left out (schedules no rule expresses).
    func planAsTemplate() async throws -> (template: OCKCarePlanTemplate, omitted: [String]) {
        let tasks = try await editor.tasks()
        let contacts = try await editor.contacts()
        let now = configuration.now()
        // Days count from the earliest start among tasks still running today, or today. The record's onboarding
        // belongs to its study, not to its plan.
        let running = tasks.filter { ($0.schedule.endDate().map { $0 > now } ?? true) && $0.id != configuration.onboardingTaskID }
        let first = running.compactMap { OCKScheduleRule(schedule: $0.schedule)?.start }.min() ?? OCKScheduleRule.Day(now, in: calendar)
        let plan = try await editor.carePlan()
        let result = OCKCarePlanTemplate.plan(id: plan.map { OCKCarePlanTemplate.isIdentifier($0.id) ? $0.id : "care-plan" } ?? "care-plan",
                                              title: plan?.title ?? "Care plan", tasks: running, contacts: contacts, start: first,
                                              calendar: calendar, cardStyles: configuration.cardStyles,
                                              surveys: configuration.surveys.filter { configuration.surveyCatalog[$0.value.id] != nil }.mapValues(\.id))
        let titles = Dictionary(running.map { ($0.id, $0.title ?? $0.id) }) { first, _ in first }
        return (result.template, result.omitted.map { titles[$0] ?? $0 })
    }

    /// The record's plan as template JSON, to download.
    func exportPlan(_ request: Request, _ context: RecordContext) async throws -> Response {
        let template = try await planAsTemplate().template
        try await context.auditTrail.write(Self.templateAuditResource, .read, "exported \(template.tasks.count) tasks")
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"\(template.id).json\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: template.json())))
    }

    // MARK: Page

    func templatesPage(_ request: Request, choice: String, json: String, start: String, timeZone: String, problems: [TaskForm.Problem] = [],
                       templateProblems: [OCKCarePlanTemplate.Problem] = [], status: HTTPResponse.Status = .ok) async throws -> Response {
        let language = request.preferredLanguage
        let html = EditorHTML(language: language, problems: problems)
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        let title = EditorText.templatesTitle.text(language)
        // The template's own problems are listed beside the template choice or its JSON.
        let listed: HTML = templateProblems.isEmpty ? .empty : .element("ul", ["class": "ock-field-error ock-template-problems", "id": "template-problems"],
                                                                         templateProblems.prefix(50).map { .element("li", [:], [.text(Self.words($0, language))]) })
        let options = OCKCarePlanTemplate.builtIn.map { ($0.id, $0.title) } + [("json", EditorText.templateFromJSON.text(language))]
        let omitted = try await planAsTemplate().omitted
        let main: [HTML] = [
            .element("h1", [:], [.text(title)]),
            problems.isEmpty ? .empty : .element("p", ["class": "ock-notice", "role": "alert"], [.text(EditorText.problemsSummary.text(language))]),
            .element("p", [:], [.text(EditorText.templatesIntro.text(language))]),
            .element("ul", ["class": "ock-plan-list"], OCKCarePlanTemplate.builtIn.map { template in
                .element("li", ["class": "ock-plan-item"], [
                    .element("strong", [:], [.text(template.title)]),
                    .element("span", ["class": "ock-plan-rule"], [.text((template.summary.map { $0 + " " } ?? "")
                        + EditorText.templateTasks.text(language, String(template.tasks.count), String(template.contacts.count)))]),
                    .element("a", ["href": "/templates/" + template.id + ".json", "class": "ock-link-row"],
                             [.text(EditorText.downloadTemplate.text(language, template.title))]),
                ])
            }),
            .element("section", ["aria-labelledby": "apply-heading", "class": "ock-page-section"], [
                .element("h2", ["id": "apply-heading"], [.text(EditorText.applySection.text(language))]),
                .element("form", ["method": "post", "action": url("/plan/templates/apply"), "class": "ock-editor-form", "novalidate": "novalidate",
                                  "data-ock-template-form": "true"], [
                    EditorHTML.hidden(CSRF.fieldName, token),
                    html.select(EditorText.templateChoice.text(language), id: "template", options: options, selected: choice),
                    choice == "json" ? .empty : listed,
                    html.field(EditorText.templateJSON.text(language), id: "template-json", type: "textarea", value: json,
                               hint: EditorText.templateJSONHint.text(language), extra: ["spellcheck": "false", "class": "ock-code-field"]),
                    choice == "json" ? listed : .empty,
                    .element("p", ["class": "ock-field ock-script-only", "hidden": "hidden"], [
                        .element("label", ["for": "template-file"], [.text(EditorText.templateFile.text(language))]),
                        .element("input", ["type": "file", "id": "template-file", "accept": "application/json,.json"], []),
                    ]),
                    html.field(EditorText.templateStart.text(language), id: "start", type: "date", value: start),
                    html.field(EditorText.templateTimeZone.text(language), id: "time-zone", value: timeZone,
                               hint: EditorText.templateTimeZoneHint.text(language), extra: ["autocomplete": "off", "maxlength": "64"]),
                    .element("p", ["class": "ock-form-actions"], [EditorHTML.button(EditorText.applyTemplate.text(language), intent: "save", primary: true)]),
                ]),
            ]),
            .element("section", ["aria-labelledby": "export-heading", "class": "ock-page-section"], [
                .element("h2", ["id": "export-heading"], [.text(EditorText.exportSection.text(language))]),
                .element("p", [:], [.text(EditorText.exportExplain.text(language))]),
                omitted.isEmpty ? .empty : .element("p", ["class": "ock-notice", "id": "export-omitted"],
                                                    [.text(EditorText.exportOmitted.text(language, omitted.joined(separator: ", ")))]),
                .element("p", [:], [.element("a", ["href": url("/plan/template.json"), "class": "ock-button", "download": "care-plan-template.json"],
                                             [.text(EditorText.exportPlan.text(language))])]),
                .element("p", [:], [.element("a", ["href": Self.templateSchemaPath, "class": "ock-link-row"], [.text(EditorText.schemaLink.text(language))])]),
            ]),
            .element("p", [:], [.element("a", ["href": url("/plan"), "class": "ock-link-row"], [.text(EditorText.cancel.text(language))])]),
        ]
        return editorPage(request, title: title, main: main, token: token, status: status)
    }

    static let templateSchemaPath = "/schemas/care-plan-template-1.json"
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/plan/templates`.
    func getPlanTemplates(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await templatesPage(request, choice: OCKCarePlanTemplate.builtIn[0].id, json: "", start: dayString(configuration.now()),
                                timeZone: calendar.timeZone.identifier)
    }

    /// `POST /records/{record}/plan/templates/apply`.
    func postPlanTemplatesApply(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await applyTemplate(request, context)
    }

    /// `GET /records/{record}/plan/template.json`.
    func getPlanTemplateJson(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await exportPlan(request, context)
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
