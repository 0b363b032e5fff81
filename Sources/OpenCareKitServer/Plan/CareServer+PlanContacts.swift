import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

/// The care plan editor's contacts and notes: add, change and delete the care team's contacts, and add notes to the
/// plan (signed with the account's name). Like tasks, each change is audited (`plan:contact`, `plan:note`), a form
/// read from an old version is refused with 409 and the current version, and every form works without JavaScript.
extension CareServer {
    static let contactAuditResource = "plan:contact", noteAuditResource = "plan:note"
    /// The longest note title and text.
    static let maximumNoteTitle = 200, maximumNoteContent = 4_000

    static func addPlanContactRoutes(to routes: inout RecordRouteTable) {
        routes.get("/plan/contacts/new", .page("plan", .editPlan), handler: CareServer.getPlanContactsNew)
        routes.post("/plan/contacts", .page("plan", .editPlan, action: .create), handler: CareServer.postPlanContacts)
        routes.get("/plan/contacts/:id", .page("plan", .editPlan), handler: CareServer.getPlanContactsId)
        routes.post("/plan/contacts/:id", .page("plan", .editPlan, action: .update), handler: CareServer.postPlanContactsId)
        routes.post("/plan/contacts/:id/delete", .page("plan", .editPlan, action: .delete), handler: CareServer.postPlanContactsIdDelete)
        routes.post("/plan/notes", .page("plan", .editPlan, action: .create), handler: CareServer.postPlanNotes)
    }

    /// A contact's name as a list shows it: given then family name, or its id when it has neither.
    static func contactName(_ contact: OCKContact) -> String {
        let name = [contact.name.givenName, contact.name.familyName].compactMap { $0 }.joined(separator: " ")
        return name.isEmpty ? contact.id : name
    }

    func contactURL(_ id: String) -> String {
        url("/plan/contacts/" + Self.pathSegment(id))
    }

