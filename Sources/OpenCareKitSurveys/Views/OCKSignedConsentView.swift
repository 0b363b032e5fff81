import Foundation
import OpenCareKitUI

/// A signed consent as a record to read, print or keep: who signed which version of which document and when, the
/// text's SHA-256 hash (and whether the kept text still matches it), the signature, and the full text.
public struct OCKSignedConsentView: OCKComponent {
    /// The consent shown.
    public var consent: OCKSignedConsent
    /// Where the signature image is; nil shows that the typed name signed (or, with an image, nothing).
    public var signatureImage: SafeURL?
    /// A link to download the record, if any.
    public var downloadURL: SafeURL?
    /// The `id` of the rendered `article`, for a link to it; nil for none.
    public var identifier: String?

    /// A view of `consent`.
    ///
    /// - Parameters:
    ///   - consent: The consent shown.
    ///   - signatureImage: Where the drawn signature is; nil shows that the typed name signed.
    ///   - downloadURL: A link to download the record; nil for none.
    ///   - identifier: The `id` of the rendered `article`; nil for none.
    public init(consent: OCKSignedConsent, signatureImage: SafeURL?, downloadURL: SafeURL? = nil, identifier: String? = nil) {
        self.consent = consent
        self.signatureImage = signatureImage
        self.downloadURL = downloadURL
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let localization = context.localization
        func row(_ key: OCKStringKey, _ value: HTML) -> [HTML] {
            [.element("dt", [:], [.text(context.string(key))]), .element("dd", [:], [value])]
        }
        let signed = localization.fullDay(consent.signedDate) + " " + localization.time(consent.signedDate)
        var details: [HTML] = row(.documentVersion, .text(context.string(.consentDocumentVersion, consent.documentTitle, consent.documentVersion)))
            + row(.signedBy, .text(consent.signerName))
            + row(.signedOn, .element("time", ["datetime": ISO8601DateFormatter().string(from: consent.signedDate)], [.text(signed)]))
            + row(.textHash, .element("code", [:], [.text(consent.textSHA256)]))
        let signature: HTML = if consent.signatureImage != nil, let signatureImage {
            .element("img", ["class": "ock-consent-signature", "src": signatureImage.description,
                             "alt": context.string(.signatureOf, consent.signerName)], [])
        } else {
            .element("p", [:], [.text(context.string(.typedSignature))])
        }
        details += [.element("dt", [:], [.text(context.string(.signatureOf, consent.signerName))]), .element("dd", [:], [signature])]
        var children: [HTML] = [
            .element("h2", [:], [.text(consent.documentTitle)]),
            .element("dl", ["class": "ock-consent-record"], details),
        ]
        if !consent.isIntact {
            children.append(.element("p", ["class": "ock-form-error", "role": "alert"], [.text(context.string(.consentAltered))]))
        }
        if let downloadURL {
            children.append(.element("a", ["class": "ock-link-row", "href": downloadURL.description, "download": ""], [
                .text(context.string(.downloadConsent)),
            ]))
        }
        children.append(.element("div", ["class": "ock-consent-text"], consent.documentText.components(separatedBy: "\n\n").map {
            .element("p", [:], [.text($0)])
        }))
        var attributes = ["class": "ock-card ock-consent"]
        if let identifier { attributes["id"] = identifier }
        return .element("article", attributes, children)
    }

    /// The record as a whole HTML document to keep, with the signature inside it: it opens offline, in any browser,
    /// and prints.
    public func document(in context: OCKRenderContext) -> String {
        var view = self
        view.downloadURL = nil
        view.signatureImage = consent.signatureImage.flatMap(SafeURL.pngImage)
        let page = HTML.element("html", ["lang": context.localization.languageTag], [
            .element("head", [:], [
                .element("meta", ["charset": "utf-8"], []),
                .element("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"], []),
                .element("title", [:], [.text(context.string(.consentTitle) + ": " + consent.documentTitle)]),
            ]),
            .element("body", [:], [
                .element("h1", [:], [.text(context.string(.consentTitle))]),
                view.render(in: context),
            ]),
        ])
        return "<!DOCTYPE html>\n" + page.rendered
    }
}
