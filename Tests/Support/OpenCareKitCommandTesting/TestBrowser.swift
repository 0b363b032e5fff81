import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP client with a cookie jar of its own, for tests that sign in to `serve` processes.
///
/// Every test server listens on 127.0.0.1, and cookies are not told apart by port: with one jar for the whole test
/// process (`URLSession.shared`), a test signing in to its server replaces the session cookie of another test
/// running at the same time. One browser per test keeps them apart; the servers of one test share it, as a browser
/// shares cookies across the ports of one host.
public final class TestBrowser: Sendable {
    private let session: URLSession

    public init() {
        session = URLSession(configuration: .ephemeral)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// An answer, after any redirects: its status, headers, body and the address it came from.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: String
        public var url: String
    }

    /// Sends a request; a body goes with its content type and the origin of `url`, as a browser's form or script
    /// would send it.
    public func request(_ method: String, _ url: String, accept: String = "text/html", body: Data? = nil,
                        contentType: String = "application/json") async throws -> Answer {
        guard let address = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: address)
        request.httpMethod = method
        request.timeoutInterval = 30
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            if let scheme = address.scheme, let host = address.host {
                request.setValue("\(scheme)://\(host)" + (address.port.map { ":\($0)" } ?? ""), forHTTPHeaderField: "Origin")
            }
        }
        // A script of the app's pages sends the reader's CSRF token (the cookie's) in a header with a body that is
        // not a form, as the app's record routes ask on every unsafe method.
        if method != "GET", method != "HEAD", !(body != nil && contentType == "application/x-www-form-urlencoded"),
           let token = session.configuration.httpCookieStorage?.cookies(for: address)?.first(where: { $0.name == "ock_csrf" })?.value {
            request.setValue(token, forHTTPHeaderField: "X-CSRF-Token")
        }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        let headers = (http?.allHeaderFields ?? [:]).reduce(into: [String: String]()) { $0["\($1.key)"] = "\($1.value)" }
        return Answer(status: http?.statusCode ?? 0, headers: headers, body: String(decoding: data, as: UTF8.self),
                      url: response.url?.absoluteString ?? url)
    }

    public func get(_ url: String, accept: String = "text/html") async throws -> Answer {
        try await request("GET", url, accept: accept)
    }

    /// Signs in as the demo patient in one click, as the sign-in page offers on loopback, at the server of `base`
    /// (its address ending in "/"); answers with the page it leads to.
    public func signInAsDemoPatient(at base: String) async throws -> Answer {
        let signIn = try await get(base + "sign-in").body
        guard let token = signIn.firstMatch(of: #/name="csrf" type="hidden" value="([0-9a-f]{64})"/#)?.output.1 else {
            throw SignInPageError(page: signIn)
        }
        return try await request("POST", base + "sign-in/demo", body: Data("csrf=\(token)&email=alex%40example.org&next=%2F".utf8),
                                 contentType: "application/x-www-form-urlencoded")
    }

    /// The sign-in page had no form to sign in with.
    public struct SignInPageError: Error, CustomStringConvertible {
        public let page: String
        public var description: String { "no sign-in form on the page: \(page.prefix(500))" }
    }
}
