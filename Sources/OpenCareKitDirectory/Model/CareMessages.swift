import Foundation
import OpenCareKitStore

/// A conversation in a record: between the patient, the caregivers and the care team (`everyone`), or a note among
/// the record's clinicians that the patient and caregivers never see (`careTeam`). A thread may answer a triage item:
/// a reply to the item goes into it.
///
/// Who may read and write a thread is decided by the directory itself, from the reader's membership, in the
/// transaction that reads or writes (`CareThread.Audience.includes(_:)`): whoever asks, through whatever route, gets
/// the same answer.
///
/// For example:
/// ```swift
/// let draft = CareThreadDraft(record: record.id, audience: .careTeam, subject: "Follow-up visit",
///                             body: "Shall we see them next week?")
/// let (thread, _) = try await directory.startThread(draft, by: clinician.id, now: .now)
/// _ = try await directory.postMessage(thread: thread.id, body: "Yes, on Tuesday.", by: colleague.id, now: .now)
///
/// for listing in try await directory.threads(record: record.id, reader: colleague.id, before: nil, limit: 20) {
///     print(listing.thread.subject, listing.unread)
/// }
/// ```
public struct CareThread: Sendable, Hashable, Identifiable {
    /// Who a thread is for: everyone with access to the record, or only its clinicians. The raw value is what the
    /// directory stores (`everyone`, `care-team`).
    public enum Audience: String, Sendable, Hashable, CaseIterable {
        /// The patient, the caregivers and the clinicians of the record.
        case everyone
        /// The clinicians of the record only (FHIR would say: a `Communication` whose recipients are practitioners).
        case careTeam = "care-team"

        /// Whether a member in `role` reads and writes threads of this audience.
        public func includes(_ role: CareRole) -> Bool {
            switch self {
            case .everyone: true
            case .careTeam: role == .clinician
            }
        }

        /// The audiences a member in `role` sees.
        public static func visible(to role: CareRole) -> [Audience] { allCases.filter { $0.includes(role) } }
    }

    public var id: RandomIdentifier
    /// The record the thread belongs to.
    public var record: CareRecordID
    /// Who reads and writes it; it never changes once the thread is started.
    public var audience: Audience
    /// The thread's subject, trimmed: 1 to `maximumSubjectLength` characters.
    public var subject: String
    /// The triage item it answers, if any.
    public var triageItem: RandomIdentifier?
    /// Who started it; nil for an imported thread, or once the account is gone.
    public var startedBy: CareAccountID?
    /// When it was started.
    public var startedDate: Date
    /// When its newest message was sent; it never moves back, whatever a server's clock says. Threads are listed
    /// most recently active first by it.
    public var lastMessageDate: Date
    /// How many messages it has: the position of its newest.
    public var messageCount: Int

    /// A thread as the directory keeps it. New threads are made by `CareDirectory.startThread(_:by:now:)`, which sets
    /// every field; make one yourself only for an import (`CareTeamWork`).
    public init(id: RandomIdentifier, record: CareRecordID, audience: Audience, subject: String, triageItem: RandomIdentifier? = nil,
                startedBy: CareAccountID?, startedDate: Date, lastMessageDate: Date, messageCount: Int) {
        self.id = id
        self.record = record
        self.audience = audience
        self.subject = subject
        self.triageItem = triageItem
        self.startedBy = startedBy
        self.startedDate = startedDate
        self.lastMessageDate = lastMessageDate
        self.messageCount = messageCount
    }

    /// The longest subject, in characters.
    public static let maximumSubjectLength = 200

    /// Whether `subject` (trimmed) is one a thread may have: some text, at most `maximumSubjectLength` characters, no NUL.
    public static func isValidSubject(_ subject: String) -> Bool {
        CareMessage.isText(subject.trimmingCharacters(in: .whitespacesAndNewlines), maximum: maximumSubjectLength)
    }
    /// The most threads a record has; a new one beyond is refused (older threads take replies still).
    public static let maximumPerRecord = 1_000
}

/// One message of a thread: plain text, as its author wrote it. Messages are numbered in their thread from 1
/// (`position`), and a reader has read a thread through a number: what is unread does not depend on servers' clocks.
///
/// For example:
/// ```swift
/// let messages = try await directory.threadMessages(thread.id, reader: reader.id, before: nil, limit: 50)
/// for message in messages {
///     print(message.position, message.sentDate, message.body)
/// }
/// _ = try await directory.markThreadRead(thread.id, reader: reader.id, through: messages.last?.position, now: .now)
/// ```
public struct CareMessage: Sendable, Hashable, Identifiable {
    public var id: RandomIdentifier
    /// The thread it belongs to.
    public var thread: RandomIdentifier
    /// The record of its thread.
    public var record: CareRecordID
    /// Nil once the author's account is gone.
    public var author: CareAccountID?
    /// The name of an author who is no account here: a message imported from another server's export.
    public var authorName: String?
    /// Its number in the thread, from 1.
    public var position: Int
    /// The message as its author wrote it, plain text: 1 to `maximumBodyLength` characters, not only white space, no
    /// NUL.
    public var body: String
    /// When it was sent, by the clock of the server that took it.
    public var sentDate: Date

