import Foundation

/// Someone on the patient's care team or among friends and family, with ways to reach them.
///
/// Same API and JSON as CareKitStore's `OCKContact`; versioned like every entity. ``OCKStore`` lets the id of a deleted
/// contact be used again for a new contact.
///
/// For example:
/// ```swift
/// var contact = OCKContact(id: "dr-rivera", givenName: "Ana", familyName: "Rivera", carePlanUUID: plan.uuid)
/// contact.title = "MD"
/// contact.role = "Orthopedic surgeon"
/// contact.category = .careProvider
/// contact.phoneNumbers = [OCKLabeledValue(label: "work", value: "+1 555 0100")]
/// contact.address = OCKPostalAddress(street: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701",
///                                    country: "United States")
/// try await store.addContact(contact)
/// ```
public struct OCKContact: Codable, Hashable, Sendable, Identifiable, OCKAnyContact, OCKVersionedObjectCompatible {
    /// The `uuid` of the care plan version the contact belongs to; nil for a contact outside any plan.
    public var carePlanUUID: UUID?
    public var id: String
    public var name: PersonNameComponents
    public var address: OCKPostalAddress?
    public var emailAddresses: [OCKLabeledValue]?
    public var messagingNumbers: [OCKLabeledValue]?
    public var phoneNumbers: [OCKLabeledValue]?
    public var otherContactInfo: [OCKLabeledValue]?
    public var organization: String?
    public var title: String?
    public var role: String?
    public var category: OCKContactCategory?
    public var effectiveDate: Date
    public var deletedDate: Date?
    public var uuid = UUID.timeOrdered()
    public var nextVersionUUIDs: [UUID] = []
    public var previousVersionUUIDs: [UUID] = []
    public var createdDate: Date?
    public var updatedDate: Date?
    public var schemaVersion: OCKSemanticVersion?
    public var groupIdentifier: String?
    public var tags: [String]?
    public var remoteID: String?
    public var userInfo: [String: String]?
    public var source: String?
    public var asset: String?
    public var notes: [OCKNote]?
    public var timezone: TimeZone

    /// A contact effective now, in the current time zone, with a new time-ordered `uuid`.
    public init(id: String, name: PersonNameComponents, carePlanUUID: UUID?) {
        self.id = id
        self.name = name
        self.carePlanUUID = carePlanUUID
        self.effectiveDate = Date()
        self.timezone = .current
    }

    /// A contact with a given and family name.
    public init(id: String, givenName: String, familyName: String, carePlanUUID: UUID?) {
        var name = PersonNameComponents()
        name.givenName = givenName
        name.familyName = familyName
        self.init(id: id, name: name, carePlanUUID: carePlanUUID)
    }

    public func belongs(to plan: OCKAnyCarePlan) -> Bool {
        guard let plan = plan as? OCKCarePlan, let carePlanUUID else { return false }
        return plan.uuid == carePlanUUID
    }

    public func isEqual(to other: OCKAnyContact) -> Bool {
        self == other as? OCKContact
    }


    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        self.init(id: try container.decode(String.self, forKey: "id"),
                  name: try container.decodeIfPresent(PersonNameComponents.self, forKey: "name") ?? PersonNameComponents(),
                  carePlanUUID: try container.decodeIfPresent(UUID.self, forKey: "carePlanUUID"))
        address = try container.decodeIfPresent(OCKPostalAddress.self, forKey: "address")
        emailAddresses = try container.decodeIfPresent([OCKLabeledValue].self, forKey: "emailAddresses")
        messagingNumbers = try container.decodeIfPresent([OCKLabeledValue].self, forKey: "messagingNumbers")
        phoneNumbers = try container.decodeIfPresent([OCKLabeledValue].self, forKey: "phoneNumbers")
        otherContactInfo = try container.decodeIfPresent([OCKLabeledValue].self, forKey: "otherContactInfo")
        organization = try container.decodeIfPresent(String.self, forKey: "organization")
        title = try container.decodeIfPresent(String.self, forKey: "title")
        role = try container.decodeIfPresent(String.self, forKey: "role")
        category = try container.decodeIfPresent(OCKContactCategory.self, forKey: "category")
        try decodeSharedFields(from: container)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeSharedFields(to: &container)
        try container.encodeIfPresent(carePlanUUID, forKey: "carePlanUUID")
        try container.encode(name, forKey: "name")
        try container.encodeIfPresent(address, forKey: "address")
        try container.encodeIfPresent(emailAddresses, forKey: "emailAddresses")
        try container.encodeIfPresent(messagingNumbers, forKey: "messagingNumbers")
        try container.encodeIfPresent(phoneNumbers, forKey: "phoneNumbers")
        try container.encodeIfPresent(otherContactInfo, forKey: "otherContactInfo")
        try container.encodeIfPresent(organization, forKey: "organization")
        try container.encodeIfPresent(title, forKey: "title")
        try container.encodeIfPresent(role, forKey: "role")
        try container.encodeIfPresent(category, forKey: "category")
    }
}

extension OCKContact: OCKValidatable {
    /// Throws for an empty id or dates outside 1900…4001.
    public func validate() throws(OCKValidationError) {
        try validateSharedFields()
    }
}
