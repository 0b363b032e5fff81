import ArgumentParser
import Foundation
import OpenCareKitDirectory
import OpenCareKitRemote
import OpenCareKitStore

/// `opencarekit sync`: a store file synchronizes with a care record on a server, as a CareKit app's store would.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Synchronize a store file with a care record on an OpenCareKit server (CareKit's remote sync over HTTP).",
        discussion: """
            The access token (made in the account page, for the record, with the scope patient/*.rsu or wider) is read \
            from $OPENCAREKIT_TOKEN, else from standard input — never an argument, which other users of the machine can see.
            """)

    @Option(help: "The store file, ending in .sqlite (made if absent).")
    var store: String

    @Option(help: "The server's address, such as https://care.example.org.")
    var server: String

    @Option(help: "The care record's id (in the address of its pages: /records/ID/care).")
    var record: String

    func run() async throws {
        guard let address = URL(string: server), ["http", "https"].contains(address.scheme?.lowercased()), address.host != nil else {
            throw ValidationError("--server: not an http or https address")
        }
        guard CareRecordID(record) != nil else { throw ValidationError("--record: not a record id") }
        let file = URL(fileURLWithPath: store)
        guard file.pathExtension == "sqlite" else { throw ValidationError("--store: the file name must end in .sqlite") }
        let token = (ProcessInfo.processInfo.environment["OPENCAREKIT_TOKEN"] ?? readLine(strippingNewline: true) ?? "")
            .trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { throw ValidationError("No access token: set OPENCAREKIT_TOKEN or give it on standard input") }
        let remote = OCKHTTPRemote(server: address, record: record, token: token)
        let store = OCKStore(name: file.deletingPathExtension().lastPathComponent, type: .onDisk(),
                             directory: file.deletingLastPathComponent(), remote: remote)
        try store.open()
        try await store.synchronize()
        let tasks = try await store.fetchTasks(query: OCKTaskQuery()).count
        let outcomes = try await store.fetchOutcomes(query: OCKOutcomeQuery()).count
        print("Synchronized \(file.path) with record \(record): \(tasks) task versions, \(outcomes) outcome versions.")
    }
}
