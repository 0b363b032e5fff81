import ArgumentParser
import Foundation
import OpenCareKitServer
import OpenCareKitStore

/// The data directory option of the commands that work on a server's records, found as `serve` finds it.
struct DataOptions: ParsableArguments {
    @Option(help: "The data directory (default: $OPENCAREKIT_DATA_DIR, else $XDG_DATA_HOME/opencarekit, else ~/.local/share/opencarekit).")
    var data: String?

    var dataDirectory: CareDataDirectory { CareDataDirectory(path: data) }

    func openDirectory() throws -> SQLiteCareDirectory {
        try Self.openDirectory(of: dataDirectory)
    }

    /// The directory of `data`, or an error in one line.
    static func openDirectory(of data: CareDataDirectory) throws -> SQLiteCareDirectory {
        do {
            return try data.openDirectory()
        } catch {
            throw ValidationError("cannot open the data directory: \((error as? CareDirectoryError)?.reason ?? "it is not a folder this process can write")")
        }
    }

    /// The account with `email`, or a clear error.
    func account(_ email: String, in directory: any CareDirectory) async throws -> CareAccount {
        guard let account = try await directory.account(email: email) else {
            throw ValidationError("there is no account with that email address (add it with: opencarekit account add EMAIL --name NAME)")
        }
        return account
    }
}
