import Crypto
import Foundation
import OpenCareKitDirectory
import OpenCareKitStore

/// What a backup holds: every file, with its size and SHA-256, so that a damaged or incomplete backup is refused.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// The `format` every manifest holds, `opencarekit-backup`; a manifest with another is refused.
    public static let formatName = "opencarekit-backup"
    /// The manifest version this build writes (1); a backup of a later version is refused, as made by a newer
    /// OpenCareKit.
    public static let currentVersion = 1

    /// `opencarekit-backup`.
    public var format: String
    /// The manifest's version (1).
    public var version: Int
    /// When the backup began.
    public var created: Date
    /// The records the backed-up directory lists.
    public var records: Int
    /// Every file of the backup but the manifest, by its path inside the backup (and the data directory).
    public var files: [File]

    /// One file of a backup, as the manifest lists it and `DataBackup.verify(_:)` checks it.
    public struct File: Codable, Sendable, Equatable {
        /// The file's path inside the backup and the data directory: `directory.sqlite`, or a record's store such
        /// as `records/{id}.sqlite`.
        public var path: String
        /// The file's size in bytes.
        public var bytes: Int
        /// The SHA-256 of the file's bytes, in lowercase hexadecimal.
        public var sha256: String
    }
}

/// A data directory's backup was refused, or could not be made or restored; the message says which file and why,
/// never what is in it.
public struct BackupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Online backups of a data directory (`opencarekit backup` and `restore`).
///
/// A backup is a folder: `directory.sqlite`, each record's store (`records/{id}.sqlite`) and `manifest.json`. Each
/// file is a consistent snapshot taken with SQLite's `VACUUM INTO` while the server goes on reading and writing, taken
/// after the backup began, so it holds every write acknowledged before then. The records are copied first and the
/// directory last: a record created during the backup may be listed without its data (its writes came after the
/// backup began), one deleted during it is left out.
public enum DataBackup {
    /// The manifest's file name at the top of a backup folder. It is written last, so a backup without it was cut
    /// short, and is refused.
    public static let manifestName = "manifest.json"
    static let directoryName = "directory.sqlite"

    /// Backs up `data` into `destination`, a folder that must not exist or be empty.
    public static func backUp(_ data: CareDataDirectory, to destination: URL, now: Date = Date()) throws -> BackupManifest {
        let files = FileManager.default
        let live = data.url.appending(path: directoryName)
        guard files.fileExists(atPath: live.path) else {
            throw BackupError("\(data.url.path) has no \(directoryName): it is not a data directory")
        }
        try requireEmpty(destination, option: "--to")
        try makeFolder(destination)
        var copied: [String: BackupManifest.File] = [:]
        // The records the directory lists now, each copied once this moment has passed.
        for storeName in try SQLCareDirectory.storeNames(inFileAt: live).values.sorted() {
            let path = storeName + ".sqlite"
            let (folder, name) = try data.location(ofStore: storeName)
            let source = folder.appending(path: name + ".sqlite")
            // A record whose store was never written has no file yet.
            guard files.fileExists(atPath: source.path) else { continue }
            let target = destination.appending(path: path)
            try makeFolder(target.deletingLastPathComponent())
            copied[path] = try copy(source, to: target, as: path)
        }
        let directory = destination.appending(path: directoryName)
        copied[directoryName] = try copy(live, to: directory, as: directoryName)
        // Records deleted while their stores were copied: not in the directory's copy, so not in the backup.
        let listed = try SQLCareDirectory.storeNames(inFileAt: directory)
        let kept = Set(listed.values.map { $0 + ".sqlite" } + [directoryName])
        for path in copied.keys where !kept.contains(path) {
            try files.removeItem(at: destination.appending(path: path))
            copied[path] = nil
        }
        // In whole seconds, as the manifest writes it.
        let created = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let manifest = BackupManifest(format: BackupManifest.formatName, version: BackupManifest.currentVersion, created: created,
                                      records: listed.count, files: copied.values.sorted { $0.path < $1.path })
        // The manifest last: a backup without one was cut short, and is refused.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try write(try encoder.encode(manifest), to: destination.appending(path: manifestName))
        return manifest
    }

