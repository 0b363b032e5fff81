import Foundation

/// A labelled piece of contact information, such as `("mobile", "+1 555 0100")`.
public struct OCKLabeledValue: Codable, Hashable, Sendable {
    /// What the value is, such as "work" or "mobile".
    public var label: String
    /// The value, such as a phone number or an email address.
    public var value: String

    /// A value with its label, such as `OCKLabeledValue(label: "work", value: "+1 555 0100")`.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// A postal address, as CareKit 4.0's struct form (all fields are strings, empty when unknown).
public struct OCKPostalAddress: Codable, Hashable, Sendable {
    /// The street and number, such as "1 Main St".
    public var street: String
    /// The city or town.
    public var city: String
    /// The state, province or region.
    public var state: String
    /// The postal or ZIP code.
    public var postalCode: String
    /// The country's name, such as "United States".
    public var country: String
    /// The country's ISO 3166-1 code, such as "US".
    public var isoCountryCode: String
    /// The county or district.
    public var subAdministrativeArea: String
    /// The neighbourhood or district within the city.
    public var subLocality: String

    /// An address; the ISO country code, county and neighbourhood are empty unless given.
    public init(street: String, city: String, state: String, postalCode: String, country: String,
                isoCountryCode: String = "", subAdministrativeArea: String = "", subLocality: String = "") {
        self.street = street
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.isoCountryCode = isoCountryCode
        self.subAdministrativeArea = subAdministrativeArea
        self.subLocality = subLocality
    }

    private enum CodingKeys: String, CodingKey {
        case street, city, state, postalCode, country, isoCountryCode, subAdministrativeArea, subLocality
    }

    /// Decodes CareKit's JSON; a missing field reads as an empty string.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field(_ key: CodingKeys) throws -> String { try container.decodeIfPresent(String.self, forKey: key) ?? "" }
        self.init(street: try field(.street), city: try field(.city), state: try field(.state),
                  postalCode: try field(.postalCode), country: try field(.country),
                  isoCountryCode: try field(.isoCountryCode), subAdministrativeArea: try field(.subAdministrativeArea),
                  subLocality: try field(.subLocality))
    }
}

/// Who a contact is to the patient.
public enum OCKContactCategory: String, Codable, Hashable, Sendable, CaseIterable {
    /// A member of the care team.
    case careProvider
    /// A friend or family member.
    case friendsAndFamily
}

/// A patient's biological sex. JSON is a plain string: "male", "female", or any other value.
public enum OCKBiologicalSex: RawRepresentable, Codable, Hashable, Sendable {
    /// Male (JSON `"male"`).
    case male
    /// Female (JSON `"female"`).
    case female
    /// Any other value, kept as written (JSON: the string itself).
    case other(String)

    public init?(rawValue: String) {
        switch rawValue {
        case "male": self = .male
        case "female": self = .female
        default: self = .other(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .male: "male"
        case .female: "female"
        case let .other(value): value
        }
    }

    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        self = OCKBiologicalSex(rawValue: raw) ?? .other(raw)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
