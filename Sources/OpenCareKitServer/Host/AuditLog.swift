import Foundation
import OpenCareKitDirectory
import OpenCareKitStore

/// Appends to the directory's audit log with group commit: a request waits until its entry is written, and every
/// entry that arrives while a write is under way goes into the next one transaction, so that auditing every request
/// costs one transaction per burst rather than one per request.
struct AuditLog: Sendable {
    let directory: any CareDirectory
    private let appends: GroupedCalls<AuditEntry.Draft, Void>

    init(directory: any CareDirectory) {
        self.directory = directory
        appends = GroupedCalls { drafts in try await directory.appendAudit(drafts) }
    }

    /// Appends `draft`; returns once it is in the directory.
    /// - Throws: The directory's error, when the entry could not be written (the caller then refuses the access).
    func record(_ draft: AuditEntry.Draft) async throws {
        try await record([draft])
    }

    /// Appends `drafts`, in order; returns once they are in the directory.
    func record(_ drafts: [AuditEntry.Draft]) async throws {
        guard !drafts.isEmpty else { return }
        try await appends.call(drafts)
    }
}
