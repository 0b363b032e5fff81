import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import OpenCareKitStore
import PostgresNIO
import Synchronization

/// One PostgreSQL transaction as the store's engine-neutral `SQLDatabase`.
///
/// Each statement is sent on the transaction's connection and its answer awaited: the task suspends, holding no
/// thread, until PostgresNIO's event loop has it.
struct PostgresTransaction: SQLDatabase {
    let connection: PostgresConnection
    let logger: Logger

    var dialect: SQLDialect { .postgres }

    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) async throws -> Int {
        let result = try await run(sql, arguments)
        return result.metadata.rows ?? 0
    }

    func forEachRow(_ sql: String, _ arguments: [SQLValue], _ body: (any SQLRow) throws -> Void) async throws {
        for row in try await run(sql, arguments).rows {
            try body(PostgresStoreRow(row: row.makeRandomAccess()))
        }
    }

    /// The longest a statement is waited for; then its connection is closed and the transaction fails as
    /// unavailable (a half-open connection to a server that died never answers).
    static let statementWait = TimeAmount.seconds(60)

    private func run(_ sql: String, _ arguments: [SQLValue]) async throws -> PostgresQueryResult {
        let query = PostgresQuery(unsafeSQL: Self.numberedPlaceholders(sql), binds: Self.bindings(arguments))
        do {
            return try await Self.answer(to: connection.query(query, logger: logger), on: connection).get()
        } catch {
            throw PostgresFailures.failure(error)
        }
    }

    /// `result`, or a failure as soon as the connection closes or `statementWait` passes: a query sent as the
    /// server died may otherwise never be answered, and its transaction and the store's writes behind it would wait
    /// for ever.
    static func answer(to result: EventLoopFuture<PostgresQueryResult>, on connection: PostgresConnection) -> EventLoopFuture<PostgresQueryResult> {
        let eventLoop = connection.eventLoop
        let promise = eventLoop.makePromise(of: PostgresQueryResult.self)
        // The first of the three to come settles it.
        let settled = NIOLockedValueBox(false)
        @Sendable func settle() -> Bool {
            settled.withLockedValue { done in
                defer { done = true }
                return !done
            }
        }
        let timeout = eventLoop.scheduleTask(in: statementWait) {
            guard settle() else { return }
            promise.fail(SQLFailure(.unavailable, "PostgreSQL did not answer a statement in time"))
            let closing: EventLoopFuture<Void> = connection.close()
            closing.whenComplete { _ in }
        }
        result.whenComplete { outcome in
            guard settle() else { return }
            timeout.cancel()
            promise.completeWith(outcome)
        }
        let watch = ClosingConnections.shared.watch(connection) {
            guard settle() else { return }
            timeout.cancel()
            promise.fail(SQLFailure(.unavailable, "PostgreSQL closed the connection"))
        }
        promise.futureResult.whenComplete { _ in ClosingConnections.shared.unwatch(connection, watch) }
        return promise.futureResult
    }

    /// The statement with `?` placeholders numbered as PostgreSQL's `$1`, `$2`… (outside quoted text).
    static func numberedPlaceholders(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case let .integer(number): bindings.append(number)
            case let .real(number): bindings.append(number)
            case let .text(text): bindings.append(text)
            case let .blob(data): bindings.append(ByteBuffer(bytes: data))
            case let .uuid(uuid): bindings.append(uuid)
            }
        }
        return bindings
    }
}

/// A row of a PostgreSQL result, read by column name.
struct PostgresStoreRow: SQLRow {
    let row: PostgresRandomAccessRow

    func value(_ column: String) -> SQLValue {
        guard row.contains(column) else { return .null }
        return Self.convert(row[column])
    }

    func value(at index: Int) -> SQLValue {
        guard index < row.count else { return .null }
        return Self.convert(row[index])
    }

    /// The cell as a store value; a type the store never writes reads as NULL.
    private static func convert(_ cell: PostgresCell) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .float4, .float8, .numeric: return .real(try cell.decode(Double.self))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .bytea:
                var buffer = try cell.decode(ByteBuffer.self)
                return .blob(buffer.readData(length: buffer.readableBytes) ?? Data())
            case .uuid: return .uuid(try cell.decode(UUID.self))
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            return .null
        }
    }
}

/// Turns PostgresNIO's errors into the store's, without statement arguments.
enum PostgresFailures {
    /// What the store and the directory say of an engine error.
    static func describe(_ error: any Error) -> String {
        (failure(error) as? SQLFailure)?.description ?? "\(type(of: error))"
    }

    static func failure(_ error: any Error) -> any Error {
        // The pool's own errors (its circuit breaker tripped after a minute without connections, or it shut down)
        // come from PostgresNIO's underscored pool module, known here by name only.
        if error is ChannelError || error is IOError || String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError") {
            return SQLFailure(.unavailable, "PostgreSQL is unreachable (\(type(of: error)))")
        }
        // The store's and the directory's own errors, thrown inside a transaction, pass through.
        guard let error = error as? PSQLError else { return error }
        let state = error.serverInfo?[.sqlState]
        let message = error.serverInfo?[.message] ?? "\(error.code)"
        switch state {
        case "23505": return SQLFailure(.uniqueViolation, "PostgreSQL \(state ?? ""): \(message)")
        case "23503": return SQLFailure(.foreignKeyViolation, "PostgreSQL \(state ?? ""): \(message)")
        case "40001", "40P01": return SQLFailure(.conflict, "PostgreSQL \(state ?? ""): \(message)")
        // Shutting down, cannot connect, too many connections, in recovery; a lock waited for, a statement run, or a
        // transaction left idle longer than the session's limits (`PostgresSessionLimits`): rolled back, try later.
        case let state? where state.hasPrefix("57P") || state.hasPrefix("08") || state == "53300" || state == "55P03"
            || state == "57014" || state == "25P03":
            return SQLFailure(.unavailable, "PostgreSQL \(state): \(message)")
        case nil:
            // No answer from a server: the connection failed or closed.
            return SQLFailure(.unavailable, "PostgreSQL is unreachable (\(error.code))")
        // Insufficient resources (a full disk, no memory), a system error (I/O), an internal error (corruption): the
        // database's fault, not the request's.
        case let state? where state.hasPrefix("53") || state.hasPrefix("58") || state.hasPrefix("XX"):
            return SQLFailure(.fault, "PostgreSQL \(state): \(message)")
        case let state?:
            return SQLFailure(.other, "PostgreSQL \(state): \(message)")
        }
    }
}

/// The statements waiting on each open connection, failed together when it closes: one close callback per
/// connection, not one per statement (a busy connection would keep every statement's callback until it closed).
final class ClosingConnections: Sendable {
    static let shared = ClosingConnections()

    private let waiting = Mutex<[ObjectIdentifier: [UUID: @Sendable () -> Void]]>([:])

    /// Calls `onClose` if `connection` closes before `unwatch`.
    func watch(_ connection: PostgresConnection, onClose: @escaping @Sendable () -> Void) -> UUID {
        let id = ObjectIdentifier(connection), key = UUID()
        let isNew = waiting.withLock { waiting in
            defer { waiting[id, default: [:]][key] = onClose }
            return waiting[id] == nil
        }
        if isNew {
            connection.closeFuture.whenComplete { _ in
                let callbacks = self.waiting.withLock { $0.removeValue(forKey: id) } ?? [:]
                for callback in callbacks.values { callback() }
            }
        }
        return key
    }

    func unwatch(_ connection: PostgresConnection, _ key: UUID) {
        _ = waiting.withLock { $0[ObjectIdentifier(connection)]?.removeValue(forKey: key) }
    }
}
