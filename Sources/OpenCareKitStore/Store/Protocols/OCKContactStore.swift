import Foundation

// The contact part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads contacts of any type.
public protocol OCKAnyReadOnlyContactStore: OCKAnyResettableStore {
    /// A live query: the matching contacts now, then again after each change that affects them.
    func anyContacts(matching query: OCKContactQuery) -> CareStoreQueryResults<any OCKAnyContact>
    /// The contacts matching `query` (see ``OCKContactQuery`` for what a date interval selects), in the query's order.
    func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyContacts(query: OCKContactQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyContact]>)
}

extension OCKAnyReadOnlyContactStore {
    /// The contact with `id`: the version in effect at the end of today, in the current calendar.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the contact is deleted.
    public func fetchAnyContact(withID id: String) async throws -> any OCKAnyContact {
        guard let first = try await fetchAnyContacts(query: OCKContactQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No contact with matching ID")
        }
        return first
    }
}

/// Reads and writes contacts of any type.
public protocol OCKAnyContactStore: OCKAnyReadOnlyContactStore {
    /// Adds each contact as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The contacts as stored, with the dates the store set.
    @discardableResult
    func addAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyContacts(_ contacts: [any OCKAnyContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyContact]>?)
    /// Appends a new version after the newest version of each contact's id, in one transaction: all or none. Fails if
    /// an id does not exist or its contact was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyContacts(_ contacts: [any OCKAnyContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyContact]>?)
    /// Deletes each contact by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyContacts(_ contacts: [any OCKAnyContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyContact]>?)
}

extension OCKAnyContactStore {
    /// Adds one contact, as `addAnyContacts(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addAnyContacts(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addAnyContact(_ value: any OCKAnyContact) async throws -> any OCKAnyContact {
        try await single(addAnyContacts([value]), "Failed to add contact", OCKStoreError.addFailed)
    }

    /// Updates one contact, as `updateAnyContacts(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateAnyContacts(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateAnyContact(_ value: any OCKAnyContact) async throws -> any OCKAnyContact {
        try await single(updateAnyContacts([value]), "Failed to update contact", OCKStoreError.updateFailed)
    }

    /// Deletes one contact, as `deleteAnyContacts(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteAnyContacts(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteAnyContact(_ value: any OCKAnyContact) async throws -> any OCKAnyContact {
        try await single(deleteAnyContacts([value]), "Failed to delete contact", OCKStoreError.deleteFailed)
    }
}

/// Reads contacts of one type.
public protocol OCKReadableContactStore: OCKAnyReadOnlyContactStore {
    /// The contact type the store keeps, such as ``OCKContact``.
    associatedtype Contact: OCKAnyContact & Equatable & Identifiable
    /// The sequence a live query returns: arrays of contacts, the current result first.
    associatedtype Contacts: AsyncSequence & Sendable where Contacts.Element == [Contact]

    /// A live query: the matching contacts now, then again after each change that affects them.
    func contacts(matching query: OCKContactQuery) -> Contacts
    /// The contacts matching `query` (see ``OCKContactQuery`` for what a date interval selects), in the query's order.
    func fetchContacts(query: OCKContactQuery) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchContacts(query: OCKContactQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Contact]>)
}

extension OCKReadableContactStore {
    /// The contact with `id`: the version in effect at the end of today, in the current calendar.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the contact is deleted.
    public func fetchContact(withID id: String) async throws -> Contact {
        guard let first = try await fetchContacts(query: OCKContactQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No contact with matching ID")
        }
        return first
    }

    /// The type-erased form of `contacts(matching:)`: the same live query, its contacts as `any OCKAnyContact`.
    public func anyContacts(matching query: OCKContactQuery) -> CareStoreQueryResults<any OCKAnyContact> {
        CareStoreQueryResults(wrapping: contacts(matching: query).map { $0.map { $0 as any OCKAnyContact } })
    }

    /// The type-erased form of `fetchContacts(query:)`.
    public func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact] {
        try await fetchContacts(query: query)
    }
}

/// Reads and writes contacts of one type.
public protocol OCKContactStore: OCKReadableContactStore, OCKAnyContactStore {
    /// Adds each contact as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The contacts as stored, with the dates the store set.
    @discardableResult
    func addContacts(_ contacts: [Contact]) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addContacts(_ contacts: [Contact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Contact]>?)
    /// Appends a new version after the newest version of each contact's id, in one transaction: all or none. Fails if
    /// an id does not exist or its contact was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateContacts(_ contacts: [Contact]) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateContacts(_ contacts: [Contact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Contact]>?)
    /// Deletes each contact by appending a tombstone (a version with `deletedDate` set) after its newest version, in
    /// one transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is
    /// deleted already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteContacts(_ contacts: [Contact]) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteContacts(_ contacts: [Contact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Contact]>?)
}

extension OCKContactStore {
    /// Adds one contact, as `addContacts(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addContacts(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addContact(_ value: Contact) async throws -> Contact {
        try await single(addContacts([value]), "Failed to add contact", OCKStoreError.addFailed)
    }

    /// Updates one contact, as `updateContacts(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateContacts(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateContact(_ value: Contact) async throws -> Contact {
        try await single(updateContacts([value]), "Failed to update contact", OCKStoreError.updateFailed)
    }

    /// Deletes one contact, as `deleteContacts(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteContacts(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteContact(_ value: Contact) async throws -> Contact {
        try await single(deleteContacts([value]), "Failed to delete contact", OCKStoreError.deleteFailed)
    }

    /// The type-erased form: adds `values` with `addContacts(_:)` if every one is a `Contact`.
    ///
    /// - Throws: `OCKStoreError.addFailed` if one is of another type, or what `addContacts(_:)` throws.
    public func addAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await addContacts(typed(values, "add", OCKStoreError.addFailed))
    }

    /// The type-erased form: updates `values` with `updateContacts(_:)` if every one is a `Contact`.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if one is of another type, or what `updateContacts(_:)` throws.
    public func updateAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await updateContacts(typed(values, "update", OCKStoreError.updateFailed))
    }

    /// The type-erased form: deletes `values` with `deleteContacts(_:)` if every one is a `Contact`.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if one is of another type, or what `deleteContacts(_:)` throws.
    public func deleteAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await deleteContacts(typed(values, "delete", OCKStoreError.deleteFailed))
    }

    private func typed(_ values: [any OCKAnyContact], _ verb: String, _ failure: (String) -> OCKStoreError) throws -> [Contact] {
        guard let typed = values as? [Contact] else {
            throw failure("Failed to \(verb) contacts. Not all contacts were of the correct type, \(Contact.self).")
        }
        return typed
    }
}
