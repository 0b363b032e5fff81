import Crypto
import Foundation
import OpenCareKitStore
import OpenCareKitSurveys

/// A record's surveys in progress: nothing reaches the store before the last step, so a cancelled, abandoned or failed
/// survey saves nothing. They are kept in the directory (`CareSurveySession`), not in a server's memory, so that
/// whichever app server behind the load balancer takes the next step carries the survey on, and a restart loses none.
///
/// A session belongs to the browser that started it (the hash of its CSRF cookie) and has a random id. Finished and
/// cancelled ids are remembered while they would have lived, so a replayed submission is told apart from an unknown
/// one. A session unused for `lifetime` (two hours) is forgotten; a browser has at most `perOwner` open, and a record
/// at most `perRecord` of any kind (the least recently used go first).
struct SurveySessions: Sendable {
    struct Entry: Sendable {
        var session: OCKSurveySession
        let taskID: String
        let taskUUID: UUID
        let occurrence: Int
        /// The Care page's day, `YYYY-MM-DD`, to go back to.
        let day: String
    }

    /// What became of a session that is no longer open.
    enum Closed: Sendable {
        /// Its answers were saved.
        case finished
        case cancelled
        /// Its answers could not be saved: the event was answered elsewhere meanwhile, or its task changed.
        case discarded
    }

    enum Lookup: Sendable {
        case open(Entry)
        case closed(Closed)
        case unknown
    }

    let directory: any CareDirectory
    let record: CareRecordID
    /// The survey with this id that the task with this id runs, if the app still has it.
    let survey: @Sendable (_ surveyID: String, _ taskID: String) -> OCKSurvey?
    var perOwner = 4
    var perRecord = 256
    var lifetime: TimeInterval = 2 * 3600

    /// What the directory keeps of an open session: the survey's id, not the survey, which the app has.
    private struct Stored: Codable {
        var survey: String
        var taskID: String
        var taskUUID: UUID
        var occurrence: Int
        var day: String
        var progress: OCKSurveySession.Snapshot

        init(_ entry: Entry) {
            survey = entry.session.survey.id
            taskID = entry.taskID
            taskUUID = entry.taskUUID
            occurrence = entry.occurrence
            day = entry.day
            progress = entry.session.snapshot
        }
    }

    static func ownerHash(_ owner: String) -> String { SHA256.hash(data: Data(owner.utf8)).hexEncoded }

    /// Opens a session for `owner` (the browser's CSRF token) and returns its id; the browser's open session for the
    /// same event is returned instead (a second "Start survey" continues it).
    func open(_ entry: Entry, owner: String, now: Date) async throws -> String {
        let session = CareSurveySession(id: CSRF.newToken(), record: record, ownerHash: Self.ownerHash(owner),
                                        event: "\(entry.taskUUID.uuidString)/\(entry.occurrence)", value: try Self.encode(entry),
                                        expiryDate: now.addingTimeInterval(lifetime))
        return try await directory.openSurveySession(session, now: now, perOwner: perOwner, perRecord: perRecord).id
    }

    /// The session `id` if `owner` started it; someone else's open session is as unknown as one that never was. A
    /// session the app can no longer resume (its survey changed since) is unknown too.
    func lookup(_ id: String, owner: String?, now: Date) async throws -> Lookup {
        guard let stored = try await directory.surveySession(id: id, record: record, now: now) else { return .unknown }
        switch stored.status {
        case .open:
            guard let owner, stored.ownerHash == Self.ownerHash(owner), let entry = decode(stored.value) else { return .unknown }
            return .open(entry)
        case .finished: return .closed(.finished)
        case .cancelled: return .closed(.cancelled)
        case .discarded: return .closed(.discarded)
        }
    }

    /// Keeps the open session's new state; its life starts again.
    func update(_ id: String, _ entry: Entry, now: Date) async throws {
        _ = try await move(id, from: .open, to: .open, value: try Self.encode(entry), now: now)
    }

    /// Closes the session; false if it was not open: of two submissions racing to finish it, one does.
    func close(_ id: String, as outcome: Closed, now: Date) async throws -> Bool {
        try await move(id, from: .open, to: Self.status(outcome), now: now)
    }

    /// Records that a finished session's answers could not be saved.
    func discard(_ id: String, now: Date) async throws {
        _ = try await move(id, from: .finished, to: .discarded, now: now)
    }

    /// Reopens a session whose finishing failed to save, so the participant can try again.
    func reopen(_ id: String, _ entry: Entry, now: Date) async throws {
        _ = try await move(id, from: .finished, to: .open, value: try Self.encode(entry), now: now)
    }

    /// Moves session `id` from `from` to `to`, its life starting again at `now`; false if it was not in `from`.
    private func move(_ id: String, from: CareSurveySession.Status, to: CareSurveySession.Status, value: Data = Data(),
                      now: Date) async throws -> Bool {
        try await directory.setSurveySession(id: id, record: record, from: from, to: to, value: value,
                                             expiryDate: now.addingTimeInterval(lifetime))
    }

    private static func status(_ closed: Closed) -> CareSurveySession.Status {
        switch closed {
        case .finished: .finished
        case .cancelled: .cancelled
        case .discarded: .discarded
        }
    }

    private static func encode(_ entry: Entry) throws -> Data {
        try JSONEncoder().encode(Stored(entry))
    }

    /// The entry kept in `value`, checked against the survey as the app has it now.
    private func decode(_ value: Data) -> Entry? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: value),
              let survey = survey(stored.survey, stored.taskID),
              let session = try? OCKSurveySession(survey: survey, restoring: stored.progress) else { return nil }
        return Entry(session: session, taskID: stored.taskID, taskUUID: stored.taskUUID, occurrence: stored.occurrence, day: stored.day)
    }
}