    func submitContact(_ request: Request, _ context: RecordContext, id: String?) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        let form = ContactForm(fields)
        var current: OCKContact?
        if let id {
            guard let contact = try await editor.contact(withID: id) else { return notFound(request, .noSuchContact) }
            current = contact
        }
        let problems = form.problems(isNew: current == nil)
        guard problems.isEmpty else {
            return try await contactPage(request, form: form, contact: current, problems: problems, status: .unprocessableContent)
        }
        let language = request.preferredLanguage
        do {
            let saved: OCKContact
            if var read = current {
                // The version the form was read from; the store refuses it if another is newer.
                guard let version = UUID(uuidString: form.version) else { throw OCKPlanEditor.Failure.changedMeanwhile }
                read.uuid = version
                saved = try await editor.updateContact(form.contact(from: read, carePlanUUID: nil, timeZone: calendar.timeZone, now: configuration.now()))
            } else {
                saved = try await editor.addContact(form.contact(from: nil, carePlanUUID: try await carePlanUUID(),
                                                                 timeZone: calendar.timeZone, now: configuration.now()))
            }
            try await context.auditTrail.write(Self.contactAuditResource, current == nil ? .create : .update, "version " + saved.uuid.uuidString)
            return Response.redirect(to: contactURL(saved.id) + "?saved=1", type: .normal)
        } catch OCKPlanEditor.Failure.changedMeanwhile {
            guard let id, let newest = try await editor.contact(withID: id) else { return notFound(request, .noSuchContact) }
            return try await contactPage(request, form: ContactForm(contact: newest), contact: newest,
                                         notice: EditorText.changedMeanwhile.text(language), status: .conflict)
        } catch OCKPlanEditor.Failure.idTaken {
            return try await contactPage(request, form: form, contact: nil, problems: [TaskForm.Problem(field: "contact-id", text: .contactIDTaken)],
                                         status: .conflict)
        } catch let OCKPlanEditor.Failure.planFull(limit) {
            return try await contactPage(request, form: form, contact: nil,
                                         problems: [TaskForm.Problem(field: "given-name", text: .planFull, argument: String(limit))], status: .conflict)
        } catch OCKPlanEditor.Failure.noSuchTask {
            return notFound(request, .noSuchContact)
        }
    }

    func deleteContact(_ request: Request, _ context: RecordContext, id: String) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        guard var contact = try await editor.contact(withID: id) else { return notFound(request, .noSuchContact) }
        let current = contact
        contact.uuid = UUID(uuidString: ContactForm(fields).version) ?? UUID()
        do {
            try await editor.deleteContact(contact)
        } catch OCKPlanEditor.Failure.noSuchTask {
            return notFound(request, .noSuchContact)
        } catch OCKPlanEditor.Failure.changedMeanwhile {
            return try await contactPage(request, form: ContactForm(contact: current), contact: current,
                                         notice: EditorText.changedMeanwhile.text(request.preferredLanguage), status: .conflict)
        }
        try await context.auditTrail.write(Self.contactAuditResource, .delete, "version " + current.uuid.uuidString)
        return Response.redirect(to: url("/plan?done=contact-deleted"), type: .normal)
    }

    func addNote(_ request: Request, _ context: RecordContext) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        let title = (fields.values["note-title"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let content = (fields.values["note-content"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        var problems: [TaskForm.Problem] = []
        if content.isEmpty { problems.append(TaskForm.Problem(field: "note-content", text: .noteRequired)) }
        // Characters and bytes: a character may carry any number of combining marks.
        if content.count > Self.maximumNoteContent || content.utf8.count > Self.maximumNoteContent * 4 {
            problems.append(TaskForm.Problem(field: "note-content", text: .tooLong, argument: String(Self.maximumNoteContent)))
        }
        if title.count > Self.maximumNoteTitle || title.utf8.count > Self.maximumNoteTitle * 4 {
            problems.append(TaskForm.Problem(field: "note-title", text: .tooLong, argument: String(Self.maximumNoteTitle)))
        }
        let note = OCKNote(author: context.auditTrail.askerName, title: title.isEmpty ? nil : title, content: content)
        if problems.isEmpty {
            do {
                let plan = try await editor.addNote(note, now: configuration.now())
                try await context.auditTrail.write(Self.noteAuditResource, .create, "plan version " + plan.uuid.uuidString)
                return Response.redirect(to: url("/plan?done=note#plan-notes"), type: .normal)
            } catch let OCKPlanEditor.Failure.tooManyNotes(limit) {
                problems.append(TaskForm.Problem(field: "note-content", text: .tooManyNotes, argument: String(limit)))
            }
        }
        return try await planPage(request, context, note: (title, content), problems: problems, status: .unprocessableContent)
    }

    // MARK: Pages

    func contactPage(_ request: Request, form: ContactForm, contact: OCKContact?, problems: [TaskForm.Problem] = [],
                     notice: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let language = request.preferredLanguage
        let html = EditorHTML(language: language, problems: problems)
        let token = CSRF.token(of: request) ?? CSRF.newToken()
        let title = contact.map { EditorText.editContact.text(language, Self.contactName($0)) } ?? EditorText.newContact.text(language)
        let saved = request.uri.queryParameters.get("saved") != nil
        func field(_ words: EditorText, _ id: String, type: String = "text", autocomplete: String) -> HTML {
            html.field(words.text(language), id: id, type: type, value: form.value(of: id),
                       extra: ["autocomplete": autocomplete, "maxlength": String(ContactForm.limits.first { $0.0 == id }?.1 ?? 100)])
        }
        var main: [HTML] = [
            .element("h1", [:], [.text(title)]),
            problems.isEmpty ? .empty : .element("p", ["class": "ock-notice", "role": "alert"], [.text(EditorText.problemsSummary.text(language))]),
            notice.map { .element("p", ["class": "ock-notice", "role": "alert"], [.text($0)]) } ?? .empty,
            saved ? .element("p", ["class": "ock-notice", "role": "status"], [.text(EditorText.contactSaved.text(language))]) : .empty,
            .element("form", ["method": "post", "action": contact.map { contactURL($0.id) } ?? url("/plan/contacts"),
                              "class": "ock-editor-form", "novalidate": "novalidate"], [
                EditorHTML.hidden(CSRF.fieldName, token), EditorHTML.hidden("version", form.version),
                html.group(EditorText.contactSection.text(language), id: "contact-section", [
                    contact == nil ? html.field(EditorText.contactID.text(language), id: "contact-id", value: form.id,
                                                hint: EditorText.contactIDHint.text(language), extra: ["autocomplete": "off", "maxlength": "64"]) : .empty,
                    field(.givenName, "given-name", autocomplete: "off"),
                    field(.familyName, "family-name", autocomplete: "off"),
                    field(.role, "role", autocomplete: "off"),
                    field(.contactTitle, "contact-title", autocomplete: "off"),
                    html.select(EditorText.category.text(language), id: "category", options: [
                        ("", EditorText.categoryOther.text(language)),
                        (OCKContactCategory.careProvider.rawValue, EditorText.categoryCareTeam.text(language)),
                        (OCKContactCategory.friendsAndFamily.rawValue, EditorText.categoryFamily.text(language)),
                    ], selected: form.category),
                    field(.phone, "phone", type: "tel", autocomplete: "off"),
                    field(.messaging, "messaging", type: "tel", autocomplete: "off"),
                    field(.email, "email", type: "email", autocomplete: "off"),
                ]),
                html.group(EditorText.addressLegend.text(language), id: "address-section", [
                    field(.street, "street", autocomplete: "off"),
                    field(.city, "city", autocomplete: "off"),
                    field(.state, "state", autocomplete: "off"),
                    field(.postalCode, "postal-code", autocomplete: "off"),
                    field(.country, "country", autocomplete: "off"),
                ]),
                .element("p", ["class": "ock-form-actions"], [EditorHTML.button(EditorText.save.text(language), intent: "save", primary: true)]),
            ]),
        ]
        if let contact {
            main.append(.element("section", ["aria-labelledby": "delete-contact", "class": "ock-page-section"], [
                .element("h2", ["id": "delete-contact"], [.text(EditorText.deleteContact.text(language))]),
                .element("form", ["method": "post", "action": contactURL(contact.id) + "/delete", "class": "ock-editor-form"], [
                    EditorHTML.hidden(CSRF.fieldName, token), EditorHTML.hidden("version", contact.uuid.uuidString),
                    .element("p", [:], [.element("button", ["type": "submit", "class": "ock-button"],
                                                 [.text(EditorText.deleteContact.text(language))])]),
                ]),
            ]))
        }
        main.append(.element("p", [:], [.element("a", ["href": url("/plan"), "class": "ock-link-row"], [.text(EditorText.cancel.text(language))])]))
        return editorPage(request, title: title, main: main, token: token, status: status)
    }

    /// The plan page's contacts: each opening its form.
    func planContactsSection(_ contacts: [OCKContact], language: OCKLanguage) -> HTML {
        .element("section", ["aria-labelledby": "plan-contacts"], [
            .element("h2", ["id": "plan-contacts"], [.text(EditorText.contactsHeading.text(language))]),
            contacts.isEmpty ? .element("p", [:], [.text(EditorText.noContacts.text(language))]) : .element("ul", ["class": "ock-plan-list"], contacts.map { contact in
                let name = Self.contactName(contact)
                let category: EditorText = switch contact.category {
                case .careProvider: .categoryCareTeam
                case .friendsAndFamily: .categoryFamily
                case nil: .categoryOther
                }
                return .element("li", ["class": "ock-plan-item"], [
                    .element("a", ["href": contactURL(contact.id), "class": "ock-link-row"], [.text(name)]),
                    .element("span", ["class": "ock-plan-rule"], [.text(([contact.role, contact.title].compactMap { $0 } + [category.text(language)])
                        .joined(separator: " · "))]),
                ])
            }),
            .element("p", [:], [.element("a", ["href": url("/plan/contacts/new"), "class": "ock-button"], [.text(EditorText.addContact.text(language))])]),
        ])
    }

    /// The plan page's notes, newest first, and the form to add one (with what was typed when it was refused).
    func planNotesSection(_ notes: [OCKNote], typed: (title: String, content: String), problems: [TaskForm.Problem], token: String,
                          language: OCKLanguage) -> HTML {
        let html = EditorHTML(language: language, problems: problems)
        return .element("section", ["aria-labelledby": "plan-notes"], [
            .element("h2", ["id": "plan-notes"], [.text(EditorText.notesHeading.text(language))]),
            notes.isEmpty ? .element("p", [:], [.text(EditorText.noNotes.text(language))]) : .element("ul", ["class": "ock-note-list"], notes.reversed().map { note in
                .element("li", ["class": "ock-note"], [
                    note.title.map { .element("h3", [:], [.text($0)]) } ?? .empty,
                    .element("p", ["class": "ock-note-content"], [.text(note.content ?? "")]),
                    note.author.map { .element("p", ["class": "ock-note-author"], [.text(EditorText.noteBy.text(language, $0))]) } ?? .empty,
                ])
            }),
            .element("form", ["method": "post", "action": url("/plan/notes"), "class": "ock-editor-form", "novalidate": "novalidate"], [
                EditorHTML.hidden(CSRF.fieldName, token),
                html.group(EditorText.noteSection.text(language), id: "note-section", [
                    html.field(EditorText.noteTitle.text(language), id: "note-title", value: typed.title,
                               extra: ["maxlength": String(Self.maximumNoteTitle)]),
                    html.field(EditorText.noteContent.text(language), id: "note-content", type: "textarea", value: typed.content,
                               extra: ["required": "required", "maxlength": String(Self.maximumNoteContent)]),
                ]),
                .element("p", ["class": "ock-form-actions"], [EditorHTML.button(EditorText.addNote.text(language), intent: "save", primary: true)]),
            ]),
        ])
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/plan/contacts/new`.
    func getPlanContactsNew(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await contactPage(request, form: ContactForm(), contact: nil)
    }

    /// `POST /records/{record}/plan/contacts`.
    func postPlanContacts(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await submitContact(request, context, id: nil)
    }

    /// `GET /records/{record}/plan/contacts/{id}`.
    func getPlanContactsId(_ request: Request, _ context: RecordContext) async throws -> Response {
        guard let contact = try await editor.contact(withID: Self.parameter("id", context)) else { return notFound(request, .noSuchContact) }
        return try await contactPage(request, form: ContactForm(contact: contact), contact: contact)
    }

    /// `POST /records/{record}/plan/contacts/{id}`.
    func postPlanContactsId(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await submitContact(request, context, id: Self.parameter("id", context))
    }

    /// `POST /records/{record}/plan/contacts/{id}/delete`.
    func postPlanContactsIdDelete(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await deleteContact(request, context, id: Self.parameter("id", context))
    }

    /// `POST /records/{record}/plan/notes`.
    func postPlanNotes(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await addNote(request, context)
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
