import Foundation

// The task part of CareKit's store protocols: type-erased ("Any") and typed, read-only and read-write. Required
// members are the batch operations (each one transaction, all or nothing) and the live query; the single-item,
// by-id and type-bridging forms come from the extensions, as in CareKit. Each batch operation is required in its
// async form and in CareKit's callback form; a store implements either, and gets the other (`StoreForms`).

/// Reads tasks of any type.
public protocol OCKAnyReadOnlyTaskStore: OCKAnyResettableStore {
    /// A live query: the matching tasks now, then again after each change that affects them.
    func anyTasks(matching query: OCKTaskQuery) -> CareStoreQueryResults<any OCKAnyTask>
    /// The tasks matching `query` (see ``OCKTaskQuery`` for what a date interval selects), in the query's order.
    func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchAnyTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[any OCKAnyTask]>)
}

extension OCKAnyReadOnlyTaskStore {
    /// The task with `id`: its version with the latest effective date, even one that takes effect later.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the task is deleted.
    public func fetchAnyTask(withID id: String) async throws -> any OCKAnyTask {
        guard let first = try await fetchAnyTasks(query: OCKTaskQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No task with matching ID")
        }
        return first
    }
}

/// Reads and writes tasks of any type.
public protocol OCKAnyTaskStore: OCKAnyReadOnlyTaskStore {
    /// Adds each task as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The tasks as stored, with the dates the store set.
    @discardableResult
    func addAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addAnyTasks(_ tasks: [any OCKAnyTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyTask]>?)
    /// Appends a new version after the newest version of each task's id, in one transaction: all or none. Fails if an
    /// id does not exist or its task was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateAnyTasks(_ tasks: [any OCKAnyTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyTask]>?)
    /// Deletes each task by appending a tombstone (a version with `deletedDate` set) after its newest version, in one
    /// transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is deleted
    /// already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteAnyTasks(_ tasks: [any OCKAnyTask]) async throws -> [any OCKAnyTask]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteAnyTasks(_ tasks: [any OCKAnyTask], callbackQueue: DispatchQueue, completion: OCKResultClosure<[any OCKAnyTask]>?)
}

extension OCKAnyTaskStore {
    /// Adds one task, as `addAnyTasks(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addAnyTasks(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addAnyTask(_ value: any OCKAnyTask) async throws -> any OCKAnyTask {
        try await single(addAnyTasks([value]), "Failed to add task", OCKStoreError.addFailed)
    }

    /// Updates one task, as `updateAnyTasks(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateAnyTasks(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateAnyTask(_ value: any OCKAnyTask) async throws -> any OCKAnyTask {
        try await single(updateAnyTasks([value]), "Failed to update task", OCKStoreError.updateFailed)
    }

    /// Deletes one task, as `deleteAnyTasks(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteAnyTasks(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteAnyTask(_ value: any OCKAnyTask) async throws -> any OCKAnyTask {
        try await single(deleteAnyTasks([value]), "Failed to delete task", OCKStoreError.deleteFailed)
    }
}

/// Reads tasks of one type.
public protocol OCKReadableTaskStore: OCKAnyReadOnlyTaskStore {
    /// The task type the store keeps, such as ``OCKTask``.
    associatedtype Task: OCKAnyTask & Equatable
    /// The sequence a live query returns: arrays of tasks, the current result first.
    associatedtype Tasks: AsyncSequence & Sendable where Tasks.Element == [Task]

    /// A live query: the matching tasks now, then again after each change that affects them.
    func tasks(matching query: OCKTaskQuery) -> Tasks
    /// The tasks matching `query` (see ``OCKTaskQuery`` for what a date interval selects), in the query's order.
    func fetchTasks(query: OCKTaskQuery) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func fetchTasks(query: OCKTaskQuery, callbackQueue: DispatchQueue, completion: @escaping OCKResultClosure<[Task]>)
}

extension OCKReadableTaskStore {
    /// The task with `id`: its version with the latest effective date, even one that takes effect later.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if there is none, or the task is deleted.
    public func fetchTask(withID id: String) async throws -> Task {
        guard let first = try await fetchTasks(query: OCKTaskQuery.byID(id)).first else {
            throw OCKStoreError.fetchFailed(reason: "No task with matching ID")
        }
        return first
    }

