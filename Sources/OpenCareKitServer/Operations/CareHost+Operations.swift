import Crypto
import Foundation
import Hummingbird

extension CareHost {
    func addOperatorRoutes(to routes: inout HostRoutes) {
        // The metrics in Prometheus's text format: no patient data, but the server's traffic and its records' count
        // are the operator's business only.
        routes.operator(.get, "/metrics", host: self) { [metrics] _, _ in
            Response(status: .ok, headers: [.contentType: ServerMetrics.contentType, .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
    }

    /// Whether the request is the operator's: it carries the operator's token (`Authorization: Bearer …`), or comes
    /// from this machine without a proxy's forwarding headers. Sessions and access tokens of people never are.
    func isOperator(_ request: Request, _ context: CareRequestContext) -> Bool {
        if let expected = configuration.operatorToken, !expected.isEmpty,
           let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            // Compared as digests, in constant time, so the answer's timing tells nothing of the token.
            let given = SHA256.hash(data: Data(header.dropFirst("Bearer ".count).utf8))
            let wanted = SHA256.hash(data: Data(expected.utf8))
            return given.withUnsafeBytes { a in wanted.withUnsafeBytes { b in zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0 } }
        }
        return context.isLoopbackClient(request)
    }
}
