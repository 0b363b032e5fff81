import Foundation
import OpenCareKitStore

/// A server's data directory: the directory file (`directory.sqlite`) and the records' stores
/// (`records/{id}.sqlite`). `serve` and the `account`, `record` and `audit` commands find it the same way.
///
/// It is the `CareRecordStores` of a server on SQLite: one store file per record, which a record's `storeName`
/// names; a name that would lead outside the data directory is refused with a `storage` error.
///
/// For example:
/// ```swift
/// let data = CareDataDirectory(path: "/var/lib/opencarekit")
/// let directory = try data.openDirectory()
/// if let record = try await directory.record(recordID) {
///     let store = try data.store(for: record)
///     let tasks = try await store.fetchTasks(query: OCKTaskQuery())
/// }
/// ```
public struct CareDataDirectory: CareRecordStores {
    /// The data directory's folder, which holds `directory.sqlite` and the `records` folder.
    public let url: URL

    /// The directory at `path`, or the default one (`OCKStore.defaultDirectory`).
    public init(path: String?) {
        url = path.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? OCKStore.defaultDirectory
    }

    /// The store file of the one record of a data directory from before records existed.
    public var legacyStoreFile: URL { url.appending(path: "opencarekit.sqlite") }

    /// Opens (creating if needed) the directory file.
    public func openDirectory() throws -> SQLiteCareDirectory {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return try SQLiteCareDirectory(path: url.appending(path: "directory.sqlite").path)
    }

    /// The store of `record`: `records/{id}.sqlite`, or the adopted file its `storeName` names.
    public func store(for record: CareRecord) throws -> OCKStore {
        let (folder, name) = try location(of: record)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return OCKStore(name: name, type: .onDisk(), directory: folder)
    }

    /// A store that only reads `record`'s existing file and writes nothing to it (`OCKStore.reading`).
    public func readingStore(for record: CareRecord) throws -> OCKStore {
        let (folder, name) = try location(of: record)
        return OCKStore.reading(name: name, directory: folder)
    }

    /// The read-only store of `record`'s file, opened; a file of an older schema is opened for writing once, which
    /// upgrades it.
    public func openReadingStore(for record: CareRecord) throws -> OCKStore {
        let reader = try readingStore(for: record)
        do {
            try reader.open()
            return reader
        } catch {
            let store = try store(for: record)
            try store.open()
            return store
        }
    }

    /// The stamps of `record`'s file and write-ahead log (any process's commit changes one of them); nil while the
    /// file does not exist.
    public func revision(of record: CareRecord) async throws -> CareRecordRevision? {
        StoreFileSignature(path: try storeFile(for: record)).revision
    }

    /// The path of `record`'s store file, which may not exist yet.
    public func storeFile(for record: CareRecord) throws -> String {
        let (folder, name) = try location(of: record)
        return folder.appending(path: name + ".sqlite").path
    }

    private func location(of record: CareRecord) throws -> (folder: URL, name: String) {
        try location(ofStore: record.storeName)
    }

    /// The folder and file name (without `.sqlite`) of the store a record's `storeName` names, inside the data
    /// directory; a name that would lead outside it is refused.
    package func location(ofStore storeName: String) throws -> (folder: URL, name: String) {
        let parts = storeName.split(separator: "/").map(String.init)
        guard let name = parts.last, !parts.contains(".."), !parts.contains("."), !storeName.hasPrefix("/") else {
            throw CareDirectoryError(.storage, "The record's store name is not a path inside the data directory.")
        }
        return (parts.dropLast().reduce(url) { $0.appending(path: $1, directoryHint: .isDirectory) }, name)
    }
}
