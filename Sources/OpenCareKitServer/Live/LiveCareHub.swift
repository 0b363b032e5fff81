import Foundation
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI

/// What an open Care page needs after a change: every card of its day and the week calendar, rendered once for all
/// pages showing the same day in the same language. Forms carry an empty CSRF field that the page's script fills
/// with its own token.
struct CareUpdate: Codable, Sendable, Equatable {
    struct Card: Codable, Sendable, Equatable {
        let id: String
        let html: String
    }

    let cards: [Card]
    let calendar: String
    let notice: String?

    /// The update as one server-sent event.
    var serverSentEvent: String {
        let json = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: update\ndata: \(json)\n\n"
    }
}

/// Shares one live query and one rendering per day and language among every open page, so a change costs one fetch
/// and one render per day shown, however many pages show it.
actor LiveCareHub {
    struct Key: Hashable, Sendable {
        let day: String
        let language: OCKLanguage
        /// Today's date when the channel started: after midnight the same day renders differently (no longer
        /// read-only, a new "today"), so it gets a new channel.
        let today: String
    }

    /// At most this many days and languages are followed at once; more subscriptions are refused.
    static let channelLimit = 256

    private final class Channel {
        var latest: CareUpdate?
        var subscribers: [UUID: AsyncStream<CareUpdate>.Continuation] = [:]
        var task: Task<Void, Never>?
    }

    private var channels: [Key: Channel] = [:]

    /// The updates for `key`: the current state first, then each change. `source` yields a new state whenever
    /// the store's data for the day changes; it runs while anyone listens.
    func subscribe(_ key: Key, source: @escaping @Sendable () -> AsyncThrowingStream<CareUpdate, any Error>) -> AsyncStream<CareUpdate>? {
        guard channels[key] != nil || channels.count < Self.channelLimit else { return nil }
        let id = UUID()
        let (stream, continuation) = AsyncStream<CareUpdate>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let channel = channels[key] ?? {
            let channel = Channel()
            channels[key] = channel
            let identity = ObjectIdentifier(channel)
            channel.task = Task { [weak self] in
                do {
                    for try await update in source() { await self?.publish(update, to: key, channel: identity) }
                } catch {
                    // The store failed (it was deleted, or its file went away): pages reconnect and try again.
                }
                await self?.close(key, channel: identity)
            }
            return channel
        }()
        channel.subscribers[id] = continuation
        if let latest = channel.latest { continuation.yield(latest) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id, from: key) }
        }
        return stream
    }

    /// How many pages listen, per day and language (for tests and the benchmark).
    var subscriberCounts: [Key: Int] { channels.mapValues(\.subscribers.count) }

    private func publish(_ update: CareUpdate, to key: Key, channel identity: ObjectIdentifier) {
        guard let channel = channels[key], ObjectIdentifier(channel) == identity, channel.latest != update else { return }
        channel.latest = update
        for continuation in channel.subscribers.values { continuation.yield(update) }
    }

    private func unsubscribe(_ id: UUID, from key: Key) {
        guard let channel = channels[key] else { return }
        channel.subscribers[id] = nil
        if channel.subscribers.isEmpty {
            channel.task?.cancel()
            channels[key] = nil
        }
    }

    /// Ends a channel whose source ended, unless a newer channel has taken its key meanwhile.
    private func close(_ key: Key, channel identity: ObjectIdentifier) {
        guard let current = channels[key], ObjectIdentifier(current) == identity, let channel = channels.removeValue(forKey: key) else {
            return
        }
        for continuation in channel.subscribers.values { continuation.finish() }
    }
}
