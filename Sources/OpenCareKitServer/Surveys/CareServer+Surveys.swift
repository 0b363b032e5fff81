import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// Surveys: a survey card's "Start survey" opens a session, each step is a page whose form posts back to it, and the
/// last step saves one outcome (the answers, and for an onboarding the signed consent). Deleting a survey's answers
/// asks first. The signed consent can be read at /consent and downloaded.
extension CareServer {
    /// Survey forms may carry a drawn signature: at most 256 KiB of PNG, about 1 MiB once in base64 and
    /// form-encoded.
    static let surveyFormLimit = 1024 * 1024

    /// The largest form a survey's step takes: a signature step's may hold a drawing; any other step, and a request
    /// without an open survey of the reader's, what any form may be.
    func surveyStepFormLimit(_ request: Request, _ context: RecordContext) async throws -> Int {
        guard let owner = CSRF.token(of: request),
              case let .open(entry) = try await surveySessions.lookup(context.parameters.get("id") ?? "", owner: owner, now: configuration.now()),
              case .signature = entry.session.currentStep.kind else { return context.maxUploadSize }
        return Self.surveyFormLimit
    }

    /// The answer to a survey form larger than its step takes.
    func signatureTooLarge(_ request: Request, _ context: RecordContext) async throws -> Response {
        throw LocalizedRefusal(.contentTooLarge, PageMessage(ErrorText.signatureFormTooLarge, String(OCKSignature.maximumImageBytes / 1024)))
    }

    static func addSurveyRoutes(to routes: inout RecordRouteTable) {
        routes.post("/surveys/start", .page("survey", .completeTasks, action: .create), handler: CareServer.postSurveysStart)
        routes.get("/surveys/:id", .page("survey", .completeTasks), handler: CareServer.getSurveysId)
        routes.post("/surveys/:id", .page("survey", .completeTasks, action: .update), formLimit: CareServer.surveyStepFormLimit,
                    tooLarge: CareServer.signatureTooLarge, handler: CareServer.postSurveysId)
        routes.get(Self.onePageSurveyPath, .page("survey", .completeTasks), handler: CareServer.getOnePageSurvey)
        routes.post(Self.onePageSurveyPath, .page("survey", .completeTasks, action: .create), handler: CareServer.postOnePageSurvey)
        routes.get("/care/events/survey/delete", .page("survey", .completeTasks), handler: CareServer.getCareEventsSurveyDelete)
        routes.post("/care/events/survey/delete", .page("survey", .completeTasks, action: .delete), handler: CareServer.postCareEventsSurveyDelete)
        routes.get("/consent", .page("consent"), handler: CareServer.getConsent)
        routes.get("/consent/:outcome/signature.png", .page("consent"), handler: CareServer.getConsentOutcomeSignaturePng)
        routes.get("/consent/:outcome/download", .page("consent", action: .execute), handler: CareServer.getConsentOutcomeDownload)
    }

    /// Where a survey is answered as one form (`OCKSurveyPageView`): what a device keeps to answer it offline.
    static let onePageSurveyPath = "/surveys/answer"

    /// The survey of `task` if it can be answered as one form: not the onboarding, whose consent is read and signed
    /// step by step.
    func surveyOnOnePage(for task: OCKTask) -> OCKSurvey? {
        guard task.id != configuration.onboardingTaskID, let survey = survey(for: task), survey.isAnsweredOnOnePage else { return nil }
        return survey
    }

    /// `GET /surveys/answer?task=…&occurrence=…&date=…`: the event's whole survey as one form, posting to the same
    /// address. A device that keeps the record keeps this page for each survey card of its days, so that a check-in
    /// is answered offline too (the app queues the form, and sends it when the network is back).
    func onePageSurvey(_ request: Request) async throws -> Response {
        let render = renderContext(for: request)
        let event: OCKEvent<OCKTask, OCKOutcome>, date: String
        (event, date) = try await surveyEvent(request, render: render)
        guard let survey = surveyOnOnePage(for: event.task) else {
            let reason: ErrorText = survey(for: event.task) == nil ? .fieldHasNoSurvey : .fieldSurveyStepByStep
            throw LocalizedRefusal(.notFound, FormError(field: "task", reason: reason).message)
        }
        guard event.outcome == nil else {
            throw LocalizedRefusal(.conflict, FormError(field: "occurrence", reason: .fieldAlreadyAnswered).message)
        }
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        var response = onePageSurveyPage(survey, event: event, date: date, token: token, render: render)
        if CSRF.token(of: request) == nil { response.setCookie(CSRF.cookie(token, publicOrigin: configuration.publicOrigin)) }
        return response
    }

