import Foundation
import OpenCareKitStore

/// The contact editor's form: a care team member or a friend, with one phone, messaging number and email (further
/// ones a contact already has are kept as they are) and a postal address.
struct ContactForm: Sendable {
    var id = "", givenName = "", familyName = "", role = "", title = "", phone = "", messaging = "", email = ""
    var street = "", city = "", state = "", postalCode = "", country = "", category = ""
    /// The version the form was read from; empty for a new contact.
    var version = ""

    static let maximumShort = 100, maximumStreet = 200
    /// Every text field, by its id in the form, with its length limit.
    static let limits: [(String, Int)] = [
        ("given-name", maximumShort), ("family-name", maximumShort), ("role", maximumShort), ("contact-title", maximumShort),
        ("phone", 40), ("messaging", 40), ("email", 254), ("street", maximumStreet), ("city", maximumShort),
        ("state", maximumShort), ("postal-code", 20), ("country", maximumShort),
    ]

    init() {}

    /// The form of a stored contact.
    init(contact: OCKContact) {
        id = contact.id
        givenName = contact.name.givenName ?? ""
        familyName = contact.name.familyName ?? ""
        role = contact.role ?? ""
        title = contact.title ?? ""
        phone = contact.phoneNumbers?.first?.value ?? ""
        messaging = contact.messagingNumbers?.first?.value ?? ""
        email = contact.emailAddresses?.first?.value ?? ""
        street = contact.address?.street ?? ""
        city = contact.address?.city ?? ""
        state = contact.address?.state ?? ""
        postalCode = contact.address?.postalCode ?? ""
        country = contact.address?.country ?? ""
        category = contact.category?.rawValue ?? ""
        version = contact.uuid.uuidString
    }

    /// The form as submitted.
    init(_ fields: FormFields) {
        func text(_ name: String) -> String { (fields.values[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        id = text("contact-id")
        givenName = text("given-name")
        familyName = text("family-name")
        role = text("role")
        title = text("contact-title")
        phone = text("phone")
        messaging = text("messaging")
        email = text("email")
        street = text("street")
        city = text("city")
        state = text("state")
        postalCode = text("postal-code")
        country = text("country")
        category = text("category")
        version = text("version")
    }

    func value(of field: String) -> String {
        switch field {
        case "given-name": givenName
        case "family-name": familyName
        case "role": role
        case "contact-title": title
        case "phone": phone
        case "messaging": messaging
        case "email": email
        case "street": street
        case "city": city
        case "state": state
        case "postal-code": postalCode
        case "country": country
        default: ""
        }
    }

    /// The problems of the form, each beside its field.
    func problems(isNew: Bool) -> [TaskForm.Problem] {
        var problems: [TaskForm.Problem] = []
        if givenName.isEmpty, familyName.isEmpty { problems.append(TaskForm.Problem(field: "given-name", text: .nameRequired)) }
        for (field, limit) in Self.limits where value(of: field).count > limit {
            problems.append(TaskForm.Problem(field: field, text: .tooLong, argument: String(limit)))
        }
        for field in ["phone", "messaging"] where !Self.isPhoneNumber(value(of: field)) {
            problems.append(TaskForm.Problem(field: field, text: .phoneInvalid))
        }
        if !email.isEmpty, !Self.isEmailAddress(email) { problems.append(TaskForm.Problem(field: "email", text: .emailInvalid)) }
        if !category.isEmpty, OCKContactCategory(rawValue: category) == nil {
            problems.append(TaskForm.Problem(field: "category", text: .chooseOption))
        }
        if isNew, !TaskForm.isIdentifier(identifier) {
            problems.append(TaskForm.Problem(field: "contact-id", text: .idInvalid))
        }
        return problems
    }

    /// The contact's identifier: as typed, or made from the name.
    var identifier: String {
        id.isEmpty ? TaskForm.identifier(from: [givenName, familyName].joined(separator: " ")) : id
    }

    /// `contact` (or a new contact) with the form's fields; further numbers and addresses it had are kept.
    func contact(from current: OCKContact?, carePlanUUID: UUID?, timeZone: TimeZone, now: Date) -> OCKContact {
        var contact = current ?? OCKContact(id: identifier, name: PersonNameComponents(), carePlanUUID: carePlanUUID)
        contact.name.givenName = givenName.isEmpty ? nil : givenName
        contact.name.familyName = familyName.isEmpty ? nil : familyName
        contact.role = role.isEmpty ? nil : role
        contact.title = title.isEmpty ? nil : title
        contact.phoneNumbers = Self.replacingFirst(contact.phoneNumbers, with: phone, label: "phone")
        contact.messagingNumbers = Self.replacingFirst(contact.messagingNumbers, with: messaging, label: "messaging")
        contact.emailAddresses = Self.replacingFirst(contact.emailAddresses, with: email, label: "email")
        let address = [street, city, state, postalCode, country]
        if address.allSatisfy(\.isEmpty) {
            contact.address = nil
        } else {
            var postal = contact.address ?? OCKPostalAddress(street: "", city: "", state: "", postalCode: "", country: "")
            (postal.street, postal.city, postal.state, postal.postalCode, postal.country) = (street, city, state, postalCode, country)
            contact.address = postal
        }
        contact.category = OCKContactCategory(rawValue: category)
        contact.effectiveDate = now
        contact.timezone = timeZone
        return contact
    }

    /// `values` with its first value replaced by `value` (or removed when it is empty); the rest stay.
    static func replacingFirst(_ values: [OCKLabeledValue]?, with value: String, label: String) -> [OCKLabeledValue]? {
        var rest = Array((values ?? []).dropFirst())
        if !value.isEmpty { rest.insert(OCKLabeledValue(label: values?.first?.label ?? label, value: value), at: 0) }
        return rest.isEmpty ? nil : rest
    }

    static func isPhoneNumber(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || " +-().".unicodeScalars.contains($0) }
            && (text.isEmpty || text.unicodeScalars.contains { ("0"..."9").contains($0) })
    }

    /// One `@` with text on both sides and a dot in the domain, and no spaces: enough to catch a mistyped field.
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !text.contains(where: \.isWhitespace)
    }
}