    /// A message as the directory keeps it. New messages are made by `CareDirectory.startThread(_:by:now:)` and
    /// `CareDirectory.postMessage(thread:body:by:now:)`; make one yourself only for an import (`CareTeamWork`).
    public init(id: RandomIdentifier, thread: RandomIdentifier, record: CareRecordID, author: CareAccountID?, authorName: String? = nil,
                position: Int, body: String, sentDate: Date) {
        self.id = id
        self.thread = thread
        self.record = record
        self.author = author
        self.authorName = authorName
        self.position = position
        self.body = body
        self.sentDate = sentDate
    }

    /// The longest message, in characters.
    public static let maximumBodyLength = 4_000
    /// The most messages a person sends in a minute, across every record.
    public static let maximumPerMinutePerPerson = 10
    /// The most messages a record keeps; beyond it, new messages are refused (a record is a medical record: nothing
    /// said in it is dropped to make room).
    public static let maximumPerRecord = 50_000
    /// The longest name of an imported message's author.
    public static let maximumAuthorNameLength = 200

    /// Whether `body` is one a message may have: some text, at most `maximumBodyLength` characters, no NUL (which
    /// PostgreSQL's text cannot hold).
    public static func isValidBody(_ body: String) -> Bool {
        !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && isText(body, maximum: maximumBodyLength)
    }

    static func isText(_ text: String, maximum: Int) -> Bool {
        !text.isEmpty && text.count <= maximum && !text.unicodeScalars.contains("\u{0}")
    }
}

/// A record's messages and triage items as another server kept them (its FHIR export), to import into a record here.
/// Its people are not accounts here: a message keeps its author's name (`CareMessage.authorName`), an item none of
/// the accounts that worked it (only when). Ids are made anew on import, so a Bundle imported twice makes two copies.
public struct CareTeamWork: Sendable, Hashable {
    /// One thread of an import, with its messages.
    public struct Thread: Sendable, Hashable {
        /// Its `record`, `startedBy` and `messageCount` are the import's to set; `triageItem` names an item of `triageItems`.
        public var thread: CareThread
        /// In order; their `thread`, `record`, `author` and `position` are the import's to set.
        public var messages: [CareMessage]

        /// A thread of an import and its messages, in order.
        public init(thread: CareThread, messages: [CareMessage]) {
            self.thread = thread
            self.messages = messages
        }
    }

    /// The threads to import, each with its messages.
    public var threads: [Thread]
    /// Their `record` and accounts are the import's to set.
    public var triageItems: [CareTriageItem]

    /// Team work to import; by default none (what `CareDirectory.addRecord(_:member:)` adds).
    public init(threads: [Thread] = [], triageItems: [CareTriageItem] = []) {
        self.threads = threads
        self.triageItems = triageItems
    }

    /// Whether it holds no thread and no item.
    public var isEmpty: Bool { threads.isEmpty && triageItems.isEmpty }

    /// The first thing in it beyond what a record keeps, in words without its data; nil when it all fits. Every writer
    /// of imported team work asks this (the FHIR reader for a clear refusal, the directory before it writes).
    public func problem(existingThreads: Int = 0, existingMessages: Int = 0) -> String? {
        if existingThreads + threads.count > CareThread.maximumPerRecord {
            return "A record has at most \(CareThread.maximumPerRecord) threads."
        }
        if existingMessages + threads.reduce(0, { $0 + $1.messages.count }) > CareMessage.maximumPerRecord {
            return "A record keeps at most \(CareMessage.maximumPerRecord) messages."
        }
        var answered = Set<String>()
        for entry in threads {
            guard CareThread.isValidSubject(entry.thread.subject) else {
                return "A thread's subject has 1 to \(CareThread.maximumSubjectLength) characters."
            }
            guard !entry.messages.isEmpty else { return "A thread has at least one message." }
            for message in entry.messages {
                guard CareMessage.isValidBody(message.body) else { return "A message has 1 to \(CareMessage.maximumBodyLength) characters." }
                if let name = message.authorName, !CareMessage.isText(name, maximum: CareMessage.maximumAuthorNameLength) {
                    return "An author's name has 1 to \(CareMessage.maximumAuthorNameLength) characters."
                }
            }
            if let item = entry.thread.triageItem {
                guard triageItems.contains(where: { $0.id == item }) else { return "A thread answers an item of the same import only." }
                // An item has one thread of each audience (what a reply to it goes into).
                guard answered.insert("\(item) \(entry.thread.audience.rawValue)").inserted else {
                    return "An item has one thread of each audience."
                }
            }
        }
        let open = triageItems.filter(\.isOpen)
        guard open.count <= CareTriageItem.maximumOpenPerRecord,
              // What a record keeps: its newest resolved items, and each cause's last (one per rule of a task).
              triageItems.count - open.count <= CareTriageItem.maximumResolvedPerRecord + CareTriageItem.maximumOpenPerRecord else {
            return "A record has at most \(CareTriageItem.maximumOpenPerRecord) open and \(CareTriageItem.maximumResolvedPerRecord) resolved items."
        }
        guard Set(open.map(\.alert.cause)).count == open.count else { return "A record has one open item per cause." }
        guard Set(triageItems.map(\.id)).count == triageItems.count, Set(threads.map(\.thread.id)).count == threads.count else {
            return "Two items or threads have the same id."
        }
        for item in triageItems {
            guard item.alert.isWithinBounds else { return "An alert is beyond what the directory keeps." }
            if let note = item.resolutionNote, note.count > CareTriageItem.maximumNoteLength || note.unicodeScalars.contains("\u{0}") {
                return "A resolution note has at most \(CareTriageItem.maximumNoteLength) characters."
            }
        }
        return nil
    }
}

