import Foundation

// The task part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads tasks of any type.
public protocol OCKAnyReadOnlyTaskStore: OCKAnyResettableStore {
    /// A live query: the matching tasks now, then again after each change that affects them.
    func anyTasks(matching query: OCKTaskQuery) -> CareStoreQueryResults<any OCKAnyTask>
    /// The tasks matching `query`.
    func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyTask]>)
}

extension OCKAnyReadOnlyTaskStore {
    /// The task with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchAnyTask(withID id: String) async throws -> any OCKAnyTask {
        guard let first = try await fetchAnyTasks(query: OCKTaskQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No task with matching ID")
        }
        return first
    }
}

/// Reads and writes tasks of any type.
public protocol OCKAnyTaskStore: OCKAnyReadOnlyTaskStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyTasks(_ tasks: [any OCKAnyTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyTask]>?)
    /// Appends new versions.
    @discardableResult
    func updateAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyTasks(_ tasks: [any OCKAnyTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyTask]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyTasks(_ tasks: [any OCKAnyTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyTask]>?)
}

extension OCKAnyTaskStore {
    @discardableResult
    public func addAnyTask(_ value: any OCKAnyTask) async throws -> any OCKAnyTask {
        try await single(addAnyTasks([value]), "Failed to add task", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateAnyTask(_ value: any OCKAnyTask) async throws -> any OCKAnyTask {
        try await single(updateAnyTasks([value]), "Failed to update task", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteAnyTask(_ value: any OCKAnyTask) async throws -> any OCKAnyTask {
        try await single(deleteAnyTasks([value]), "Failed to delete task", OCKStoreError.deleteFailed)
    }
}

/// Reads tasks of one type.
public protocol OCKReadableTaskStore: OCKAnyReadOnlyTaskStore {
    associatedtype Task: OCKAnyTask & Equatable
    associatedtype Tasks: AsyncSequence & Sendable where Tasks.Element == [Task]

    /// A live query: the matching tasks now, then again after each change that affects them.
    func tasks(matching query: OCKTaskQuery) -> Tasks
    /// The tasks matching `query`.
    func fetchTasks(query: OCKTaskQuery) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Task]>)
}

extension OCKReadableTaskStore {
    /// The task with `id`: the newest version in effect today, or of any date for tasks.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none.
    public func fetchTask(withID id: String) async throws -> Task {
        guard let first = try await fetchTasks(query: OCKTaskQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No task with matching ID")
        }
        return first
    }

    public func anyTasks(matching query: OCKTaskQuery) -> CareStoreQueryResults<any OCKAnyTask> {
        CareStoreQueryResults(wrapping: tasks(matching: query).map { $0.map { $0 as any OCKAnyTask } })
    }

    public func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask] {
        try await fetchTasks(query: query)
    }
}

/// Reads and writes tasks of one type.
public protocol OCKTaskStore: OCKReadableTaskStore, OCKAnyTaskStore {
    /// Adds first versions; fails if an id exists already.
    @discardableResult
    func addTasks(_ tasks: [Task]) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addTasks(_ tasks: [Task], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Task]>?)
    /// Appends new versions.
    @discardableResult
    func updateTasks(_ tasks: [Task]) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateTasks(_ tasks: [Task], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Task]>?)
    /// Appends tombstone versions.
    @discardableResult
    func deleteTasks(_ tasks: [Task]) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteTasks(_ tasks: [Task], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Task]>?)
}

extension OCKTaskStore {
    @discardableResult
    public func addTask(_ value: Task) async throws -> Task {
        try await single(addTasks([value]), "Failed to add task", OCKStoreError.addFailed)
    }

    @discardableResult
    public func updateTask(_ value: Task) async throws -> Task {
        try await single(updateTasks([value]), "Failed to update task", OCKStoreError.updateFailed)
    }

    @discardableResult
    public func deleteTask(_ value: Task) async throws -> Task {
        try await single(deleteTasks([value]), "Failed to delete task", OCKStoreError.deleteFailed)
    }

    public func addAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await addTasks(typed(values, "add", OCKStoreError.addFailed))
    }

    public func updateAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await updateTasks(typed(values, "update", OCKStoreError.updateFailed))
    }

    public func deleteAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await deleteTasks(typed(values, "delete", OCKStoreError.deleteFailed))
    }

    private func typed(_ values: [any OCKAnyTask], _ verb: String, _ failure: (String) -> OCKStoreError) throws -> [Task] {
        guard let typed = values as? [Task] else {
            throw failure("Failed to \(verb) tasks. Not all tasks were of the correct type, \(Task.self).")
        }
        return typed
    }
}
