import Foundation
import OpenCareKitStore

// Secure messages (`CareThread`, `CareMessage`), on every engine of the directory. Each call names who reads or
// writes, and the transaction itself checks that person's membership against the thread's audience: the gate is
// here, not in a route.
extension SQLCareDirectory {
    public func startThread(_ draft: CareThreadDraft, by author: CareAccountID, now: Date) async throws
        -> (thread: CareThread, message: CareMessage) {
        let subject = draft.subject.trimmingCharacters(in: .whitespacesAndNewlines)
        guard CareThread.isValidSubject(subject) else { throw CareDirectoryError.subjectLength }
        try Self.checkBody(draft.body)
        return try await write { db in
            guard let role = try await Self.role(of: author, in: draft.record, db), draft.audience.includes(role) else {
                throw CareDirectoryError(.notFound, "There is no such record.")
            }
            if let item = draft.triageItem {
                // A reply to a triage item goes into the item's thread of that audience, made with the first reply.
                if try await !db.scalar("SELECT 1 FROM triage_item WHERE id = ? AND record = ?", [item.description, draft.record.description]).isTrue,
                   try await !db.scalar("SELECT 1 FROM thread WHERE triage_item = ? AND record = ?", [item.description, draft.record.description]).isTrue {
                    throw CareDirectoryError(.notFound, "There is no such item.")
                }
                if let existing = try await db.firstRow("SELECT * FROM thread WHERE triage_item = ? AND audience = ? AND record = ?",
                                                  [item.description, draft.audience.rawValue, draft.record.description], Self.thread) {
                    return try await Self.append(draft.body, to: existing, by: author, now: now, db)
                }
            }
            guard try await db.scalar("SELECT count(*) FROM thread WHERE record = ?", [draft.record.description]).int ?? 0
                < CareThread.maximumPerRecord else { throw CareDirectoryError.tooManyThreads }
            let thread = CareThread(id: .random(), record: draft.record, audience: draft.audience, subject: subject,
                                    triageItem: draft.triageItem, startedBy: author, startedDate: now, lastMessageDate: now, messageCount: 0)
            try await db.execute("""
                INSERT INTO thread (id, record, audience, subject, triage_item, started_by, started_date, last_message_date, message_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
                """, [thread.id.description, thread.record.description, thread.audience.rawValue, subject, draft.triageItem?.description,
                      author.description, now.timeIntervalSince1970, now.timeIntervalSince1970])
            return try await Self.append(draft.body, to: thread, by: author, now: now, db)
        }
    }

    public func postMessage(thread id: RandomIdentifier, body: String, by author: CareAccountID, now: Date) async throws
        -> (thread: CareThread, message: CareMessage) {
        try Self.checkBody(body)
        return try await write { db in
            let thread = try await Self.visibleThread(id, to: author, db)
            return try await Self.append(body, to: thread, by: author, now: now, db)
        }
    }

    public func threads(record: CareRecordID, reader: CareAccountID, before: RandomIdentifier?, limit: Int) async throws -> [CareThreadListing] {
        guard limit > 0 else { return [] }
        return try await read { db in
            guard let role = try await Self.role(of: reader, in: record, db) else { return [] }
            let audiences = CareThread.Audience.visible(to: role).map(\.rawValue)
            var arguments: [any SQLBindable] = [reader.description, reader.description, record.description] + audiences
            var after = ""
            if let before, let cursor = try await db.firstRow("SELECT last_message_date, id FROM thread WHERE id = ? AND record = ?",
                                                        [before.description, record.description], { (try $0.double("last_message_date"), try $0.string("id")) }) {
                after = " AND (t.last_message_date < ? OR (t.last_message_date = ? AND t.id < ?))"
                arguments += [cursor.0, cursor.0, cursor.1]
            }
            return try await db.rows("""
                SELECT t.*, (SELECT count(*) FROM message m WHERE m.thread = t.id AND (m.author IS NULL OR m.author <> ?)
                  AND m.position > coalesce((SELECT r.read_through FROM thread_read r WHERE r.thread = t.id AND r.account = ?), 0)) AS unread
                FROM thread t WHERE t.record = ? AND t.audience IN (\(QuerySQL.placeholders(audiences.count)))\(after)
                ORDER BY t.last_message_date DESC, t.id DESC LIMIT ?
                """, arguments + [limit]) { row in CareThreadListing(thread: try Self.thread(row), unread: try row.int("unread")) }
        }
    }

