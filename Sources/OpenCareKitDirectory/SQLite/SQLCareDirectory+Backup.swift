import Foundation
import GRDB
import OpenCareKitStore

extension SQLCareDirectory {
    /// The store names of the records in the directory file at `url` (a backup's copy), read without writing to it.
    public static func storeNames(inFileAt url: URL) throws -> [CareRecordID: String] {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, store_name FROM record") }
            var names: [CareRecordID: String] = [:]
            for row in rows {
                guard let id = CareRecordID(row["id"] as String) else { throw SQLiteFileCopyError(file: url.lastPathComponent, reason: "a record's id is damaged") }
                names[id] = row["store_name"]
            }
            return names
        } catch let error as DatabaseError {
            throw SQLiteFileCopyError(file: url.lastPathComponent, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }
}