    /// The type-erased form of `tasks(matching:)`: the same live query, its tasks as `any OCKAnyTask`.
    public func anyTasks(matching query: OCKTaskQuery) -> CareStoreQueryResults<any OCKAnyTask> {
        CareStoreQueryResults(wrapping: tasks(matching: query).map { $0.map { $0 as any OCKAnyTask } })
    }

    /// The type-erased form of `fetchTasks(query:)`.
    public func fetchAnyTasks(query: OCKTaskQuery) async throws -> [any OCKAnyTask] {
        try await fetchTasks(query: query)
    }
}

/// Reads and writes tasks of one type.
public protocol OCKTaskStore: OCKReadableTaskStore, OCKAnyTaskStore {
    /// Adds each task as the first version of its id, in one transaction: all are added or none. Fails if an id is
    /// taken.
    ///
    /// - Returns: The tasks as stored, with the dates the store set.
    @discardableResult
    func addTasks(_ tasks: [Task]) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func addTasks(_ tasks: [Task], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Task]>?)
    /// Appends a new version after the newest version of each task's id, in one transaction: all or none. Fails if an
    /// id does not exist or its task was deleted.
    ///
    /// - Returns: The new versions, with their new `uuid`s.
    @discardableResult
    func updateTasks(_ tasks: [Task]) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func updateTasks(_ tasks: [Task], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Task]>?)
    /// Deletes each task by appending a tombstone (a version with `deletedDate` set) after its newest version, in one
    /// transaction: all or none. The earlier versions stay in the store. Fails if an id does not exist or is deleted
    /// already.
    ///
    /// - Returns: The tombstones.
    @discardableResult
    func deleteTasks(_ tasks: [Task]) async throws -> [Task]
    /// The same, in CareKit's callback form: a store implements one of the two forms (`StoreForms`).
    func deleteTasks(_ tasks: [Task], callbackQueue: DispatchQueue, completion: OCKResultClosure<[Task]>?)
}

extension OCKTaskStore {
    /// Adds one task, as `addTasks(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `addTasks(_:)` throws (`OCKStoreError.addFailed` if it returns nothing).
    @discardableResult
    public func addTask(_ value: Task) async throws -> Task {
        try await single(addTasks([value]), "Failed to add task", OCKStoreError.addFailed)
    }

    /// Updates one task, as `updateTasks(_:)` does.
    ///
    /// - Returns: The version stored.
    /// - Throws: What `updateTasks(_:)` throws (`OCKStoreError.updateFailed` if it returns nothing).
    @discardableResult
    public func updateTask(_ value: Task) async throws -> Task {
        try await single(updateTasks([value]), "Failed to update task", OCKStoreError.updateFailed)
    }

    /// Deletes one task, as `deleteTasks(_:)` does.
    ///
    /// - Returns: The tombstone.
    /// - Throws: What `deleteTasks(_:)` throws (`OCKStoreError.deleteFailed` if it returns nothing).
    @discardableResult
    public func deleteTask(_ value: Task) async throws -> Task {
        try await single(deleteTasks([value]), "Failed to delete task", OCKStoreError.deleteFailed)
    }

    /// The type-erased form: adds `values` with `addTasks(_:)` if every one is a `Task`.
    ///
    /// - Throws: `OCKStoreError.addFailed` if one is of another type, or what `addTasks(_:)` throws.
    public func addAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await addTasks(typed(values, "add", OCKStoreError.addFailed))
    }

    /// The type-erased form: updates `values` with `updateTasks(_:)` if every one is a `Task`.
    ///
    /// - Throws: `OCKStoreError.updateFailed` if one is of another type, or what `updateTasks(_:)` throws.
    public func updateAnyTasks(_ values: [any OCKAnyTask]) async throws -> [any OCKAnyTask] {
        try await updateTasks(typed(values, "update", OCKStoreError.updateFailed))
    }

    /// The type-erased form: deletes `values` with `deleteTasks(_:)` if every one is a `Task`.
    ///
    /// - Throws: `OCKStoreError.deleteFailed` if one is of another type, or what `deleteTasks(_:)` throws.
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