/// A thread as one reader sees it in a list: with how many messages they have not read.
public struct CareThreadListing: Sendable, Hashable {
    /// The thread.
    public var thread: CareThread
    /// How many messages of others the reader has not read: those after the last one they read. Their own never count.
    public var unread: Int

    /// A thread with the reader's unread count.
    public init(thread: CareThread, unread: Int) {
        self.thread = thread
        self.unread = unread
    }
}

/// How far a member has read a thread, and when: "Seen by Dr. Lee at 10:04".
public struct CareThreadRead: Sendable, Hashable {
    /// The member.
    public var account: CareAccountID
    /// The position of the newest message they have read.
    public var readThrough: Int
    /// When they read it.
    public var readDate: Date

    /// How far `account` has read a thread (a message's position), and when.
    public init(account: CareAccountID, readThrough: Int, readDate: Date) {
        self.account = account
        self.readThrough = readThrough
        self.readDate = readDate
    }
}

/// What a new thread starts with.
public struct CareThreadDraft: Sendable, Hashable {
    /// The record to start the thread in.
    public var record: CareRecordID
    /// Who the thread is for; the author's role in the record must be one its audience includes.
    public var audience: CareThread.Audience
    /// The thread's subject; trimmed, it has 1 to `CareThread.maximumSubjectLength` characters.
    public var subject: String
    /// The triage item it answers: a thread of the same audience for the item is reused.
    public var triageItem: RandomIdentifier?
    /// The first message: 1 to `CareMessage.maximumBodyLength` characters, not only white space.
    public var body: String

    /// A new thread's record, audience, subject and first message; by default it answers no triage item.
    public init(record: CareRecordID, audience: CareThread.Audience, subject: String, triageItem: RandomIdentifier? = nil, body: String) {
        self.record = record
        self.audience = audience
        self.subject = subject
        self.triageItem = triageItem
        self.body = body
    }
}

extension CareDirectoryError {
    /// The refusal of a message beyond `CareMessage.maximumPerMinutePerPerson`.
    public static let tooManyMessages = CareDirectoryError(.conflict, """
        A person sends at most \(CareMessage.maximumPerMinutePerPerson) messages a minute: wait a moment and send it again.
        """)
    /// The refusal of a message that is empty, only white space, longer than `CareMessage.maximumBodyLength`, or holds
    /// a NUL.
    public static let messageLength = CareDirectoryError(.conflict, "A message has 1 to \(CareMessage.maximumBodyLength) characters.")
    /// The refusal of a subject that is empty once trimmed, longer than `CareThread.maximumSubjectLength`, or holds a
    /// NUL.
    public static let subjectLength = CareDirectoryError(.conflict, "A subject has 1 to \(CareThread.maximumSubjectLength) characters.")
    /// The refusal of a new thread in a record that has `CareThread.maximumPerRecord` threads.
    public static let tooManyThreads = CareDirectoryError(.conflict, """
        A record has at most \(CareThread.maximumPerRecord) threads: reply in one of them.
        """)
    /// The refusal of a message in a record that keeps `CareMessage.maximumPerRecord` messages already.
    public static let recordFullOfMessages = CareDirectoryError(.conflict, """
        A record keeps at most \(CareMessage.maximumPerRecord) messages, and this one has them all: export the record and start a new one.
        """)
    /// A thread the person may not see, or that does not exist (the same answer for both).
    public static let noSuchThread = CareDirectoryError(.notFound, "There is no such thread.")
}