    public func thread(_ id: RandomIdentifier, reader: CareAccountID) async throws -> CareThread? {
        try await read { db in
            do {
                return try await Self.visibleThread(id, to: reader, db)
            } catch let error as CareDirectoryError where error == .noSuchThread {
                return nil
            }
        }
    }

    public func threadMessages(_ id: RandomIdentifier, reader: CareAccountID, before: RandomIdentifier?, limit: Int) async throws -> [CareMessage] {
        guard limit > 0 else { return [] }
        return try await read { db in
            _ = try await Self.visibleThread(id, to: reader, db)
            var arguments: [any SQLBindable] = [id.description]
            var after = ""
            if let before, let position = try await db.firstRow("SELECT position FROM message WHERE id = ? AND thread = ?",
                                                          [before.description, id.description], { try $0.int("position") }) {
                after = " AND position < ?"
                arguments.append(position)
            }
            return try await db.rows("SELECT * FROM message WHERE thread = ?\(after) ORDER BY position DESC LIMIT ?",
                               arguments + [limit], Self.message).reversed()
        }
    }

    public func markThreadRead(_ id: RandomIdentifier, reader: CareAccountID, through: Int?, now: Date) async throws -> Bool {
        try await write { db in
            let thread = try await Self.visibleThread(id, to: reader, db)
            return try await Self.markRead(thread, by: reader, through: through, now: now, db)
        }
    }

    public func threadReads(_ id: RandomIdentifier, reader: CareAccountID) async throws -> [CareThreadRead] {
        try await read { db in
            let thread = try await Self.visibleThread(id, to: reader, db)
            // Only members who still see the thread are said to have seen it.
            return try await db.rows("""
                SELECT r.account, r.read_through, r.read_date, m.role FROM thread_read r JOIN membership m ON m.record = ? AND m.account = r.account
                WHERE r.thread = ? ORDER BY r.read_date, r.account
                """, [thread.record.description, id.description]) { row -> CareThreadRead? in
                guard let role = CareRole(rawValue: try row.string("role")), thread.audience.includes(role) else { return nil }
                return CareThreadRead(account: RandomIdentifier(uncheckedText: try row.string("account")),
                                      readThrough: try row.int("read_through"),
                                      readDate: Date(timeIntervalSince1970: try row.double("read_date")))
            }.compactMap { $0 }
        }
    }

