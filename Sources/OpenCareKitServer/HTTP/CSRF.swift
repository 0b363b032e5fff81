import Foundation
import HTTPTypes
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore

/// Cross-site request forgery protection by double submission: every page sets a random token in a SameSite=Lax,
/// HttpOnly cookie and puts the same token in its forms; a POST is accepted only when the two match. (Lax, so that
/// arriving by a link from elsewhere keeps the cookie rather than minting a new one that breaks other tabs' forms;
/// `SameOriginMiddleware` refuses cross-site posts outright.)
enum CSRF {
    static let cookieName = "ock_csrf"
    static let fieldName = "csrf"
    /// What a person whose form's token does not match is told.
    static let expiredMessage = PageMessage(ErrorText.formExpired)

    /// The token of the request's cookie, if it has a well-formed one.
    static func token(of request: Request) -> String? {
        guard let value = request.cookieValue(cookieName), value.utf8.count == 64,
              value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        return String(value)
    }

    /// A new random token: 32 bytes as hex.
    static func newToken() -> String {
        SecureRandom.bytes(32).hexEncoded
    }

    /// The cookie holding `token`: `Secure` when people reach the app at `publicOrigin` over https, so that the
    /// browser never sends it over plain http.
    static func cookie(_ token: String, publicOrigin: String?) -> Cookie {
        Cookie(name: cookieName, value: token, path: "/", secure: publicOrigin?.hasPrefix("https://") == true, httpOnly: true, sameSite: .lax)
    }

    /// The header a script sends the token in, for a body that is not a form (JSON).
    static let headerName = HTTPField.Name("X-CSRF-Token")!

    /// Whether the form's token matches the cookie's, compared in constant time.
    static func isValid(_ fields: FormFields, request: Request) -> Bool {
        matches(fields.values[fieldName], request: request)
    }

    /// Whether `given` is the token of the request's cookie, compared in constant time.
    static func matches(_ given: String?, request: Request) -> Bool {
        guard let cookie = token(of: request), let given, given.utf8.count == cookie.utf8.count else { return false }
        return zip(cookie.utf8, given.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether an unsafe request carries the reader's token: a form body in its `csrf` field (the body is read, at
    /// most `limit` bytes, and left in `request` for the handler), any other in the `X-CSRF-Token` header. Throws
    /// the body's error (413 beyond `limit`).
    static func verify(_ request: inout Request, formLimit limit: Int) async throws -> Bool {
        let isForm = request.headers[.contentType].map { type in
            type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/x-www-form-urlencoded"
        } ?? false
        guard isForm else { return matches(request.headers[headerName], request: request) }
        let body = try await request.collectBody(upTo: limit)
        return isValid(FormFields(String(buffer: body)), request: request)
    }
}

extension Request {
    /// The value of the cookie `name`, found in the `Cookie` headers without parsing every cookie into a dictionary
    /// (`cookies` does, and the server's profile showed it on every page).
    func cookieValue(_ name: String) -> Substring? {
        let semicolon = UInt8(ascii: ";"), space = UInt8(ascii: " "), equals = UInt8(ascii: "=")
        for header in headers[values: .cookie] {
            // By bytes: the separators are ASCII, so every index found is on a character boundary.
            let bytes = header.utf8
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: semicolon) ?? bytes.endIndex
                var pairStart = start
                while pairStart < end, bytes[pairStart] == space { pairStart = bytes.index(after: pairStart) }
                let pair = bytes[pairStart..<end]
                if pair.starts(with: name.utf8) {
                    let afterName = bytes.index(pairStart, offsetBy: name.utf8.count)
                    if afterName < end, bytes[afterName] == equals { return header[bytes.index(after: afterName)..<end] }
                }
                start = end < bytes.endIndex ? bytes.index(after: end) : end
            }
        }
        return nil
    }
}