    /// The page of `survey` as one form for `event`, with `results` and `refusal` when a submission was refused.
    func onePageSurveyPage(_ survey: OCKSurvey, event: OCKEvent<OCKTask, OCKOutcome>, date: String, token: String,
                           results: [String: OCKStepResult] = [:], refusal: OCKSurveyError? = nil,
                           status: HTTPResponse.Status = .ok, render: OCKRenderContext) -> Response {
        let action = OCKFormAction(url: SafeURL(url(Self.onePageSurveyPath))!, fields: [
            "task": event.task.uuid.uuidString, "occurrence": String(event.scheduleEvent.occurrence), "date": date, CSRF.fieldName: token,
        ])
        let error = refusal.map { refusal -> (stepID: String?, message: String) in
            let step: String? = switch refusal {
            case let .missingAnswer(stepID), let .invalidAnswer(stepID, _): stepID
            case .invalidSurvey, .unknownStep, .notFinished: nil
            }
            return (step, PageMessage(refusal).text(render.localization.language))
        }
        let view = OCKSurveyPageView(survey: survey, results: results, error: error, action: action,
                                     cancelURL: SafeURL(url("/care?date=\(date)#\(cardIdentifier(forTaskID: event.task.id))"))!)
        let page = AppPage(title: survey.title, base: basePath, idleSeconds: idleSeconds, tab: nil, main: [view.render(in: render)],
                           metadata: ["ock-csrf": token], showsTabs: false)
        return AppPage.response(page.render(in: render), status: status)
    }

