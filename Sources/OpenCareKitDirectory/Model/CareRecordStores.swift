import Foundation
import OpenCareKitStore

/// Where a server's care records keep their stores: one SQLite file per record in a data directory, or one shared
/// PostgreSQL database (`PostgresCareRecords`). The server, the clinicians' summaries and the command line work
/// through this alone, so they do not know which engine is behind a record.
public protocol CareRecordStores: Sendable {
    /// The store of `record`, for reading and writing; its data is created by its first write.
    func store(for record: CareRecord) throws -> OCKStore

    /// An open store that reads `record` and leaves its data as it is (a store of an older schema may be upgraded
    /// once). Only called for a record whose `revision(of:)` is not nil.
    func openReadingStore(for record: CareRecord) throws -> OCKStore

    /// A value that changes with every commit to `record`'s store by any process or server, read without opening
    /// the store; nil while nothing was ever written to it.
    func revision(of record: CareRecord) async throws -> CareRecordRevision?
}

/// One state of a record's store as `CareRecordStores.revision(of:)` sees it: equal revisions mean the same data.
public struct CareRecordRevision: Hashable, Sendable {
    /// What identifies the state (a commit count, or file stamps).
    public var stamp: [Int64]
    /// For a revision read from file times, which are only as fine as the kernel's clock tick: the newest of them
    /// (seconds since 1970). A write in the same tick could leave the stamp unchanged, so a revision this recent
    /// when it was read is not trusted to stay unchanged. nil for a revision that counts every commit.
    public var lastModified: Double?

    /// A revision with its `stamp`, and for one read from file times, the newest of them (seconds since 1970).
    public init(stamp: [Int64], lastModified: Double? = nil) {
        self.stamp = stamp
        self.lastModified = lastModified
    }
}
