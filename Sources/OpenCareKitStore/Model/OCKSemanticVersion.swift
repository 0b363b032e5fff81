import Foundation

/// A version number `major.minor.patch`, as CareKit uses for `schemaVersion`.
///
/// JSON is CareKit's object form: `{"majorVersion": 3, "minorVersion": 0, "patchNumber": 0}`.
public struct OCKSemanticVersion: Codable, Hashable, Sendable, Comparable, LosslessStringConvertible {
    /// Why a string is not a version.
    public enum ParsingError: Error, Hashable, Sendable {
        /// The string is empty, has more than two dots, or its major, minor or patch part is not a non-negative whole
        /// number.
        case emptyString, tooManySeparators, invalidMajorVersion, invalidMinorVersion, invalidPatchVersion
    }

    /// The major version (3 in "3.1.2").
    public let majorVersion: Int
    /// The minor version (1 in "3.1.2").
    public let minorVersion: Int
    /// The patch number (2 in "3.1.2").
    public let patchNumber: Int

    /// The version `majorVersion.minorVersion.patchNumber`; minor and patch default to 0.
    public init(majorVersion: Int, minorVersion: Int = 0, patchNumber: Int = 0) {
        self.majorVersion = majorVersion
        self.minorVersion = minorVersion
        self.patchNumber = patchNumber
    }

    /// Parses "3", "3.1" or "3.1.2"; nil if the string is not a version.
    public init?(_ description: String) {
        guard let version = try? Self.parse(description) else { return nil }
        self = version
    }

    /// Parses "3", "3.1" or "3.1.2" (missing parts are 0).
    ///
    /// - Throws: `ParsingError` naming the part that is wrong.
    public static func parse(_ versionString: String) throws -> OCKSemanticVersion {
        guard !versionString.isEmpty else { throw ParsingError.emptyString }
        let parts = versionString.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { throw ParsingError.tooManySeparators }
        guard let major = Int(parts[0]), major >= 0 else { throw ParsingError.invalidMajorVersion }
        let minor = parts.count > 1 ? Int(parts[1]) : 0
        guard let minor, minor >= 0 else { throw ParsingError.invalidMinorVersion }
        let patch = parts.count > 2 ? Int(parts[2]) : 0
        guard let patch, patch >= 0 else { throw ParsingError.invalidPatchVersion }
        return OCKSemanticVersion(majorVersion: major, minorVersion: minor, patchNumber: patch)
    }

    public var description: String { "\(majorVersion).\(minorVersion).\(patchNumber)" }

    public static func < (lhs: OCKSemanticVersion, rhs: OCKSemanticVersion) -> Bool {
        (lhs.majorVersion, lhs.minorVersion, lhs.patchNumber) < (rhs.majorVersion, rhs.minorVersion, rhs.patchNumber)
    }
}

extension OCKSemanticVersion: OCKValidatable {
    /// Throws if a part is negative.
    public func validate() throws(OCKValidationError) {
        guard majorVersion >= 0, minorVersion >= 0, patchNumber >= 0 else {
            throw OCKValidationError(field: "schemaVersion", reason: "must not have negative parts")
        }
    }
}

extension OCKSemanticVersion {
    /// The schema version every version this store writes carries, whatever the caller set: CareKit 4's (its Core
    /// Data store stamps "3.0.0" on each inserted version). Versions merged from other stores keep theirs.
    static let stamped = OCKSemanticVersion(majorVersion: 3, minorVersion: 0, patchNumber: 0)
}
