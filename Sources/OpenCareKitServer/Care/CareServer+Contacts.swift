import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

extension CareServer {
    static func addContactRoutes(to routes: inout RecordRouteTable) {
        routes.get("/contacts", .page("contacts"), handler: CareServer.getContacts)
        routes.get("/contacts/:id", .page("contacts"), handler: CareServer.getContactsId)
    }

    /// CareKit's contacts list: the care team, then friends and family, then the rest, each opening its details.
    func contactsPage(_ request: Request) async throws -> Response {
        let context = renderContext(for: request)
        var query = OCKContactQuery(for: configuration.now(), calendar: calendar)
        query.sortDescriptors = [.familyName(ascending: true)]
        let contacts = try await store.fetchContacts(query: query)
        let environment = OCKSynchronizationEnvironment(render: context, actions: nil)
        let synchronizer = OCKSimpleContactViewSynchronizer { id in
            SafeURL(url("/contacts/") + (id.addingPercentEncoding(withAllowedCharacters: CareServer.pathSegmentAllowed) ?? ""))
        }
        let groups: [(OCKStringKey, [OCKContact])] = [
            (.careTeam, contacts.filter { $0.category == .careProvider }),
            (.friendsAndFamily, contacts.filter { $0.category == .friendsAndFamily }),
            (.otherContacts, contacts.filter { $0.category == nil }),
        ]
        var main: [HTML] = [.element("h1", ["class": "ock-day-heading"], [.text(context.string(.contactsTab))])]
        if contacts.isEmpty { main.append(.element("p", ["class": "ock-notice"], [.text(context.string(.noContacts))])) }
        for (heading, members) in groups where !members.isEmpty {
            main.append(.element("section", ["class": "ock-page-section"], [
                .element("h2", ["class": "ock-page-heading"], [.text(context.string(heading))]),
                .element("div", ["class": "ock-page-grid"], members.map {
                    var view = synchronizer.view(for: $0, environment: environment)
                    view.headingLevel = 3
                    return view.render(in: context)
                }),
            ]))
        }
        return AppPage.response(AppPage(title: context.string(.contactsTab), base: basePath, idleSeconds: idleSeconds, tab: .contacts, main: main,
                                        metadata: ["ock-refresh": url("/contacts")]).render(in: context))
    }

    /// One contact in detail.
    func contactPage(_ request: Request, id: String) async throws -> Response {
        let context = renderContext(for: request)
        var query = OCKContactQuery(for: configuration.now(), calendar: calendar)
        query.ids = [id]
        guard let contact = try await store.fetchContacts(query: query).first else {
            throw LocalizedRefusal(.notFound, PageMessage(ErrorText.noSuchContact))
        }
        let view = OCKDetailedContactViewSynchronizer().view(for: contact, environment: OCKSynchronizationEnvironment(render: context, actions: nil))
        let main: [HTML] = [
            .element("p", [:], [.element("a", ["href": url("/contacts"), "class": "ock-link-row"], [.text("‹ " + context.string(.contactsTab))])]),
            .element("h1", ["class": "ock-visually-hidden"], [.text(view.contact.name)]),
            view.render(in: context),
        ]
        return AppPage.response(AppPage(title: view.contact.name, base: basePath, idleSeconds: idleSeconds, tab: .contacts, main: main).render(in: context))
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/contacts`.
    func getContacts(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await contactsPage(request)
    }

    /// `GET /records/{record}/contacts/{id}`.
    func getContactsId(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await contactPage(request, id: (context.parameters.get("id") ?? "").removingPercentEncoding ?? "")
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
