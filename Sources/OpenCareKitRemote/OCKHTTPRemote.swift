import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenCareKitStore
import Synchronization

/// A remote that is an OpenCareKit server's care record: `OCKStore(name:type:remote:)` with one syncs the store with
/// the record in one call to `synchronize()`.
///
/// It speaks the server's sync API (`POST /records/{record}/api/v1/sync/pull` and `…/push`, in the OpenAPI document)
/// with an access token bound to the record (`Authorization: Bearer`; its scope must allow `patient/*.rs` to pull and
/// `patient/*.u` to push). Pulls page through the record (one page in memory at a time); pushes larger than
/// `pushPartSize` go in parts, and only the last tells the server the device's knowledge, so a push cut off halfway
/// loses nothing.
public final class OCKHTTPRemote: OCKAsyncRemoteSynchronizable {
    /// The server's address (`https://care.example.org`).
    public let server: URL
    /// The care record's id.
    public let record: String
    public let automaticallySynchronizes: Bool
    /// Versions per pulled page.
    public let pageSize: Int
    /// The largest push body sent at once, in bytes (the server takes up to 8 MiB).
    public let pushPartSize: Int

    private let token: String
    private let session: URLSession
    private let delegateBox = Mutex<WeakDelegate>(WeakDelegate())

    private struct WeakDelegate {
        weak var value: (any OCKRemoteSynchronizationDelegate)?
    }

    /// A remote that syncs with record `record` on `server`, authorized by `token`. Nothing is sent until the
    /// store synchronizes.
    ///
    /// For example:
    /// ```swift
    /// let remote = OCKHTTPRemote(server: URL(string: "https://care.example.org")!, record: recordID, token: token)
    /// let store = OCKStore(name: "care", type: .onDisk(), remote: remote)
    /// try await store.synchronize()
    /// ```
    ///
    /// Every failure of a pull or a push (the server unreachable, an answer other than 2xx, with the server's
    /// message, or a page that cannot be read) reaches the store as `OCKStoreError.remoteSynchronizationFailed`.
    ///
    /// - Parameters:
    ///   - server: The server's address, such as `https://care.example.org`; the sync API's paths are added to it.
    ///   - record: The care record's id on the server.
    ///   - token: An access token bound to the record, sent as `Authorization: Bearer`: its scope allows
    ///     `patient/*.rs` to pull and `patient/*.u` to push.
    ///   - automaticallySynchronizes: Whether the store synchronizes by itself after each of its writes, dropping a
    ///     failure (false by default: the app calls `synchronize()`).
    ///   - pageSize: The most versions asked for per pulled page (the pull's `limit`): 1,000 by default.
    ///   - pushPartSize: The most bytes of revisions' JSON per push request: 4 MiB by default (the server takes
    ///     bodies up to 8 MiB). A revision larger than this is split by its entities; an entity larger still goes
    ///     alone.
    ///   - session: The URL session requests go through (`URLSession.shared` by default).
    public init(server: URL, record: String, token: String, automaticallySynchronizes: Bool = false, pageSize: Int = 1_000,
                pushPartSize: Int = 4 * 1024 * 1024, session: URLSession = .shared) {
        self.server = server
        self.record = record
        self.token = token
        self.automaticallySynchronizes = automaticallySynchronizes
        self.pageSize = pageSize
        self.pushPartSize = pushPartSize
        self.session = session
    }

    public var delegate: (any OCKRemoteSynchronizationDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set { delegateBox.withLock { $0.value = newValue } }
    }

    private struct Pull: Encodable {
        let knowledgeVector: OCKRevisionRecord.KnowledgeVector
        let after: String?
        let limit: Int
    }

    private struct Push: Encodable {
        let revisions: [OCKRevisionRecord]
        let knowledgeVector: OCKRevisionRecord.KnowledgeVector?
    }

    public func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
                              mergeRevision: @escaping @Sendable (OCKRevisionRecord) async throws -> Void) async throws {
        var cursor: String?
        repeat {
            let data = try await post("pull", Pull(knowledgeVector: knowledgeVector, after: cursor, limit: pageSize))
            let page: OCKRevisionPage
            do {
                page = try JSONDecoder().decode(OCKRevisionPage.self, from: data)
            } catch {
                throw OCKStoreError.remoteSynchronizationFailed(reason: "The server's page of revisions could not be read")
            }
            for revision in page.revisions { try await mergeRevision(revision) }
            if let knowledge = page.knowledge { try await mergeRevision(OCKRevisionRecord(entities: [], knowledgeVector: knowledge)) }
            guard page.next != cursor || page.next == nil else {
                throw OCKStoreError.remoteSynchronizationFailed(reason: "The server sent the same page twice")
            }
            cursor = page.next
        } while cursor != nil
    }

    public func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector) async throws {
        let parts = try Self.parts(of: deviceRevisions, bytes: pushPartSize)
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            _ = try await post("push", Push(revisions: part, knowledgeVector: last ? deviceKnowledge : nil))
        }
    }

    /// The revisions in parts whose JSON stays under `bytes` (a record too large alone is split by its entities, the
    /// parts keeping its vector); always at least one part, so the knowledge is sent.
    static func parts(of revisions: [OCKRevisionRecord], bytes: Int) throws -> [[OCKRevisionRecord]] {
        let encoder = JSONEncoder()
        var parts: [[OCKRevisionRecord]] = [[]]
        var size = 0
        func add(_ record: OCKRevisionRecord, _ length: Int) {
            if size + length > bytes, !parts[parts.count - 1].isEmpty {
                parts.append([])
                size = 0
            }
            parts[parts.count - 1].append(record)
            size += length
        }
        for revision in revisions {
            let length = try encoder.encode(revision).count
            if length <= bytes {
                add(revision, length)
                continue
            }
            var entities: [OCKEntity] = []
            var entitiesSize = 0
            for entity in revision.entities {
                let entityLength = try encoder.encode(entity).count
                if entitiesSize + entityLength > bytes / 2, !entities.isEmpty {
                    add(OCKRevisionRecord(entities: entities, knowledgeVector: revision.knowledgeVector), entitiesSize)
                    (entities, entitiesSize) = ([], 0)
                }
                entities.append(entity)
                entitiesSize += entityLength
            }
            if !entities.isEmpty { add(OCKRevisionRecord(entities: entities, knowledgeVector: revision.knowledgeVector), entitiesSize) }
        }
        return parts
    }

    private struct ServerError: Decodable {
        struct Body: Decodable { let message: String }
        let error: Body
    }

    /// Posts `body` to the record's sync endpoint `name`; the answer's body, or the server's refusal as an error.
    private func post(_ name: String, _ body: some Encodable) async throws -> Data {
        let url = server.appendingPathComponent("records").appendingPathComponent(record)
            .appendingPathComponent("api/v1/sync").appendingPathComponent(name)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONEncoder().encode(body)
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw OCKStoreError.remoteSynchronizationFailed(reason: "The server could not be reached: \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw OCKStoreError.remoteSynchronizationFailed(reason: "The server's answer was not HTTP")
        }
        guard (200..<300).contains(http.statusCode) else {
            let message = (try? JSONDecoder().decode(ServerError.self, from: data))?.error.message ?? "no explanation"
            throw OCKStoreError.remoteSynchronizationFailed(reason: "The server refused the \(name) (\(http.statusCode)): \(message)")
        }
        return data
    }
}
