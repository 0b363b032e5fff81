import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI

/// Sharing a record: who has access (every member sees it), and for the owner, single-use invitation links that
/// expire after 7 days, changing a role and removing someone. Each change is audited by the authorization check it
/// passes through, like every access to the record.
extension CareHost {
    static let invitationLifetime: TimeInterval = 7 * 86_400

    /// A route of a record answered by the host itself (from the directory), behind the same check as the record's own.
    /// The form of a host record route (`addRecordRoute`), whose gate has checked its CSRF token already: `access`,
    /// which only the gate makes, is the proof.
    func recordForm(_ request: Request, _ context: CareRequestContext, _ access: RecordAccess,
                    _ body: (FormFields) async throws -> Response) async throws -> Response {
        try await body(try await FormFields.read(request, context: context))
    }

    func addRecordRoute(_ routes: inout HostRoutes, _ method: HTTPRequest.Method, _ path: String, _ policy: RecordRoutePolicy,
                        _ handler: @escaping @Sendable (Request, CareRequestContext, RecordAccess) async throws -> Response) {
        let host = self, detail = Self.auditDetail(method, path)
        let unsafe = RecordRouteTable.isUnsafe(method)
        routes.record(method, Self.recordPrefix + path, policy) { request, context in
            // The same gate as the record's own routes (`answer`).
            let access = try await host.authorize(policy, detail: detail, request, context)
            var request = request
            try await host.refuseForgery(&request, context, access: access, policy: policy, detail: detail, unsafe: unsafe, formLimit: nil)
            return try await handler(request, context, access)
        }
    }

