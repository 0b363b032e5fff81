import Crypto
import Foundation
import OpenCareKitStore

/// A signed informed consent as the store keeps it: the document's version, title and text, a SHA-256 hash of that
/// text, the signer's name, the date, and the signature image (nil when the signer typed their name instead of
/// drawing). The WWDC sample drops all of this; here it travels in the onboarding outcome, one value per field with
/// `kind` "consent.…", so the store's versioned history keeps it and every backend and sync path carries it.
///
/// For example:
/// ```swift
/// let values = try session.finish().outcomeValues(createdDate: .now)
/// if let consent = OCKSignedConsent(values: values) {
///     print(consent.documentVersion, consent.signedDate, consent.isIntact ? "intact" : "altered")
/// }
/// ```
public struct OCKSignedConsent: Sendable, Hashable {
    /// The version of the document signed (`OCKConsentDocument.version`).
    public var documentVersion: String
    /// The title of the document signed.
    public var documentTitle: String
    /// The whole text signed (`OCKConsentDocument.text`): the title, then each section's title, summary and details,
    /// separated by blank lines.
    public var documentText: String
    /// The SHA-256 hash of `documentText` in UTF-8, as 64 lowercase hex digits.
    public var textSHA256: String
    /// The signer's full name, trimmed.
    public var signerName: String
    /// When it was signed.
    public var signedDate: Date
    /// The drawn signature as PNG.
    public var signatureImage: Data?

    /// The consent of `signature` to `document`.
    public init(document: OCKConsentDocument, signature: OCKSignature) {
        documentVersion = document.version
        documentTitle = document.title
        documentText = document.text
        textSHA256 = Self.sha256(document.text)
        signerName = signature.fullName.trimmingCharacters(in: .whitespacesAndNewlines)
        signedDate = signature.date
        signatureImage = signature.image
    }

    /// The SHA-256 hash of `text` in UTF-8, as lowercase hex.
    public static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).hexEncoded
    }

    /// Whether the kept text still has the hash taken when it was signed.
    public var isIntact: Bool { Self.sha256(documentText) == textSHA256 }

    /// The kinds of the outcome values that hold a consent.
    public enum Kind {
        /// The kind of the value holding `documentVersion`.
        public static let version = "consent.version"
        /// The kind of the value holding `documentTitle`.
        public static let title = "consent.title"
        /// The kind of the value holding `documentText`.
        public static let text = "consent.text"
        /// The kind of the value holding `textSHA256`.
        public static let textSHA256 = "consent.textSHA256"
        /// The kind of the value holding `signerName`.
        public static let signer = "consent.signer"
        /// The kind of the value holding `signedDate`, a date value.
        public static let date = "consent.date"
        /// The kind of the value holding `signatureImage`, a data value; absent for a typed-name signature.
        public static let signature = "consent.signature"
    }

    /// The consent as outcome values.
    public func outcomeValues(createdDate: Date) -> [OCKOutcomeValue] {
        func value(_ value: some OCKOutcomeValueUnderlyingType, _ kind: String) -> OCKOutcomeValue {
            var outcomeValue = OCKOutcomeValue(value, createdDate: createdDate)
            outcomeValue.kind = kind
            return outcomeValue
        }
        var values = [value(documentVersion, Kind.version), value(documentTitle, Kind.title), value(documentText, Kind.text),
                      value(textSHA256, Kind.textSHA256), value(signerName, Kind.signer), value(signedDate, Kind.date)]
        if let signatureImage { values.append(value(signatureImage, Kind.signature)) }
        return values
    }

    /// The consent kept in `values`, or nil when they hold none (or only part of one).
    public init?(values: [OCKOutcomeValue]) {
        func first(_ kind: String) -> OCKOutcomeValue? { values.first { $0.kind == kind } }
        guard let version = first(Kind.version)?.stringValue, let title = first(Kind.title)?.stringValue,
              let text = first(Kind.text)?.stringValue, let hash = first(Kind.textSHA256)?.stringValue,
              let signer = first(Kind.signer)?.stringValue, let date = first(Kind.date)?.dateValue else { return nil }
        documentVersion = version
        documentTitle = title
        documentText = text
        textSHA256 = hash
        signerName = signer
        signedDate = date
        signatureImage = first(Kind.signature)?.dataValue
    }
}
