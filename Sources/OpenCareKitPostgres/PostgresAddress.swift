import Foundation
import PostgresNIO

/// Where the database is: `postgres://user[:password]@host[:port]/database`, the form of `DATABASE_URL`.
///
/// A host that is a path (`postgres://user@%2Frun%2Fpostgresql/db`, or `?host=/run/postgresql`) is a Unix socket
/// directory. `sslmode=require` asks for TLS; `disable` (the default) and `prefer` connect without it, as on a
/// private network or a socket.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// The server's host name or IP address, or a Unix socket directory (a path starting with `/`): the URL's
    /// `host` query item when it has one, or else its host.
    public var host: String
    /// The server's TCP port, or the number in the socket's file name (`.s.PGSQL.<port>`): 5432 unless the URL
    /// names another.
    public var port: Int
    /// The role to connect as.
    public var user: String
    /// The role's password; nil when the URL has none (a socket's peer or a trusted network's authentication).
    public var password: String?
    /// The database's name.
    public var database: String
    /// Whether the connection must use TLS: true for `sslmode` `require`, `verify-ca` or `verify-full`, false for
    /// `disable` (the default), `allow` or `prefer`, which connect without TLS. With TLS the server's certificate is
    /// verified against the system's trusted roots, whichever of the three modes asked for it.
    public var requiresTLS: Bool

    /// The address a database URL names.
    ///
    /// For example:
    /// ```swift
    /// let address = try PostgresAddress(url: "postgres://care:s3cret@db.internal:5433/opencarekit?sslmode=require")
    /// address.description   // "postgres://care:•••@db.internal:5433/opencarekit"
    /// let socket = try PostgresAddress(url: "postgres://care@/opencarekit?host=/run/postgresql")
    /// socket.isSocket       // true
    /// ```
    ///
    /// - Parameter text: The URL: scheme `postgres` or `postgresql`, a user, a host (or a `host` query item), an
    ///   optional port and password, and a database; percent-encoded where it must be.
    /// - Throws: `PostgresAddressError` naming what is wrong (never the password): another scheme, no user, no
    ///   database, no host, a port outside 1–65535 or an unknown `sslmode`.
    public init(url text: String) throws(PostgresAddressError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw PostgresAddressError("The database URL must look like postgres://user@host:port/database")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresAddressError("The database URL names no user (postgres://USER@host/database)")
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else {
            throw PostgresAddressError("The database URL names no database (postgres://user@host/DATABASE)")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let host = query["host"] ?? components.host.map { $0.removingPercentEncoding ?? $0 } ?? ""
        guard !host.isEmpty else { throw PostgresAddressError("The database URL names no host") }
        self.host = host
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw PostgresAddressError("The database URL's port is out of range") }
        self.user = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        database = path.removingPercentEncoding ?? path
        switch query["sslmode"] ?? "disable" {
        case "disable", "prefer", "allow": requiresTLS = false
        case "require", "verify-ca", "verify-full": requiresTLS = true
        default: throw PostgresAddressError("The database URL's sslmode must be disable, prefer or require")
        }
    }

    /// Whether the host is a Unix socket directory.
    public var isSocket: Bool { host.hasPrefix("/") }

    /// The URL without its password.
    public var description: String {
        let user = password == nil ? user : "\(user):•••"
        return isSocket ? "postgres://\(user)@/\(database)?host=\(host)&port=\(port)" : "postgres://\(user)@\(host):\(port)/\(database)"
    }

    var clientConfiguration: PostgresClient.Configuration {
        if isSocket {
            return PostgresClient.Configuration(unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password,
                                                database: database)
        }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database,
                                            tls: requiresTLS ? .require(.makeClientConfiguration()) : .disable)
    }

    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if isSocket {
            return PostgresConnection.Configuration(unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password,
                                                    database: database)
        }
        return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database,
                                                tls: requiresTLS ? .require(try .init(configuration: .makeClientConfiguration())) : .disable)
    }
}

/// A database URL that cannot be used, with why.
public struct PostgresAddressError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public let description: String
    init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}
