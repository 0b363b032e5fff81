import Foundation
import OpenCareKitStore

/// The care team's contacts and the plan's notes, with the same rules as tasks: a change made from an old reading is
/// refused (`Failure.changedMeanwhile`), and an id of a deleted contact can be used again.
extension OCKPlanEditor {
    /// The most notes a care plan keeps: each note is stored on every later version of the plan, so their number is
    /// bounded (`Failure.tooManyNotes`).
    public static let maximumNotes = 200

    /// The newest version of contact `id`, or nil if there is none (or it was deleted).
    public func contact(withID id: String) async throws -> OCKContact? {
        var query = OCKContactQuery()
        query.ids = [id]
        query.dateInterval = .newestVersions
        return try await store.fetchContacts(query: query).filter(\.nextVersionUUIDs.isEmpty).first
    }

    /// The newest version of every task of the plan that was not deleted (ended ones included).
    public func tasks() async throws -> [OCKTask] {
        var query = OCKTaskQuery()
        query.dateInterval = .newestVersions
        return try await store.fetchTasks(query: query).filter(\.nextVersionUUIDs.isEmpty)
    }

    /// The newest version of every contact that was not deleted.
    public func contacts() async throws -> [OCKContact] {
        var query = OCKContactQuery()
        query.dateInterval = .newestVersions
        return try await store.fetchContacts(query: query).filter(\.nextVersionUUIDs.isEmpty)
    }

    /// Adds a contact (or one with the id of a deleted contact).
    ///
    /// - Throws: `Failure.idTaken` when a contact has the id.
    @discardableResult
    public func addContact(_ contact: OCKContact) async throws -> OCKContact {
        if try await self.contact(withID: contact.id) != nil { throw Failure.idTaken }
        try await checkRoom(adding: 0, contacts: 1)
        do {
            return try await store.addContacts([contact])[0]
        } catch let OCKStoreError.addFailed(reason) where reason.contains("same id") {
            // Added by someone else since the check.
            throw Failure.idTaken
        }
    }

    /// Saves `proposed` — the contact as read (its `uuid` names that version), changed — as its new version.
    ///
    /// - Throws: `Failure.changedMeanwhile` or `.noSuchTask` (no such contact).
    @discardableResult
    public func updateContact(_ proposed: OCKContact) async throws -> OCKContact {
        try await conditionally { try await store.updateContacts([proposed], onlyIfNewest: true)[0] }
    }

    /// Deletes `contact` (as read).
    public func deleteContact(_ contact: OCKContact) async throws {
        guard let current = try await self.contact(withID: contact.id) else { throw Failure.noSuchTask }
        guard current.uuid == contact.uuid else { throw Failure.changedMeanwhile }
        try await store.deleteContacts([current])
    }

    /// The record's care plan (the newest version of its first plan), or nil when it has none.
    public func carePlan() async throws -> OCKCarePlan? {
        var query = OCKCarePlanQuery()
        query.dateInterval = .newestVersions
        return try await store.fetchCarePlans(query: query).filter(\.nextVersionUUIDs.isEmpty)
            .min { ($0.createdDate ?? .distantPast, $0.uuid.uuidString) < ($1.createdDate ?? .distantPast, $1.uuid.uuidString) }
    }

    /// Adds `note` to the care plan as a new version of it (a plan is made for a record that has none). A note added
    /// by someone else at the same moment is kept: the write is retried on the newest version.
    ///
    /// - Throws: `Failure.tooManyNotes` when the plan has `maximumNotes`.
    @discardableResult
    public func addNote(_ note: OCKNote, now: Date) async throws -> OCKCarePlan {
        for _ in 0..<3 {
            guard var plan = try await carePlan() else {
                var plan = OCKCarePlan(id: "care-plan", title: "Care plan", patientUUID: nil)
                plan.effectiveDate = now
                plan.notes = [note]
                do {
                    return try await store.addCarePlans([plan])[0]
                } catch OCKStoreError.addFailed {
                    continue  // someone else's first note made the plan meanwhile
                }
            }
            guard (plan.notes ?? []).count < Self.maximumNotes else { throw Failure.tooManyNotes(limit: Self.maximumNotes) }
            plan.notes = (plan.notes ?? []) + [note]
            plan.effectiveDate = max(now, plan.effectiveDate)
            do {
                return try await conditionally { try await store.updateCarePlans([plan], onlyIfNewest: true)[0] }
            } catch Failure.changedMeanwhile {
                continue
            }
        }
        throw Failure.changedMeanwhile
    }
}
