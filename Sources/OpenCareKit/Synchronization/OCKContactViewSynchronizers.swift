import Foundation
import OpenCareKitStore
import OpenCareKitUI

extension OCKAnyContact {
    /// The name as it is usually written: family name first without a space for Korean, Japanese and Chinese
    /// names ("김민지"), given name first otherwise ("Dr. Chidi Okafor").
    func displayName(in context: OCKRenderContext) -> String {
        let given = [name.givenName, name.middleName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let family = name.familyName ?? ""
        let isEastAsian = (family + given).unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) || (0x3040...0x9FFF).contains($0.value) }
        let core = isEastAsian ? family + given : [given, family].filter { !$0.isEmpty }.joined(separator: " ")
        let full = [name.namePrefix, core, name.nameSuffix].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return full.isEmpty ? (name.nickname ?? "") : full
    }

    /// The address as on an envelope, one line per part.
    var addressLines: String? {
        guard let address else { return nil }
        let cityLine = [address.city, [address.state, address.postalCode].filter { !$0.isEmpty }.joined(separator: " ")]
            .filter { !$0.isEmpty }.joined(separator: ", ")
        let lines = [address.street, cityLine, address.country].filter { !$0.isEmpty }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    var viewCategory: OCKContactViewCategory? {
        switch category {
        case .careProvider: .careTeam
        case .friendsAndFamily: .friendsAndFamily
        case nil: nil
        }
    }
}

/// CareKit's simple contact synchronizer: name, title, category and a link to the detailed contact.
///
/// The name is written as it usually is: given name first ("Dr. Chidi Okafor"), or family name first without a
/// space for Korean, Japanese and Chinese names ("김민지"); the nickname when there is no other. The card's element
/// id is `contact-` and the contact's id, encoded as ``cardIdentifier(forTaskID:)`` encodes a task's.
///
/// For example, the contacts list, each card linking to its details:
/// ```swift
/// let synchronizer = OCKSimpleContactViewSynchronizer { id in
///     SafeURL("/contacts/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
/// }
/// let cards = try await store.fetchContacts(query: OCKContactQuery(for: Date(), calendar: calendar))
///     .map { synchronizer.view(for: $0, environment: environment) }
/// ```
public struct OCKSimpleContactViewSynchronizer: OCKViewSynchronizing {
    /// Where a contact's details are, from its id; nil leaves the card without a link.
    public var detailURL: @Sendable (String) -> SafeURL?

    /// A synchronizer of simple contact cards.
    ///
    /// - Parameter detailURL: Where a contact's details are, from its id; by default no card links anywhere.
    public init(detailURL: @escaping @Sendable (String) -> SafeURL? = { _ in nil }) {
        self.detailURL = detailURL
    }

    public func makeView() -> OCKSimpleContactView { OCKSimpleContactView(name: "") }

    public func updateView(_ view: inout OCKSimpleContactView, context: OCKSynchronizationContext<any OCKAnyContact>) {
        let contact = context.viewModel
        view.name = contact.displayName(in: context.environment.render)
        view.title = contact.title
        view.category = contact.viewCategory
        view.detailURL = detailURL(contact.id)
        view.identifier = "contact-" + cardIdentifier(forTaskID: contact.id).dropFirst("task-".count)
    }
}

/// CareKit's detailed contact synchronizer: the simple contact with the role as instructions and labelled call,
/// message, email and map links.
///
/// It shows the contact's first phone number, first messaging number and first email address, and its postal
/// address one line per part (street; city, state and postal code; country). Parts the contact lacks are left out.
///
/// For example, one contact's page:
/// ```swift
/// var query = OCKContactQuery(for: Date(), calendar: calendar)
/// query.ids = ["dr-okafor"]
/// if let contact = try await store.fetchContacts(query: query).first {
///     let card = OCKDetailedContactViewSynchronizer().view(for: contact, environment: environment)
/// }
/// ```
public struct OCKDetailedContactViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of detailed contact cards.
    public init() {}

    public func makeView() -> OCKDetailedContactView { OCKDetailedContactView(name: "") }

    public func updateView(_ view: inout OCKDetailedContactView, context: OCKSynchronizationContext<any OCKAnyContact>) {
        let contact = context.viewModel
        view.contact.name = contact.displayName(in: context.environment.render)
        view.contact.title = contact.title
        view.contact.category = contact.viewCategory
        view.contact.identifier = "contact-" + cardIdentifier(forTaskID: contact.id).dropFirst("task-".count)
        view.instructions = contact.role
        view.phoneNumber = contact.phoneNumbers?.first?.value
        view.messagingNumber = contact.messagingNumbers?.first?.value
        view.emailAddress = contact.emailAddresses?.first?.value
        view.address = contact.addressLines
    }
}
