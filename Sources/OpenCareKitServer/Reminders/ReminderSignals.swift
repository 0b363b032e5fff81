import Crypto
import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// What the host's routes tell the reminder service, and what it tells open pages: the records whose reminders must
/// be read again (their store or someone's settings changed), and each person's live reminder streams.
final class ReminderSignals: Sendable {
    private let changedRecords = Mutex<Set<CareRecordID>>([])
    private let listeners = Mutex<[CareAccountID: [UUID: AsyncStream<ReminderMessage>.Continuation]]>([:])

    /// Marks `record` to be read again before the next reminders are found.
    func changed(_ record: CareRecordID) {
        _ = changedRecords.withLock { $0.insert(record) }
    }

    /// The records marked since the last call.
    func takeChanged() -> Set<CareRecordID> {
        changedRecords.withLock { changed in
            defer { changed.removeAll() }
            return changed
        }
    }

    /// The reminders of `account` from now on, for one open page, until the stream is dropped (a slow page keeps the
    /// newest 8).
    func listen(_ account: CareAccountID) -> AsyncStream<ReminderMessage> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ReminderMessage>.makeStream(bufferingPolicy: .bufferingNewest(8))
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { listeners in
                listeners[account]?[id] = nil
                if listeners[account]?.isEmpty == true { listeners[account] = nil }
            }
        }
        listeners.withLock { $0[account, default: [:]][id] = continuation }
        return stream
    }

    /// Sends `message` to the open pages of `account`; whether any page is open.
    func show(_ message: ReminderMessage, to account: CareAccountID) -> Bool {
        let pages = listeners.withLock { $0[account].map { Array($0.values) } ?? [] }
        for page in pages { page.yield(message) }
        return !pages.isEmpty
    }
}

extension CareHost {
    /// The server's VAPID identity for Web Push.
    func vapid() async throws -> WebPush.VAPID {
        let contact = configuration.reminders?.contact ?? "mailto:admin@localhost"
        return WebPush.VAPID(key: try await vapidKey.value(in: directory, now: configuration.now()), subject: contact)
    }

    /// The service that sends this host's reminders (add it to the application's services; one app server of a
    /// database runs it).
    public func reminderService(transport: any PushTransport = HTTPPushTransport()) -> ReminderService {
        ReminderService(host: self, transport: transport, logger: configuration.logger)
    }
}
