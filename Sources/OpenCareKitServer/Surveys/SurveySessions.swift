import Crypto
import Foundation
import OpenCareKitDirectory
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
///
/// Finishing goes through `saving`, which keeps the answers until the outcome is known to be in the store: a save
/// that fails, or whose server stops half-way, loses nothing (`CareServer.settle`).
struct SurveySessions: Sendable {
    struct Entry: Sendable {
        var session: OCKSurveySession
        let taskID: String
        let taskUUID: UUID
        let occurrence: Int
        /// The Care page's day, `YYYY-MM-DD`, to go back to.
        let day: String
        /// When its answers began to be saved: the outcome values' creation date.
        var finishedDate: Date?

        /// The outcome's values, the same each time they are worked out for a finished session.
        func outcomeValues() throws -> [OCKOutcomeValue] {
            try session.finish().outcomeValues(createdDate: finishedDate ?? Date(timeIntervalSince1970: 0))
        }

        /// Whether `outcome` holds this session's answers (rather than another browser's or device's): its values
        /// were made when this session finished.
        func isSaved(in outcome: OCKOutcome) -> Bool {
            guard let finishedDate, let values = try? outcomeValues(), values.count == outcome.values.count else { return false }
            return zip(values, outcome.values).allSatisfy {
                $0.kind == $1.kind && abs($1.createdDate.timeIntervalSince(finishedDate)) < 0.001
            }
        }
    }

    /// What became of a session that is no longer open.
    enum Closed: Sendable {
        /// Its answers are being saved.
        case saving
        /// Its answers were saved.
        case finished
        case cancelled
        /// Its answers could not be saved: the event was answered elsewhere meanwhile, or its task changed.
        case discarded
    }

    enum Lookup: Sendable {
        case open(Entry)
        /// Its owner's session whose answers are being saved, or whose saving was cut short.
        case saving(Entry)
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
        var finishedDate: Date?
        var progress: OCKSurveySession.Snapshot

        init(_ entry: Entry) {
            survey = entry.session.survey.id
            taskID = entry.taskID
            taskUUID = entry.taskUUID
            occurrence = entry.occurrence
            day = entry.day
            finishedDate = entry.finishedDate
            progress = entry.session.snapshot
        }
    }

    static func ownerHash(_ owner: String) -> String { SHA256.hash(data: Data(owner.utf8)).hexEncoded }

    /// Opens a session for `owner` (the browser's CSRF token) and returns its id; the browser's open session for the
    /// same event is returned instead (a second "Start survey" continues it, or finds it being saved), unless the app
    /// can no longer resume it (its survey changed since): that one is discarded and a new one opened.
    func open(_ entry: Entry, owner: String, now: Date) async throws -> String {
        let session = CareSurveySession(id: CSRF.newToken(), record: record, ownerHash: Self.ownerHash(owner),
                                        event: "\(entry.taskUUID.uuidString)/\(entry.occurrence)", value: try Self.encode(entry),
                                        expiryDate: now.addingTimeInterval(lifetime))
        for _ in 0..<2 {
            let opened = try await directory.openSurveySession(session, now: now, perOwner: perOwner, perRecord: perRecord)
            guard opened.id != session.id, decode(opened.value) == nil else { return opened.id }
            _ = try await move(opened.id, from: opened.status, to: .discarded, now: now)
        }
        throw CareDirectoryError(.conflict, "A survey for that day could not be started; try again.")
    }

    /// The session `id` if `owner` started it; someone else's open session is as unknown as one that never was. A
    /// session the app can no longer resume (its survey changed since) is unknown too.
    func lookup(_ id: String, owner: String?, now: Date) async throws -> Lookup {
        guard let stored = try await directory.surveySession(id: id, record: record, now: now) else { return .unknown }
        let entry = owner.flatMap { stored.ownerHash == Self.ownerHash($0) ? decode(stored.value) : nil }
        switch stored.status {
        case .open:
            guard let entry else { return .unknown }
            return .open(entry)
        case .saving:
            guard let entry else { return .closed(.saving) }
            return .saving(entry)
        case .finished: return .closed(.finished)
        case .cancelled: return .closed(.cancelled)
        case .discarded: return .closed(.discarded)
        }
    }

    /// Keeps the open session's new state; its life starts again.
    func update(_ id: String, _ entry: Entry, now: Date) async throws {
        _ = try await move(id, from: .open, to: .open, value: try Self.encode(entry), now: now)
    }

    /// Cancels the open session; false if it was not open.
    func cancel(_ id: String, now: Date) async throws -> Bool {
        try await move(id, from: .open, to: .cancelled, now: now)
    }

    /// Starts saving the open session's answers (`entry`, finished), which it keeps until `saved`, `discard` or
    /// `reopen`; false if it was not open: of two submissions racing to finish it, one does.
    func beginSaving(_ id: String, _ entry: Entry, now: Date) async throws -> Bool {
        try await move(id, from: .open, to: .saving, value: try Self.encode(entry), now: now)
    }

    /// Records that the saving session's answers are in the store; it keeps them no longer.
    func saved(_ id: String, now: Date) async throws {
        _ = try await move(id, from: .saving, to: .finished, now: now)
    }

    /// Records that the saving session's answers cannot be saved (the event was answered elsewhere, or its task
    /// changed).
    func discard(_ id: String, now: Date) async throws {
        _ = try await move(id, from: .saving, to: .discarded, now: now)
    }

    /// Reopens a session whose answers were not saved, so the participant can try again.
    func reopen(_ id: String, _ entry: Entry, now: Date) async throws {
        var entry = entry
        entry.finishedDate = nil
        _ = try await move(id, from: .saving, to: .open, value: try Self.encode(entry), now: now)
    }

    /// Moves session `id` from `from` to `to`, its life starting again at `now`; false if it was not in `from`.
    private func move(_ id: String, from: CareSurveySession.Status, to: CareSurveySession.Status, value: Data = Data(),
                      now: Date) async throws -> Bool {
        try await directory.setSurveySession(id: id, record: record, from: from, to: to, value: value,
                                             expiryDate: now.addingTimeInterval(lifetime))
    }

    private static func encode(_ entry: Entry) throws -> Data {
        try JSONEncoder().encode(Stored(entry))
    }

    /// The entry kept in `value`, checked against the survey as the app has it now.
    private func decode(_ value: Data) -> Entry? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: value),
              let survey = survey(stored.survey, stored.taskID),
              let session = try? OCKSurveySession(survey: survey, restoring: stored.progress) else { return nil }
        return Entry(session: session, taskID: stored.taskID, taskUUID: stored.taskUUID, occurrence: stored.occurrence, day: stored.day,
                     finishedDate: stored.finishedDate)
    }
}