    public func unreadMessageCounts(account: CareAccountID, records: [CareRecordID]) async throws -> [CareRecordID: Int] {
        let ids = Array(Set(records.map(\.description))).sorted()
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            var counts: [CareRecordID: Int] = [:]
            for chunk in ids.chunks(of: 500) {
                try await db.forEachRow("""
                    SELECT t.record AS record, count(*) AS unread FROM thread t
                    JOIN membership ms ON ms.record = t.record AND ms.account = ?
                    JOIN message m ON m.thread = t.id
                    LEFT JOIN thread_read r ON r.thread = t.id AND r.account = ?
                    WHERE t.record IN (\(QuerySQL.placeholders(chunk.count))) AND \(Self.audienceCondition)
                      AND (m.author IS NULL OR m.author <> ?) AND m.position > coalesce(r.read_through, 0)
                    GROUP BY t.record
                    """, [account.description.sqlValue, account.description.sqlValue] + chunk.map(\.sqlValue) + [account.description.sqlValue]) { row in
                    counts[RandomIdentifier(uncheckedText: try row.string("record"))] = try row.int("unread")
                }
            }
            return counts
        }
    }

    public func importTeamWork(_ work: CareTeamWork, record: CareRecordID, now: Date) async throws {
        guard !work.isEmpty else { return }
        try await write { db in
            guard try await db.scalar("SELECT 1 FROM record WHERE id = ?", [record.description]).isTrue else {
                throw CareDirectoryError(.notFound, "There is no such record.")
            }
            try await Self.insert(work, record: record, db)
        }
    }

    /// Writes `work` into `record` (whose row is in place) within its bounds, or throws before writing anything.
    static func insert(_ work: CareTeamWork, record: CareRecordID, _ db: any SQLDatabase) async throws {
        guard !work.isEmpty else { return }
        let threads = try await db.scalar("SELECT count(*) FROM thread WHERE record = ?", [record.description]).int ?? 0
        let messages = try await db.scalar("SELECT CAST(coalesce(sum(message_count), 0) AS bigint) FROM thread WHERE record = ?", [record.description]).int ?? 0
        if let problem = work.problem(existingThreads: threads, existingMessages: messages) {
            throw CareDirectoryError(.conflict, problem)
        }
        let open = await Set(try db.rows("SELECT cause FROM triage_item WHERE record = ? AND status <> 'resolved'", [record.description]) {
            try $0.string("cause")
        })
        guard work.triageItems.allSatisfy({ !$0.isOpen || !open.contains($0.alert.cause) }) else {
            throw CareDirectoryError(.conflict, "The record has an open item for a cause the import has open too.")
        }
        // New ids: the same Bundle imported twice makes two copies, not a clash.
        var items: [RandomIdentifier: RandomIdentifier] = [:]
        for item in work.triageItems {
            var copy = item
            copy.id = .random()
            copy.record = record
            (copy.owner, copy.acknowledgedBy, copy.resolvedBy) = (nil, nil, nil)
            copy.raisedCount = max(1, item.raisedCount)
            items[item.id] = copy.id
            try await insertTriageItem(copy, db)
        }
        for entry in work.threads {
            let id = RandomIdentifier.random()
            let ordered = entry.messages.sorted { ($0.position, $0.sentDate) < ($1.position, $1.sentDate) }
            let last = ordered.map(\.sentDate).max() ?? entry.thread.startedDate
            try await db.execute("""
                INSERT INTO thread (id, record, audience, subject, triage_item, started_by, started_date, last_message_date, message_count)
                VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)
                """, [id.description, record.description, entry.thread.audience.rawValue,
                      entry.thread.subject.trimmingCharacters(in: .whitespacesAndNewlines),
                      entry.thread.triageItem.flatMap { items[$0] }?.description, entry.thread.startedDate.timeIntervalSince1970,
                      last.timeIntervalSince1970, ordered.count])
            for (index, message) in ordered.enumerated() {
                try await db.execute("""
                    INSERT INTO message (id, thread, record, author, author_name, position, body, sent_date) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)
                    """, [RandomIdentifier.random().description, id.description, record.description, message.authorName, index + 1,
                          message.body, message.sentDate.timeIntervalSince1970])
            }
        }
    }

    // MARK: Rules and rows

    /// `CareThread.Audience.includes` as SQL over a thread `t` and the reader's membership `ms`: made from the rule itself,
    /// so the two cannot drift.
    static let audienceCondition: String = "(" + CareRole.allCases.map { role in
        let audiences = CareThread.Audience.visible(to: role).map { "'\($0.rawValue)'" }
        return "(ms.role = '\(role.rawValue)' AND t.audience IN (\(audiences.isEmpty ? "NULL" : audiences.joined(separator: ", "))))"
    }.joined(separator: " OR ") + ")"

    static func checkBody(_ body: String) throws {
        guard CareMessage.isValidBody(body) else { throw CareDirectoryError.messageLength }
    }

    static func role(of account: CareAccountID, in record: CareRecordID, _ db: any SQLDatabase) async throws -> CareRole? {
        try await db.firstRow("SELECT role FROM membership WHERE record = ? AND account = ?", [record.description, account.description]) {
            CareRole(rawValue: try $0.string("role"))
        } ?? nil
    }

    /// The thread, if `account` is a member of its record whose role its audience includes; else "no such thread".
    static func visibleThread(_ id: RandomIdentifier, to account: CareAccountID, _ db: any SQLDatabase) async throws -> CareThread {
        guard let thread = try await db.firstRow("SELECT * FROM thread WHERE id = ?", [id.description], Self.thread),
              let role = try await role(of: account, in: thread.record, db), thread.audience.includes(role) else {
            throw CareDirectoryError.noSuchThread
        }
        return thread
    }

    /// Adds a message to `thread`, within the person's pace and the record's bound; the author has read it.
    static func append(_ body: String, to thread: CareThread, by author: CareAccountID, now: Date, _ db: any SQLDatabase) async throws
        -> (thread: CareThread, message: CareMessage) {
        let stamp = now.timeIntervalSince1970
        guard try await db.scalar("SELECT count(*) FROM message WHERE author = ? AND sent_date > ?", [author.description, stamp - 60]).int ?? 0
            < CareMessage.maximumPerMinutePerPerson else { throw CareDirectoryError.tooManyMessages }
        guard try await db.scalar("SELECT CAST(coalesce(sum(message_count), 0) AS bigint) FROM thread WHERE record = ?", [thread.record.description]).int ?? 0
            < CareMessage.maximumPerRecord else { throw CareDirectoryError.recordFullOfMessages }
        // The thread's count is read again in this transaction: two replies at once take two numbers (or one waits, or
        // fails on the unique position and is not written).
        let position = await (try db.scalar("SELECT message_count FROM thread WHERE id = ?", [thread.id.description]).int ?? thread.messageCount) + 1
        let message = CareMessage(id: .random(), thread: thread.id, record: thread.record, author: author, position: position, body: body,
                                  sentDate: now)
        try await db.execute("INSERT INTO message (id, thread, record, author, position, body, sent_date) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [message.id.description, thread.id.description, thread.record.description, author.description, position, body, stamp])
        let last = max(thread.lastMessageDate, now)
        try await db.execute("UPDATE thread SET last_message_date = ?, message_count = ? WHERE id = ?",
                       [last.timeIntervalSince1970, position, thread.id.description])
        var updated = thread
        updated.lastMessageDate = last
        updated.messageCount = position
        _ = try await markRead(updated, by: author, now: now, db)
        return (updated, message)
    }

    /// Marks `thread` read by `account` through the message at `through` (its newest when nil); false when it was read
    /// that far already.
    static func markRead(_ thread: CareThread, by account: CareAccountID, through: Int? = nil, now: Date, _ db: any SQLDatabase) async throws -> Bool {
        let through = min(through ?? thread.messageCount, thread.messageCount)
        if let read = try await db.firstRow("SELECT read_through FROM thread_read WHERE thread = ? AND account = ?",
                                      [thread.id.description, account.description], { try $0.int("read_through") }) {
            guard read < through else { return false }
            try await db.execute("UPDATE thread_read SET read_through = ?, read_date = ? WHERE thread = ? AND account = ?",
                           [through, now.timeIntervalSince1970, thread.id.description, account.description])
        } else {
            try await db.execute("INSERT INTO thread_read (thread, account, read_through, read_date) VALUES (?, ?, ?, ?)",
                           [thread.id.description, account.description, through, now.timeIntervalSince1970])
        }
        return true
    }

    static func thread(_ row: any SQLRow) throws -> CareThread {
        CareThread(id: RandomIdentifier(uncheckedText: try row.string("id")), record: RandomIdentifier(uncheckedText: try row.string("record")),
                   audience: CareThread.Audience(rawValue: try row.string("audience")) ?? .careTeam, subject: try row.string("subject"),
                   triageItem: try row.optionalString("triage_item").map(RandomIdentifier.init(uncheckedText:)),
                   startedBy: try row.optionalString("started_by").map(RandomIdentifier.init(uncheckedText:)),
                   startedDate: Date(timeIntervalSince1970: try row.double("started_date")),
                   lastMessageDate: Date(timeIntervalSince1970: try row.double("last_message_date")),
                   messageCount: try row.int("message_count"))
    }

    static func message(_ row: any SQLRow) throws -> CareMessage {
        CareMessage(id: RandomIdentifier(uncheckedText: try row.string("id")), thread: RandomIdentifier(uncheckedText: try row.string("thread")),
                    record: RandomIdentifier(uncheckedText: try row.string("record")),
                    author: try row.optionalString("author").map(RandomIdentifier.init(uncheckedText:)),
                    authorName: try row.optionalString("author_name"), position: try row.int("position"),
                    body: try row.string("body"),
                    sentDate: Date(timeIntervalSince1970: try row.double("sent_date")))
    }
}
