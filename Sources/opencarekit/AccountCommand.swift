import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import OpenCareKitDirectory
import OpenCareKitServer
import OpenCareKitStore

/// `opencarekit account …`: the people who sign in.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Add the people who sign in.", subcommands: [AccountAdd.self])
}

struct AccountAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an account. The password is read from standard input (never an argument, which other users of the machine can see).")
    @OptionGroup var options: DataOptions
    @Argument(help: "The email address the person signs in with.") var email: String
    @Option(help: "The name the care team sees.") var name: String

    func run() async throws {
        guard let email = CareAccount.normalizedEmail(email) else { throw ValidationError("EMAIL: not an email address") }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else { throw ValidationError("--name: from 1 to 200 characters") }
        let password = Self.readPassword()
        if let problem = Passwords.problem(with: password) { throw ValidationError(problem) }
        let hash = try await Passwords.hash(password, cost: 12)
        let account = CareAccount(email: email, name: name, passwordHash: hash, createdDate: Date())
        try await options.withData { data in
            do {
                try await data.directory.addAccount(account)
            } catch let error as CareDirectoryError where error.kind == .emailTaken {
                throw ValidationError("an account with that email address exists already")
            }
            try await data.audit(record: nil, resource: "account", .create, command: "account add (account \(account.id))")
        }
        print("Added the account \(email).")
    }

    /// A line from standard input: typed without echo at a terminal, else read as is (a pipe).
    static func readPassword() -> String {
        if isatty(0) == 1 {
            FileHandle.standardError.write(Data("Password: ".utf8))
            var settings = termios()
            tcgetattr(0, &settings)
            var silent = settings
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &silent)
            defer {
                tcsetattr(0, TCSANOW, &settings)
                FileHandle.standardError.write(Data("\n".utf8))
            }
            return readLine(strippingNewline: true) ?? ""
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
