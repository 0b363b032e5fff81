import Foundation
import NIOCore
import NIOHTTP1

/// Makes an absolute-form request line (`GET http://other.example/care HTTP/1.1`) name the request's authority, as
/// RFC 9112 §3.2.2 requires of a server: its authority replaces the `Host` header, so the host check sees the server
/// actually asked for. (The conversion to HTTP types keeps only the path, which would otherwise let such a request
/// past the check with a loopback `Host`.) Runs before that conversion; a request with several `Host` headers is
/// left for the host check to refuse.
final class RequestTargetHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case var .head(head) = unwrapInboundIn(data), !head.uri.hasPrefix("/"), head.uri != "*",
              head.headers["Host"].count <= 1 else {
            context.fireChannelRead(data)
            return
        }
        let target = head.uri
        if let separator = target.range(of: "://") {
            let rest = target[separator.upperBound...]
            let end = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
            let authority = rest[..<end]
            head.headers.replaceOrAdd(name: "Host", value: String(authority.split(separator: "@").last ?? ""))
            head.uri = end == rest.endIndex ? "/" : String(rest[end...])
        } else {
            // Neither origin form nor absolute form: no authority to trust.
            head.headers.replaceOrAdd(name: "Host", value: "")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