    func addSharingRoutes(to routes: inout HostRoutes) {
        let host = self
        addRecordRoute(&routes, .get, "/sharing", .page("sharing")) { request, _, access in
            try await host.sharingPage(request, access)
        }
        addRecordRoute(&routes, .post, "/sharing/invitations", .page("sharing", .manageSharing, action: .create)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                guard let role = fields.values["role"].flatMap(CareRole.init(rawValue:)) else {
                    return try await host.sharingPage(request, access, message: PageMessage(ErrorText.chooseCaregiverOrClinician),
                                                      status: .unprocessableContent)
                }
                let secret = "\(RandomIdentifier.random())\(RandomIdentifier.random())"
                let now = host.configuration.now()
                // The directory keeps one patient a record and bounds open invitations, whoever writes.
                do {
                    try await host.directory.addInvitation(CareInvitation(
                        secretHash: AccessTokens.hash(secret), record: access.record, role: role, invitedBy: access.identity.account.id,
                        createdDate: now, expiryDate: now.addingTimeInterval(Self.invitationLifetime)))
                } catch let error as CareDirectoryError where error == .secondPatient || error == .tooManyInvitations {
                    let message = error == .secondPatient ? PageMessage(ErrorText.chooseCaregiverOrClinician)
                        : PageMessage(ErrorText.tooManyInvitations, String(CareDirectoryLimits.openInvitationsPerRecord))
                    return try await host.sharingPage(request, access, message: message, status: .unprocessableContent)
                }
                let origin = host.configuration.publicOrigin ?? "http://\(request.head.authority ?? "localhost")"
                return try await host.sharingPage(request, access, newLink: "\(origin)/invitations/\(secret)")
            }
        }
        addRecordRoute(&routes, .post, "/sharing/invitations/revoke", .page("sharing", .manageSharing, action: .delete)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                let hash = fields.values["invitation"] ?? ""
                if let invitation = try await host.directory.invitation(secretHash: hash), invitation.record == access.record {
                    try await host.directory.removeInvitation(secretHash: hash)
                }
                return Response.redirect(to: "/records/\(access.record)/sharing", type: .normal)
            }
        }
        addRecordRoute(&routes, .post, "/sharing/members/role", .page("sharing", .manageSharing, action: .update)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                guard let account = fields.values["account"].flatMap(CareAccountID.init),
                      let role = fields.values["role"].flatMap(CareRole.init(rawValue:)),
                      var membership = try await host.directory.membership(record: access.record, account: account) else {
                    return try await host.sharingPage(request, access, message: PageMessage(ErrorText.choosePersonAndRole), status: .unprocessableContent)
                }
                guard !membership.isOwner else {
                    return try await host.sharingPage(request, access, message: PageMessage(ErrorText.ownerRoleStays), status: .conflict)
                }
                membership.role = role
                do {
                    try await host.directory.setMembership(membership)
                } catch let error as CareDirectoryError where error == .secondPatient {
                    return try await host.sharingPage(request, access, message: PageMessage(ErrorText.chooseCaregiverOrClinician),
                                                      status: .unprocessableContent)
                }
                return Response.redirect(to: "/records/\(access.record)/sharing", type: .normal)
            }
        }
        addRecordRoute(&routes, .post, "/sharing/members/remove", .page("sharing", .manageSharing, action: .delete)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                guard let account = fields.values["account"].flatMap(CareAccountID.init),
                      let membership = try await host.directory.membership(record: access.record, account: account) else {
                    return try await host.sharingPage(request, access, message: PageMessage(ErrorText.personHasNoAccess), status: .notFound)
                }
                guard !membership.isOwner else {
                    return try await host.sharingPage(request, access, message: PageMessage(ErrorText.ownerCannotBeRemoved), status: .conflict)
                }
                try await host.directory.removeMembership(record: access.record, account: account)
                return Response.redirect(to: "/records/\(access.record)/sharing", type: .normal)
            }
        }
        addRecordRoute(&routes, .post, "/sharing/plan-editing", .page("sharing", .manageSharing, action: .update)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                guard let choice = fields.values["plan-editing"], ["on", "off"].contains(choice),
                      var record = try await host.directory.record(access.record) else {
                    return try await host.sharingPage(request, access, message: PageMessage(EditorText.chooseOption),
                                                      status: .unprocessableContent)
                }
                record.patientEditsPlan = choice == "on"
                try await host.directory.updateRecord(record)
                return Response.redirect(to: "/records/\(access.record)/sharing?saved=plan-editing", type: .normal)
            }
        }
        routes.public(.get, "/invitations/:secret") { request, context in try await host.invitationPage(request, context) }
        routes.public(.post, "/invitations/:secret") { request, context in try await host.acceptInvitation(request, context) }
    }

    // MARK: Pages

    func roleName(_ role: CareRole, _ language: OCKLanguage) -> String { HostText.role(role).text(language) }

    func sharingPage(_ request: Request, _ access: RecordAccess, message: PageMessage? = nil, newLink: String? = nil,
                     status: HTTPResponse.Status = .ok) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let members = try await directory.members(of: access.record)
        let canManage = RecordPermission.manageSharing.isGranted(to: access.membership)
        let now = configuration.now()
        let invitations = canManage ? try await directory.invitations(of: access.record).filter { $0.acceptedDate == nil && $0.expiryDate > now } : []
        let record = try await directory.record(access.record)
        let base = "/records/\(access.record)"
        let dates = renderContext(for: request).localization
        return hostPage(request, title: HostText.sharingTitle.text(language), status: status) { token in
            var main: [HTML] = [
                .element("h1", [:], [.text(HostText.sharingTitle.text(language) + " – " + (record?.patientName ?? ""))]),
                Self.notice(message?.text(language)),
            ]
            if let newLink {
                main.append(.element("section", ["class": "ock-invitation-link", "aria-labelledby": "new-link"], [
                    .element("h2", ["id": "new-link"], [.text(HostText.invitationLink.text(language))]),
                    .element("p", [:], [.element("input", ["readonly": "readonly", "value": newLink, "id": "invitation-link",
                                                           "aria-labelledby": "new-link", "class": "ock-copy-field"], [])]),
                ]))
            }
            main.append(.element("section", ["aria-labelledby": "members"], [
                .element("h2", ["id": "members"], [.text(HostText.whoHasAccess.text(language))]),
                .element("ul", ["class": "ock-member-list"], members.map { member in
                    let id = member.account.id.description
                    var row: [HTML] = [
                        .element("span", ["class": "ock-member-name"], [.text(member.account.name
                            + (member.account.id == access.identity.account.id ? " (\(HostText.you.text(language)))" : ""))]),
                        .element("span", ["class": "ock-member-role"], [.text(roleName(member.membership.role, language)
                            + (member.membership.isOwner ? " · " + HostText.owner.text(language) : ""))]),
                    ]
                    if canManage, !member.membership.isOwner {
                        row.append(.element("form", ["method": "post", "action": base + "/sharing/members/role", "class": "ock-inline-form"], [
                            Self.hidden(CSRF.fieldName, token), Self.hidden("account", id),
                            .element("label", ["for": "role-\(id)", "class": "ock-visually-hidden"], [.text(HostText.roleOf.text(language, member.account.name))]),
                            .element("select", ["id": "role-\(id)", "name": "role"], [CareRole.caregiver, .clinician].map { role in
                                .element("option", ["value": role.rawValue, "selected": role == member.membership.role ? "selected" : nil]
                                    .compactMapValues { $0 }, [.text(roleName(role, language))])
                            }),
                            .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.changeRole.text(language))]),
                        ]))
                        row.append(.element("form", ["method": "post", "action": base + "/sharing/members/remove", "class": "ock-inline-form"], [
                            Self.hidden(CSRF.fieldName, token), Self.hidden("account", id),
                            .element("button", ["type": "submit", "class": "ock-button",
                                                "aria-label": HostText.removeNamed.text(language, member.account.name)], [.text(HostText.remove.text(language))]),
                        ]))
                    }
                    return .element("li", ["class": "ock-member"], row)
                }),
            ]))
            if canManage {
                main.append(.element("section", ["aria-labelledby": "invite"], [
                    .element("h2", ["id": "invite"], [.text(HostText.invite.text(language))]),
                    .element("p", [:], [.text(HostText.inviteHint.text(language))]),
                    .element("form", ["method": "post", "action": base + "/sharing/invitations", "class": "ock-account-form"], [
                        Self.hidden(CSRF.fieldName, token),
                        .element("p", ["class": "ock-field"], [
                            .element("label", ["for": "invite-role"], [.text(HostText.role.text(language))]),
                            .element("select", ["id": "invite-role", "name": "role"], [CareRole.caregiver, .clinician].map { role in
                                .element("option", ["value": role.rawValue], [.text(roleName(role, language))])
                            }),
                        ]),
                        .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.createInvitation.text(language))]),
                    ]),
                ]))
                if !invitations.isEmpty {
                    main.append(.element("section", ["aria-labelledby": "pending"], [
                        .element("h2", ["id": "pending"], [.text(HostText.pendingInvitations.text(language))]),
                        .element("ul", ["class": "ock-member-list"], invitations.map { invitation in
                            .element("li", ["class": "ock-member"], [
                                .element("span", [:], [.text(roleName(invitation.role, language) + " · "
                                    + HostText.expires.text(language, dates.shortDate(invitation.expiryDate)))]),
                                .element("form", ["method": "post", "action": base + "/sharing/invitations/revoke", "class": "ock-inline-form"], [
                                    Self.hidden(CSRF.fieldName, token), Self.hidden("invitation", invitation.secretHash),
                                    .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.revoke.text(language))]),
                                ]),
                            ])
                        }),
                    ]))
                }
                main.append(planEditingSection(record, base: base, token: token, saved: request.uri.queryParameters.get("saved") == "plan-editing",
                                               language: language))
                main.append(.element("p", [:], [.element("a", ["href": base + "/activity", "class": "ock-link-row"],
                                                         [.text(HostText.activityLink.text(language))])]))
            }
            main.append(.element("p", [:], [.element("a", ["href": base + "/care", "class": "ock-link-row"], [.text(renderContext(for: request).string(.backToCare))])]))
            return main
        }
    }

    /// The owner's choice of who changes the care plan: clinicians only, or the patient (or owner) too.
    func planEditingSection(_ record: CareRecord?, base: String, token: String, saved: Bool, language: OCKLanguage) -> HTML {
        let isOn = record?.patientEditsPlan ?? true
        return .element("section", ["aria-labelledby": "plan-editing"], [
            .element("h2", ["id": "plan-editing"], [.text(EditorText.planEditingSetting.text(language))]),
            saved ? .element("p", ["class": "ock-notice", "role": "status"], [.text(EditorText.planEditingSaved.text(language))]) : .empty,
            .element("form", ["method": "post", "action": base + "/sharing/plan-editing", "class": "ock-account-form"], [
                Self.hidden(CSRF.fieldName, token),
                .element("fieldset", ["class": "ock-fieldset"], [
                    .element("legend", ["class": "ock-visually-hidden"], [.text(EditorText.planEditingSetting.text(language))]),
                    EditorHTML.radio(EditorText.planEditingOn.text(language), name: "plan-editing", id: "plan-editing-on", value: "on", checked: isOn),
                    EditorHTML.radio(EditorText.planEditingOff.text(language), name: "plan-editing", id: "plan-editing-off", value: "off", checked: !isOn),
                ]),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(EditorText.save.text(language))]),
            ]),
        ])
    }

    // MARK: Invitations

    /// The invitation of `secret` that can still be used, with its record and who sent it.
    func openInvitation(_ secret: String?) async throws -> (invitation: CareInvitation, record: CareRecord, inviter: String)? {
        guard let secret, secret.utf8.count == 52, secret.allSatisfy({ $0.isLetter || $0.isNumber }),
              let invitation = try await directory.invitation(secretHash: AccessTokens.hash(secret)),
              invitation.acceptedDate == nil, invitation.expiryDate > configuration.now(),
              let record = try await directory.record(invitation.record) else { return nil }
        let inviter = try await directory.account(invitation.invitedBy)?.name ?? ""
        return (invitation, record, inviter)
    }

    func invitationGone(_ request: Request, _ context: CareRequestContext) async throws -> Response {
        try await auditSession("invitation", account: context.identity?.account.id, outcome: .denied, context: context)
        return AppPage.error(PageMessage(HostText.invitationGone), status: .gone, context: renderContext(for: request))
    }

    func invitationPage(_ request: Request, _ context: CareRequestContext, message: PageMessage? = nil,
                        status: HTTPResponse.Status = .ok) async throws -> Response {
        let secret = context.parameters.get("secret") ?? ""
        guard let (invitation, record, inviter) = try await openInvitation(secret) else { return try await invitationGone(request, context) }
        let language = renderContext(for: request).localization.language
        let path = "/invitations/\(secret)"
        let signedIn = context.identity != nil && context.identity?.token == nil
        return hostPage(request, title: HostText.invitationTitle.text(language), status: status, signedIn: signedIn) { token in
            var main: [HTML] = [
                .element("h1", [:], [.text(HostText.invitationTitle.text(language))]),
                .element("p", [:], [.text(HostText.invitationBody.text(language).replacingOccurrences(of: "{0}", with: inviter)
                    .replacingOccurrences(of: "{1}", with: record.patientName)
                    .replacingOccurrences(of: "{2}", with: roleName(invitation.role, language)))]),
                Self.notice(message?.text(language)),
            ]
            if signedIn {
                main.append(.element("form", ["method": "post", "action": path], [
                    Self.hidden(CSRF.fieldName, token),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.accept.text(language))]),
                ]))
            } else {
                main.append(.element("p", [:], [.element("a", ["href": "/sign-in?next=" + SafeRedirect.encode(path), "class": "ock-link-row"],
                                                         [.text(HostText.haveAccount.text(language))])]))
                main.append(.element("section", ["aria-labelledby": "new-account"], [
                    .element("h2", ["id": "new-account"], [.text(HostText.createAccount.text(language))]),
                    .element("form", ["method": "post", "action": path, "class": "ock-account-form"], [
                        Self.hidden(CSRF.fieldName, token),
                        Self.field(HostText.yourName.text(language), name: "name", type: "text", autocomplete: "name", id: "name"),
                        Self.field(HostText.email.text(language), name: "email", type: "email", autocomplete: "username", id: "email"),
                        Self.field(HostText.newPassword.text(language), name: "password", type: "password", autocomplete: "new-password", id: "password"),
                        .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.createAccount.text(language))]),
                    ]),
                ]))
            }
            return main
        }
    }

    /// Accepts an invitation: as the signed-in person, or after creating their account from the form.
    func acceptInvitation(_ request: Request, _ context: CareRequestContext) async throws -> Response {
        try await checkedForm(request, context) { fields in
            let secret = context.parameters.get("secret") ?? ""
            guard try await openInvitation(secret) != nil else { return try await invitationGone(request, context) }
            var account: CareAccount
            if let identity = context.identity, identity.token == nil {
                account = identity.account
            } else {
                let name = (fields.values["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                let password = fields.values["password"] ?? ""
                guard !name.isEmpty, name.count <= 200 else {
                    return try await invitationPage(request, context, message: PageMessage(ErrorText.giveYourName), status: .unprocessableContent)
                }
                guard let email = CareAccount.normalizedEmail(fields.values["email"] ?? "") else {
                    return try await invitationPage(request, context, message: PageMessage(ErrorText.giveEmail), status: .unprocessableContent)
                }
                if let problem = Passwords.problemMessage(with: password) {
                    return try await invitationPage(request, context, message: problem, status: .unprocessableContent)
                }
                account = CareAccount(email: email, name: name, passwordHash: try await Passwords.hash(password, cost: configuration.passwordCost),
                                      createdDate: configuration.now())
                do {
                    try await directory.addAccount(account)
                } catch let error as CareDirectoryError where error.kind == .emailTaken {
                    return try await invitationPage(request, context, message: PageMessage(HostText.emailTaken), status: .conflict)
                }
            }
            let accepted: CareMembership?
            do {
                accepted = try await directory.acceptInvitation(secretHash: AccessTokens.hash(secret), account: account.id, now: configuration.now())
            } catch let error as CareDirectoryError where error == .secondPatient {
                return try await invitationPage(request, context, message: PageMessage(ErrorText.invitationForSecondPatient), status: .conflict)
            }
            guard let membership = accepted else { return try await invitationGone(request, context) }
            try await audit.record(AuditEntry.Draft(recorded: configuration.now(), account: account.id, record: membership.record,
                                                    resource: "membership", action: .create, outcome: .allowed,
                                                    address: context.clientAddress, detail: "invitation accepted"))
            let target = "/records/\(membership.record)/care"
            if context.identity == nil { return try await startSession(for: account, request, context, next: target) }
            return Response.redirect(to: target, type: .normal)
        }
    }
}
