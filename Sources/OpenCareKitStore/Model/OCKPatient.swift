import Foundation

/// The person the care plan is for.
///
/// Same API and JSON as CareKitStore's `OCKPatient`. As in CareKit, an ``OCKStore`` holds one patient: adding a second
/// fails, even after the first was deleted. Keep one store per patient.
///
/// For example:
/// ```swift
/// var patient = OCKPatient(id: "jane", givenName: "Jane", familyName: "Appleseed")
/// patient.birthday = calendar.date(from: DateComponents(year: 1961, month: 4, day: 12))
/// patient.sex = .female
/// patient.allergies = ["Penicillin"]
/// patient = try await store.addPatient(patient)
/// patient.age(on: Date(), calendar: calendar) // whole years
/// ```
public struct OCKPatient: Codable, Hashable, Sendable, Identifiable, OCKAnyPatient, OCKVersionedObjectCompatible {
    public var id: String
    public var name: PersonNameComponents
    public var sex: OCKBiologicalSex?
    public var birthday: Date?
    public var allergies: [String]?
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
    public var source: String?
    public var userInfo: [String: String]?
    public var asset: String?
    public var notes: [OCKNote]?
    public var timezone: TimeZone

    /// A patient effective now, in the current time zone, with a new time-ordered `uuid`.
    public init(id: String, name: PersonNameComponents) {
        self.id = id
        self.name = name
        self.effectiveDate = Date()
        self.timezone = .current
    }

    /// A patient with a given and family name.
    public init(id: String, givenName: String, familyName: String) {
        var name = PersonNameComponents()
        name.givenName = givenName
        name.familyName = familyName
        self.init(id: id, name: name)
    }

    /// The patient's age in whole years today, in the current calendar (nil without a birthday).
    public var age: Int? { age(on: Date(), calendar: .current) }

    /// The patient's age in whole years on `date` (nil without a birthday).
    public func age(on date: Date, calendar: Calendar) -> Int? {
        guard let birthday else { return nil }
        return calendar.dateComponents([.year], from: birthday, to: date).year
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        self.init(id: try container.decode(String.self, forKey: "id"),
                  name: try container.decodeIfPresent(PersonNameComponents.self, forKey: "name") ?? PersonNameComponents())
        sex = try container.decodeIfPresent(OCKBiologicalSex.self, forKey: "sex")
        birthday = try container.decodeIfPresent(Date.self, forKey: "birthday")
        allergies = try container.decodeIfPresent([String].self, forKey: "allergies")
        try decodeSharedFields(from: container)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeSharedFields(to: &container)
        try container.encode(name, forKey: "name")
        try container.encodeIfPresent(sex, forKey: "sex")
        try container.encodeIfPresent(birthday, forKey: "birthday")
        try container.encodeIfPresent(allergies, forKey: "allergies")
    }
}

extension OCKPatient: OCKValidatable {
    /// Throws for an empty id or dates outside 1900…4001.
    public func validate() throws(OCKValidationError) {
        try validateSharedFields()
        if let birthday { try DateBounds.check(birthday, field: "birthday") }
    }
}
