import Foundation

// The contact part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads contacts of any type.
public protocol OCKAnyReadOnlyContactStore: OCKAnyResettableStore {
    /// A live query: the matching contacts now, then again after each change that affects them.
    func anyContacts(matching query: OCKContactQuery) -> CareStoreQueryResults<any OCKAnyContact>
    /// The contacts matching `query`.
    func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyContacts(query: OCKContactQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyContact]>)
}

extension OCKAnyReadOnlyContactStore {
    /// The contact with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchAnyContact(withID id: String) async throws -> any OCKAnyContact {
        guard let first = try await fetchAnyContacts(query: OCKContactQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No contact with matching ID")
        }
        return first
    }
}

/// Reads and writes contacts of any type.
public protocol OCKAnyContactStore: OCKAnyReadOnlyContactStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyContacts(_ contacts: [any OCKAnyContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyContact]>?)
    /// Appends new versions.
    @discardableResult
    func updateAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyContacts(_ contacts: [any OCKAnyContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyContact]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteAnyContacts(_ contacts: [any OCKAnyContact]) async throws -> [any OCKAnyContact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyContacts(_ contacts: [any OCKAnyContact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyContact]>?)
}

extension OCKAnyContactStore {
    @discardableResult
    public func addAnyContact(_ value: any OCKAnyContact) async throws -> any OCKAnyContact {
        try await single(addAnyContacts([value]), "Failed to add contact", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateAnyContact(_ value: any OCKAnyContact) async throws -> any OCKAnyContact {
        try await single(updateAnyContacts([value]), "Failed to update contact", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteAnyContact(_ value: any OCKAnyContact) async throws -> any OCKAnyContact {
        try await single(deleteAnyContacts([value]), "Failed to delete contact", OCKStoreError.deleteFailed)
    }
}

/// Reads contacts of one type.
public protocol OCKReadableContactStore: OCKAnyReadOnlyContactStore {
    associatedtype Contact: OCKAnyContact & Equatable & Identifiable
    associatedtype Contacts: AsyncSequence & Sendable where Contacts.Element == [Contact]

    /// A live query: the matching contacts now, then again after each change that affects them.
    func contacts(matching query: OCKContactQuery) -> Contacts
    /// The contacts matching `query`.
    func fetchContacts(query: OCKContactQuery) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchContacts(query: OCKContactQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Contact]>)
}

extension OCKReadableContactStore {
    /// The contact with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchContact(withID id: String) async throws -> Contact {
        guard let first = try await fetchContacts(query: OCKContactQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No contact with matching ID")
        }
        return first
    }

    public func anyContacts(matching query: OCKContactQuery) -> CareStoreQueryResults<any OCKAnyContact> {
        CareStoreQueryResults(wrapping: contacts(matching: query).map { $0.map { $0 as any OCKAnyContact } })
    }

    public func fetchAnyContacts(query: OCKContactQuery) async throws -> [any OCKAnyContact] {
        try await fetchContacts(query: query)
    }
}

/// Reads and writes contacts of one type.
public protocol OCKContactStore: OCKReadableContactStore, OCKAnyContactStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addContacts(_ contacts: [Contact]) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addContacts(_ contacts: [Contact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Contact]>?)
    /// Appends new versions.
    @discardableResult
    func updateContacts(_ contacts: [Contact]) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateContacts(_ contacts: [Contact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Contact]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteContacts(_ contacts: [Contact]) async throws -> [Contact]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteContacts(_ contacts: [Contact], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Contact]>?)
}

extension OCKContactStore {
    @discardableResult
    public func addContact(_ value: Contact) async throws -> Contact {
        try await single(addContacts([value]), "Failed to add contact", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateContact(_ value: Contact) async throws -> Contact {
        try await single(updateContacts([value]), "Failed to update contact", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteContact(_ value: Contact) async throws -> Contact {
        try await single(deleteContacts([value]), "Failed to delete contact", OCKStoreError.deleteFailed)
    }

    public func addAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await addContacts(typed(values, "add", OCKStoreError.addFailed))
    }

    public func updateAnyContacts(_ values: [any OCKAnyContact]) async throws -> [any OCKAnyContact] {
        try await updateContacts(typed(values, "update", OCKStoreError.updateFailed))
    }

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
