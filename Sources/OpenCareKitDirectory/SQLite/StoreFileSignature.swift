import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file and write-ahead log of a store as `stat` sees them: inode, size and modification time.
package struct StoreFileSignature: Hashable, Sendable {
    package struct Stamp: Hashable, Sendable {
        package var inode: UInt64
        package var size: Int64
        package var seconds: Int
        package var nanoseconds: Int

        package var modified: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

        package init(inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int) {
            self.inode = inode
            self.size = size
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }
    }

    package var database: Stamp?
    package var log: Stamp?

    /// The signature of the store file at `path` (and its `-wal`), without opening it.
    package init(path: String) {
        database = Self.stamp(path)
        // An empty log holds nothing: the same as none (a reader may create it, a writer's checkpoint may empty it,
        // and either way the data is all in the database file, whose stamp tells).
        log = Self.stamp(path + "-wal").flatMap { $0.size == 0 ? nil : $0 }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Stamp(inode: UInt64(status.st_ino), size: Int64(status.st_size), seconds: Int(status.st_mtim.tv_sec),
                     nanoseconds: Int(status.st_mtim.tv_nsec))
    }

    /// The newest modification time, in seconds since 1970.
    package var lastModified: Double { max(database?.modified ?? 0, log?.modified ?? 0) }

    /// The file's revision: both stamps; nil without a database file.
    package var revision: CareRecordRevision? {
        guard let database else { return nil }
        func numbers(_ stamp: Stamp?) -> [Int64] {
            guard let stamp else { return [0, 0, 0, 0] }
            return [Int64(bitPattern: stamp.inode), stamp.size, Int64(stamp.seconds), Int64(stamp.nanoseconds)]
        }
        return CareRecordRevision(stamp: numbers(database) + numbers(log), lastModified: lastModified)
    }
}
