import Foundation
import GRDBSQLite

/// The SQLite file of an on-disk store: where it lives, how it is created, and how an existing file is recognised
/// before anything writes to it.
enum StoreFile {
    /// `PRAGMA application_id` of every OpenCareKit store ("OCKS").
    static let applicationID: Int32 = 0x4F43_4B53

    /// The directory stores live in when the caller does not choose one: `$OPENCAREKIT_DATA_DIR`, else
    /// `$XDG_DATA_HOME/opencarekit`, else `~/.local/share/opencarekit`.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let configured = environment["OPENCAREKIT_DATA_DIR"], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        if let dataHome = environment["XDG_DATA_HOME"], !dataHome.isEmpty {
            return URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent("opencarekit")
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share/opencarekit", isDirectory: true)
    }

    /// The file for a store name: `<directory>/<name>.sqlite`. Names are limited to letters, digits, `.`, `_` and
    /// `-` so a name cannot point outside the directory.
    static func url(name: String, directory: URL) throws(OCKStoreError) -> URL {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-"))
        guard !name.isEmpty, name.count <= 200, !name.hasPrefix("."),
              name.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            throw .invalidValue(reason: "A store name must be 1 to 200 letters, digits, '.', '_' or '-' and not start with '.'")
        }
        return directory.appendingPathComponent("\(name).sqlite")
    }

    /// What is at a path before a store opens it.
    enum State: Equatable {
        case absent
        /// An OpenCareKit store; `schemaVersion` is its `PRAGMA user_version`.
        case store(schemaVersion: Int)
    }

    /// Reads the SQLite header of an existing file without opening it as a database, so nothing is written to a
    /// file that turns out not to be a store.
    static func inspect(_ url: URL) throws(OCKStoreError) -> State {
        guard FileManager.default.fileExists(atPath: url.path) else { return .absent }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw .fetchFailed(reason: "The store file cannot be read (check its permissions)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if header.isEmpty { return .absent }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw .invalidValue(reason: "The file is not an OpenCareKit store (not an SQLite database)")
        }
        func integer(at offset: Int) -> Int32 {
            header[offset..<(offset + 4)].reduce(0) { ($0 << 8) | Int32($1) }
        }
        guard integer(at: 68) == applicationID else {
            throw .invalidValue(reason: "The file is an SQLite database but not an OpenCareKit store")
        }
        return .store(schemaVersion: Int(integer(at: 60)))
    }

    /// Creates an empty store file readable and writable only by its owner (mode 0600) in a directory only the
    /// owner can enter (0700 when it is created here), and stamps it as an OpenCareKit store before WAL mode is
    /// turned on, so the stamp is in the main file from the start. SQLite gives the -wal and -shm files the same
    /// mode as the database.
    static func create(_ url: URL) throws(OCKStoreError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .addFailed(reason: "Cannot create the store directory")
        }
        let descriptor = open(url.path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .addFailed(reason: "Cannot create the store file (errno \(errno))")
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        guard sqlite3_open_v2(url.path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
              sqlite3_exec(database, "PRAGMA application_id = \(applicationID);",
                           nil, nil, nil) == SQLITE_OK else {
            try? FileManager.default.removeItem(at: url)
            throw .addFailed(reason: "Cannot initialise the store file")
        }
    }

    /// The database file and its companions.
    static func allFiles(of url: URL) -> [URL] {
        ["", "-wal", "-shm"].map { URL(fileURLWithPath: url.path + $0) }
    }
}