    /// The backup's manifest, once every file it lists is there, of its size and checksum, and passes SQLite's
    /// integrity check, and no other file is there.
    public static func verify(_ backup: URL) throws -> BackupManifest {
        let manifestURL = backup.appending(path: manifestName)
        guard let size = try? manifestURL.resourceValues(forKeys: [.fileSizeKey]).fileSize else {
            throw BackupError("\(backup.path) has no \(manifestName): it is not a backup, or the backup was cut short")
        }
        guard size <= 16 << 20, let data = try? Data(contentsOf: manifestURL) else { throw BackupError("\(manifestName): too large") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(BackupManifest.self, from: data), manifest.format == BackupManifest.formatName else {
            throw BackupError("\(manifestName): damaged, or not an OpenCareKit backup's")
        }
        guard manifest.version <= BackupManifest.currentVersion else {
            throw BackupError("\(manifestName): made by a newer OpenCareKit (version \(manifest.version)); update OpenCareKit to restore it")
        }
        guard manifest.files.contains(where: { $0.path == directoryName }) else { throw BackupError("\(manifestName): lists no \(directoryName)") }
        let listed = Set(manifest.files.map(\.path))
        guard listed.count == manifest.files.count else { throw BackupError("\(manifestName): lists a file twice") }
        for file in manifest.files {
            guard isInside(file.path) else { throw BackupError("\(manifestName): \(file.path) is not a path inside the backup") }
            try check(backup.appending(path: file.path), against: file)
        }
        let present = Set(try regularFiles(in: backup).filter { $0 != manifestName })
        if let extra = present.subtracting(listed).sorted().first {
            throw BackupError("\(extra): not in the manifest (a file added to the backup)")
        }
        return manifest
    }

    /// Restores the backup at `backup` into `data`, a data directory that must not exist or be empty. The backup is
    /// verified first (`verify`), then copied beside the target and moved into place, so a failure leaves nothing half
    /// restored.
    public static func restore(from backup: URL, into data: CareDataDirectory) throws -> BackupManifest {
        let manifest = try verify(backup)
        try requireEmpty(data.url, option: "--data")
        let files = FileManager.default
        let parent = data.url.deletingLastPathComponent()
        try files.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appending(path: ".\(data.url.lastPathComponent).restoring-\(UUID().uuidString.prefix(8))")
        do {
            try makeFolder(staging)
            for file in manifest.files {
                let target = staging.appending(path: file.path)
                try makeFolder(target.deletingLastPathComponent())
                try files.copyItem(at: backup.appending(path: file.path), to: target)
                try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
                // The copy as read back from the disk it was written to.
                try check(target, against: file)
            }
            if files.fileExists(atPath: data.url.path) { try files.removeItem(at: data.url) }
            try files.moveItem(at: staging, to: data.url)
        } catch {
            try? files.removeItem(at: staging)
            throw error
        }
        return manifest
    }

    // MARK: - Files

    /// Copies the SQLite file `source` to `target` as a consistent snapshot, checks it, and describes it.
    private static func copy(_ source: URL, to target: URL, as path: String) throws -> BackupManifest.File {
        do {
            try SQLiteFileCopy.copy(from: source, to: target)
        } catch let error as SQLiteFileCopyError {
            throw BackupError("\(path): cannot be copied (\(error.reason))")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        let check = (try? SQLiteFileCopy.integrityCheck(of: target)) ?? ["cannot be read"]
        guard check == ["ok"] else { throw BackupError("\(path): its copy fails SQLite's integrity check (\(check.first ?? ""))") }
        let (bytes, digest) = try sha256(of: target)
        return BackupManifest.File(path: path, bytes: bytes, sha256: digest)
    }

    /// Checks that `url` is `file`: its size, its checksum, and SQLite's integrity check.
    private static func check(_ url: URL, against file: BackupManifest.File) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { throw BackupError("\(file.path): missing from the backup") }
        let (bytes, digest) = try sha256(of: url)
        guard bytes == file.bytes, digest == file.sha256 else {
            throw BackupError("\(file.path): damaged (its checksum is not the manifest's)")
        }
        let check = (try? SQLiteFileCopy.integrityCheck(of: url)) ?? ["cannot be opened as a database"]
        guard check == ["ok"] else { throw BackupError("\(file.path): fails SQLite's integrity check (\(check.first ?? ""))") }
    }

    /// The size and SHA-256 (hex) of the file at `url`, read a megabyte at a time.
    static func sha256(of url: URL) throws -> (bytes: Int, digest: String) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw BackupError("\(url.lastPathComponent): cannot be read") }
        defer { try? handle.close() }
        var hash = SHA256()
        var bytes = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
            bytes += chunk.count
        }
        return (bytes, hash.finalize().hexEncoded)
    }

    /// Paths of the regular files under `folder`, relative to it.
    private static func regularFiles(in folder: URL) throws -> [String] {
        let base = folder.standardizedFileURL.path
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walk.compactMap { item in
            guard let url = item as? URL, (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { return nil }
            return String(url.standardizedFileURL.path.dropFirst(base.count + 1))
        }
    }

    /// Whether `path` names a file inside a folder: relative, with no `.` or `..` part.
    static func isInside(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.hasPrefix("/") && !parts.isEmpty && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// Refuses a folder that holds anything (a backup or a data directory is never written over).
    private static func requireEmpty(_ folder: URL, option: String) throws {
        guard let contents = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            if FileManager.default.fileExists(atPath: folder.path) { throw BackupError("\(option): \(folder.path) is not a folder") }
            return
        }
        guard contents.isEmpty else { throw BackupError("\(option): \(folder.path) is not empty") }
    }

    private static func makeFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private static func write(_ data: Data, to url: URL) throws {
        try data.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