    /// `POST /surveys/answer`: the whole survey's answers from one form, checked step by step as a session checks
    /// them, then saved as the event's outcome under the store's rules. Sent again (the app's queue, after an answer
    /// that was lost), answers already saved change nothing: they carry the moment the person pressed Done
    /// (`acted`). If someone else answered meanwhile, these answers are not saved and the person is told who and
    /// when (409).
    func answerOnOnePage(_ event: OCKEvent<OCKTask, OCKOutcome>, fields: FormFields, _ request: Request,
                         _ context: RecordContext) async throws -> Response? {
        guard let survey = surveyOnOnePage(for: event.task) else {
            throw FormError(field: "task", reason: .fieldSurveyStepByStep, status: .unprocessableContent)
        }
        let render = renderContext(for: request)
        let acted = try actedDate(fields, for: event)
        let (session, refusal) = OCKSurveyForm.session(answering: survey, fields: fields.all, now: acted, timeZone: configuration.timeZone)
        let values: [OCKOutcomeValue]
        do throws(OCKSurveyError) {
            if let refusal { throw refusal }
            values = try session.finish().outcomeValues(createdDate: acted)
        } catch {
            if request.wantsJSON {
                throw ClientError(status: .unprocessableContent, field: "answer", message: PageMessage(error).text(render.localization.language))
            }
            return onePageSurveyPage(survey, event: event, date: try fields.string("date"), token: CSRF.token(of: request) ?? "",
                                     results: session.results, refusal: error, status: .unprocessableContent, render: render)
        }
        if let outcome = event.outcome {
            return try await answered(outcome, saving: values, survey: survey, event: event, request, context)
        }
        var outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence, values: values)
        outcome.userInfo = [Self.authorKey: context.identity.account.id.description]
        do {
            try await store.addOutcome(outcome)
        } catch let error as OCKStoreError {
            // Answered meanwhile, between the look and the write (this same send, sent twice at once, or someone
            // else): told as if it had been seen first.
            guard let now = try await store.fetchEvent(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence).outcome else {
                throw error
            }
            return try await answered(now, saving: values, survey: survey, event: event, request, context)
        }
        return nil
    }

    /// The answer to answers `values` for an event answered already (`outcome`): nil (done) if they are those
    /// answers, saved by an earlier send whose answer was lost — the same kinds, values and moment, by the same
    /// person; else a refusal naming who answered and when (409): these answers are not saved.
    func answered(_ outcome: OCKOutcome, saving values: [OCKOutcomeValue], survey: OCKSurvey, event: OCKEvent<OCKTask, OCKOutcome>,
                  _ request: Request, _ context: RecordContext) async throws -> Response? {
        let author = outcome.userInfo?[Self.authorKey].flatMap(CareAccountID.init)
        if author == context.identity.account.id, outcome.values.count == values.count,
           zip(outcome.values, values).allSatisfy({ saved, sent in
               var moved = sent
               moved.createdDate = saved.createdDate
               return saved == moved && Self.sameMoment(saved.createdDate, sent.createdDate)
           }) {
            return nil
        }
        let render = renderContext(for: request)
        let title = event.task.title ?? survey.title
        let when = render.localization.time(outcome.values.first?.createdDate ?? outcome.createdDate ?? configuration.now())
        let message = try await authorName(author, context).map { PageMessage(ErrorText.answeredMeanwhile, $0, title, when) }
            ?? PageMessage(ErrorText.someoneAnsweredMeanwhile, "", title, when)
        throw LocalizedRefusal(.conflict, field: "occurrence", message)
    }

    /// Opens a session for the event's survey and sends the browser to its first step.
    func startSurvey(_ event: OCKEvent<OCKTask, OCKOutcome>, fields: FormFields, request: Request) async throws -> Response {
        guard let survey = survey(for: event.task), let owner = CSRF.token(of: request) else {
            throw FormError(field: "task", reason: .fieldHasNoSurvey, status: .unprocessableContent)
        }
        guard event.outcome == nil else {
            throw FormError(field: "occurrence", reason: .fieldAlreadyAnswered, status: .conflict)
        }
        // One onboarding, one consent: once done, it is not run again for another day.
        if event.task.id == configuration.onboardingTaskID, try await page.hasCompletedOnboarding(in: store) {
            throw FormError(field: "task", reason: .fieldOnboardingOnce, status: .conflict)
        }
        let entry = SurveySessions.Entry(session: OCKSurveySession(survey: survey), taskID: event.task.id, taskUUID: event.task.uuid,
                                         occurrence: event.scheduleEvent.occurrence, day: try fields.string("date"))
        let id = try await surveySessions.open(entry, owner: owner, now: configuration.now())
        return Response.redirect(to: url("/surveys/\(id)"), type: .normal)
    }

    /// The survey's current step, with its result so far, or with `showing`: a refused submission, shown again
    /// beside its error so nothing typed or drawn is lost.
    func surveyPage(_ entry: SurveySessions.Entry, id: String, owner: String, error: PageMessage? = nil, status: HTTPResponse.Status = .ok,
                    render: OCKRenderContext, showing: OCKStepResult? = nil) -> Response {
        let session = entry.session
        let step = session.currentStep
        let view = OCKSurveyStepView(survey: session.survey, step: step, progress: session.progress,
                                     result: showing ?? session.results[step.id],
                                     error: error?.text(render.localization.language), action: OCKFormAction(url: SafeURL(url("/surveys/\(id)"))!,
                                                                         fields: [CSRF.fieldName: owner]))
        let progress = render.string(.stepProgress, String(session.progress.step), String(session.progress.of))
        let page = AppPage(title: "\(progress) – \(session.survey.title)", base: basePath, idleSeconds: idleSeconds, tab: nil, main: [view.render(in: render)],
                           showsTabs: false, scripts: [SafeURL("/assets/surveys.js")!])
        return AppPage.response(page.render(in: render), status: status)
    }

    /// Takes one step's submission: Next records its result and moves on (saving everything after the last
    /// step), Back keeps results and goes back, Skip passes an optional step, Cancel ends the survey saving
    /// nothing. A stale page, a forged step or a replay changes nothing.
    func submitSurvey(_ request: Request, _ context: RecordContext) async throws -> Response {
        let render = renderContext(for: request)
        let now = configuration.now()
        // The gate has read the body, up to what the survey's current step takes (`surveyFormLimit`).
        let id = context.parameters.get("id") ?? ""
        let entry: SurveySessions.Entry
        guard let owner = CSRF.token(of: request) else { return Self.unknownSurvey(render: render) }
        switch try await surveySessions.lookup(id, owner: owner, now: now) {
        case let .open(open): entry = open
        case let .saving(saving): return try await settleIfCutShort(id, saving, owner: owner, render: render)
        case let .closed(how): return Self.closedSurvey(how, render: render)
        case .unknown: return Self.unknownSurvey(render: render)
        }
        var session = entry.session
        let step = session.currentStep
        let fields: FormFields
        do {
            let limit = if case .signature = step.kind { Self.surveyFormLimit } else { context.maxUploadSize }
            fields = try await FormFields.read(request, context: context, limit: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return try await signatureTooLarge(request, context)
        }
        guard let stepID = fields.values["step"], session.survey.step(stepID) != nil else {
            return surveyPage(entry, id: id, owner: owner, error: PageMessage(OCKSurveyError.unknownStep("")), status: .badRequest, render: render)
        }
        guard stepID == step.id else {
            return surveyPage(entry, id: id, owner: owner, error: PageMessage(ErrorText.surveyPageStale),
                              status: .conflict, render: render)
        }
        // What was submitted, shown again with the error when it is refused.
        var submitted: OCKStepResult?
        do {
            switch fields.values["action"] {
            case "cancel":
                guard try await surveySessions.cancel(id, now: now) else { return try await closedSurvey(id, render: render) }
                return careRedirect(entry)
            case "back":
                session.back()
            case "skip", "next":
                let wasLast = session.isAtLastStep
                if fields.values["action"] == "skip" {
                    try session.record(.skipped, for: step.id)
                } else {
                    submitted = try OCKSurveyForm.result(for: step, fields: fields.all, now: now, timeZone: configuration.timeZone)
                    // An emptied step forgets its earlier answer (a withdrawn "I agree" is not kept).
                    if let submitted { try session.record(submitted, for: step.id) } else { session.clearResult(for: step.id) }
                }
                try session.next()
                if wasLast { return try await finishSurvey(id: id, entry: entry, session: session, owner: owner, render: render) }
            default:
                return surveyPage(entry, id: id, owner: owner, error: PageMessage(ErrorText.surveyBadAction), status: .badRequest,
                                  render: render)
            }
        } catch let error as OCKSurveyError {
            // Keep what did change (an emptied step's answer is forgotten), and show what was submitted.
            var current = entry
            current.session = session
            try await surveySessions.update(id, current, now: now)
            let message = PageMessage(error)
            return surveyPage(current, id: id, owner: owner, error: message, status: .unprocessableContent, render: render, showing: submitted)
        }
        var current = entry
        current.session = session
        try await surveySessions.update(id, current, now: now)
        return Response.redirect(to: url("/surveys/\(id)"), type: .normal)
    }

    /// Saves the finished survey as the event's outcome, once: the session moves to saving first (keeping the
    /// answers), so a replayed or concurrent last submission finds it no longer open; it is finished only once the
    /// outcome is in the store.
    func finishSurvey(id: String, entry: SurveySessions.Entry, session: OCKSurveySession, owner: String,
                      render: OCKRenderContext) async throws -> Response {
        let now = configuration.now()
        var saving = entry
        saving.session = session
        saving.finishedDate = now
        let values = try saving.outcomeValues()
        guard try await surveySessions.beginSaving(id, saving, now: now) else {
            return try await closedSurvey(id, render: render)
        }
        do {
            if try await store.fetchEvent(taskUUID: entry.taskUUID, occurrence: entry.occurrence).outcome == nil {
                try await store.addOutcome(OCKOutcome(taskUUID: entry.taskUUID, taskOccurrenceIndex: entry.occurrence, values: values))
                try await surveySessions.saved(id, now: now)
                return careRedirect(entry)
            }
        } catch {
            // Refused, failed, or failed after committing (a lost connection): whether the answers are in the store
            // is known only by looking.
        }
        return try await settle(id, saving, owner: owner, render: render)
    }

    /// How long a session may stay saving before its saving is taken to have been cut short (its server stopped, or
    /// the directory could not be told the outcome): longer than any request runs.
    static let savingGrace: TimeInterval = 60

    /// A session found saving: within `savingGrace` its saving may still be running, after it is settled.
    func settleIfCutShort(_ id: String, _ entry: SurveySessions.Entry, owner: String, render: OCKRenderContext) async throws -> Response {
        guard let finished = entry.finishedDate, configuration.now().timeIntervalSince(finished) > Self.savingGrace else {
            return Self.closedSurvey(.saving, render: render)
        }
        return try await settle(id, entry, owner: owner, render: render)
    }

    /// Settles a saving session by what the store holds: its answers saved → finished; the event answered by
    /// someone else, or its task gone → discarded; no answer → open again at its last step, to submit again. If the
    /// store cannot be read, the error goes out (503) and the session stays saving, with its answers, until it is
    /// looked at again.
    func settle(_ id: String, _ entry: SurveySessions.Entry, owner: String, render: OCKRenderContext) async throws -> Response {
        let now = configuration.now()
        let notSaved = PageMessage(ErrorText.surveyAnsweredElsewhere)
        let outcome: OCKOutcome?
        do {
            var taskQuery = OCKTaskQuery()
            taskQuery.uuids = [entry.taskUUID]
            guard let task = try await store.fetchTasks(query: taskQuery).first,
                  task.schedule.event(forOccurrenceIndex: entry.occurrence) != nil else {
                // The task version or its occurrence is gone: the answers cannot be saved against it.
                try await surveySessions.discard(id, now: now)
                throw LocalizedRefusal(.conflict, notSaved)
            }
            outcome = try await store.fetchEvent(forTask: task, occurrence: entry.occurrence).outcome
        } catch let error where !(error is StorageUnavailableError) && !(error is LocalizedRefusal) {
            // Any other failure to read says nothing of the answers: they stay kept, to be settled later.
            throw LocalizedRefusal(.serviceUnavailable, PageMessage(ErrorText.surveySaveUnknown))
        }
        switch outcome {
        case let outcome? where entry.isSaved(in: outcome):
            try await surveySessions.saved(id, now: now)
            return careRedirect(entry)
        case .some:
            try await surveySessions.discard(id, now: now)
            throw LocalizedRefusal(.conflict, notSaved)
        case nil:
            try await surveySessions.reopen(id, entry, now: now)
            return surveyPage(entry, id: id, owner: owner, error: PageMessage(ErrorText.surveyNotSavedRetry),
                              status: .serviceUnavailable, render: render)
        }
    }

    /// Back to the survey card on the Care page.
    func careRedirect(_ entry: SurveySessions.Entry) -> Response {
        Response.redirect(to: url("/care?date=\(entry.day)#\(cardIdentifier(forTaskID: entry.taskID))"), type: .normal)
    }

    /// What became of session `id`, which a submission found no longer open.
    func closedSurvey(_ id: String, render: OCKRenderContext) async throws -> Response {
        switch try await surveySessions.lookup(id, owner: nil, now: configuration.now()) {
        case let .closed(how): Self.closedSurvey(how, render: render)
        case .open, .saving, .unknown: Self.unknownSurvey(render: render)
        }
    }

    static func closedSurvey(_ how: SurveySessions.Closed, render: OCKRenderContext) -> Response {
        switch how {
        case .saving:
            AppPage.error(PageMessage(ErrorText.surveySaving),
                          status: .conflict, context: render)
        case .finished:
            AppPage.error(PageMessage(ErrorText.surveySubmitted),
                          status: .conflict, context: render)
        case .cancelled:
            AppPage.error(PageMessage(ErrorText.surveyCancelled), status: .conflict,
                          context: render)
        case .discarded:
            AppPage.error(PageMessage(ErrorText.surveyDiscarded),
                          status: .conflict, context: render)
        }
    }

    static func unknownSurvey(render: OCKRenderContext) -> Response {
        AppPage.error(PageMessage(ErrorText.surveyNotOpen),
                      status: .notFound, context: render)
    }

    /// The event and day a survey page's address names (`?task=…&occurrence=…&date=…`), or the page saying what is
    /// wrong with it: 400 for a malformed address, 404 for an event there is not.
    func surveyEvent(_ request: Request, render: OCKRenderContext) async throws -> (event: OCKEvent<OCKTask, OCKOutcome>, date: String) {
        let query = request.uri.queryParameters
        guard let taskText = query.get("task"), let task = UUID(uuidString: taskText),
              let occurrenceText = query.get("occurrence"), let occurrence = Int(occurrenceText), occurrence >= 0,
              let date = query.get("date"), day(from: date) != nil else {
            throw LocalizedRefusal(.badRequest, PageMessage(ErrorText.badSurveyAddress))
        }
        do {
            return (try await store.fetchEvent(taskUUID: task, occurrence: occurrence), date)
        } catch OCKStoreError.fetchFailed {
            throw LocalizedRefusal(.notFound, PageMessage(ErrorText.noSuchEvent))
        }
    }

    /// `GET /care/events/survey/delete?task=…&occurrence=…&date=…`: asks before deleting a survey's answers
    /// (CareKit's delete confirmation), with the form that does it and the way back.
    func confirmDeletingAnswers(_ request: Request) async throws -> Response {
        let render = renderContext(for: request)
        let event: OCKEvent<OCKTask, OCKOutcome>, date: String
        (event, date) = try await surveyEvent(request, render: render)
        let back = url("/care?date=\(date)#\(cardIdentifier(forTaskID: event.task.id))")
        guard survey(for: event.task) != nil, event.task.id != configuration.onboardingTaskID, event.outcome != nil else {
            throw LocalizedRefusal(.notFound, PageMessage(ErrorText.noDeletableAnswers))
        }
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        let form = OCKFormAction(url: SafeURL(url("/care/events/survey/delete"))!, fields: [
            "task": event.task.uuid.uuidString, "occurrence": String(event.scheduleEvent.occurrence), "date": date, CSRF.fieldName: token,
        ])
        let title = render.string(.confirmDeleteTitle, event.task.title ?? "")
        let page = AppPage(title: title, base: basePath, idleSeconds: idleSeconds, tab: .care, main: [
            .element("h1", [:], [.text(title)]),
            .element("p", [:], [.text(render.string(.confirmDeleteBody))]),
            .element("div", ["class": "ock-confirm-actions"], [
                form.form(.element("button", ["type": "submit", "class": "ock-completion-button"], [.text(render.string(.deleteAnswers))]),
                          className: "ock-confirm-form"),
                .element("a", ["class": "ock-link-row", "href": back], [.text(render.string(.keepAnswers))]),
            ]),
        ])
        var response = AppPage.response(page.render(in: render))
        if CSRF.token(of: request) == nil { response.setCookie(CSRF.cookie(token, publicOrigin: configuration.publicOrigin)) }
        return response
    }

    /// The signed consents kept in the onboarding task's outcomes, newest first (the store's order), with their
    /// outcome's uuid.
    func signedConsents() async throws -> [(uuid: UUID, consent: OCKSignedConsent)] {
        guard let onboarding = configuration.onboardingTaskID else { return [] }
        var query = OCKOutcomeQuery()
        query.taskIDs = [onboarding]
        return try await store.fetchOutcomes(query: query).compactMap { outcome in
            OCKSignedConsent(values: outcome.values).map { (outcome.uuid, $0) }
        }
    }

    /// The consent of the onboarding outcome whose uuid is `text`.
    func signedConsent(_ text: String?) async throws -> OCKSignedConsent? {
        guard let text, let uuid = UUID(uuidString: text) else { return nil }
        return try await signedConsents().first { $0.uuid == uuid }?.consent
    }

    /// `GET /consent`: the signed consent, with its signature and a download.
    func consentPage(_ request: Request) async throws -> Response {
        let render = renderContext(for: request)
        let consents = try await signedConsents()
        let main: [HTML] = [.element("h1", [:], [.text(render.string(.consentTitle))])] + (consents.isEmpty
            ? [.element("p", ["class": "ock-notice"], [.text(render.string(.noConsent))])]
            : consents.map { uuid, consent in
                OCKSignedConsentView(consent: consent, signatureImage: SafeURL(url("/consent/\(uuid.uuidString)/signature.png")),
                                     downloadURL: SafeURL(url("/consent/\(uuid.uuidString)/download"))).render(in: render)
            })
        return AppPage.response(AppPage(title: render.string(.consentTitle), base: basePath, idleSeconds: idleSeconds, tab: nil, main: main).render(in: render))
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `POST /records/{record}/surveys/start`.
    func postSurveysStart(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context, forSurvey: true) { fields, event in
            try await startSurvey(event, fields: fields, request: request)
        }
    }

    /// `GET /records/{record}/surveys/{id}`.
    func getSurveysId(_ request: Request, _ context: RecordContext) async throws -> Response {
        let render = renderContext(for: request)
        let id = context.parameters.get("id") ?? ""
        let owner = CSRF.token(of: request)
        switch try await surveySessions.lookup(id, owner: owner, now: configuration.now()) {
        case let .open(entry): return surveyPage(entry, id: id, owner: owner ?? "", render: render)
        case let .saving(entry): return try await settleIfCutShort(id, entry, owner: owner ?? "", render: render)
        case let .closed(how): return Self.closedSurvey(how, render: render)
        case .unknown: return Self.unknownSurvey(render: render)
        }
    }

    func postSurveysId(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await submitSurvey(request, context)
    }

    /// `GET /records/{record}/surveys/answer`.
    func getOnePageSurvey(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await onePageSurvey(request)
    }

    /// `POST /records/{record}/surveys/answer`.
    func postOnePageSurvey(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context, forSurvey: true) { fields, event in
            try await answerOnOnePage(event, fields: fields, request, context)
        }
    }

    /// `GET /records/{record}/care/events/survey/delete`.
    func getCareEventsSurveyDelete(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await confirmDeletingAnswers(request)
    }

    /// `POST /records/{record}/care/events/survey/delete`.
    func postCareEventsSurveyDelete(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context, forSurvey: true) { _, event in
            guard event.task.id != configuration.onboardingTaskID else {
                throw FormError(field: "task", reason: .fieldKeepsConsent, status: .unprocessableContent)
            }
            if let outcome = event.outcome { try await store.deleteOutcome(outcome) }
            return nil
        }
    }

    /// `GET /records/{record}/consent`.
    func getConsent(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await consentPage(request)
    }

    /// `GET /records/{record}/consent/{outcome}/signature.png`.
    func getConsentOutcomeSignaturePng(_ request: Request, _ context: RecordContext) async throws -> Response {
        guard let consent = try await signedConsent(context.parameters.get("outcome")), let image = consent.signatureImage else {
            throw LocalizedRefusal(.notFound, PageMessage(ErrorText.noSuchSignature))
        }
        return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: image)))
    }

    /// `GET /records/{record}/consent/{outcome}/download`.
    func getConsentOutcomeDownload(_ request: Request, _ context: RecordContext) async throws -> Response {
        let render = renderContext(for: request)
        guard let consent = try await signedConsent(context.parameters.get("outcome")) else {
            throw LocalizedRefusal(.notFound, PageMessage(ErrorText.noSuchConsent))
        }
        let document = OCKSignedConsentView(consent: consent, signatureImage: nil).document(in: render)
        let version = consent.documentVersion.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        let name = "consent-\(version.isEmpty ? "document" : version)-\(dayString(consent.signedDate)).html"
        return Response(status: .ok, headers: [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"\(name)\"",
        ], body: .init(byteBuffer: ByteBuffer(string: document)))
    }
}
