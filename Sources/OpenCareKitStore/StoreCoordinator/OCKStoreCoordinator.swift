import Foundation
import Synchronization

/// A store made of other stores, with CareKit 4's API.
///
/// **Reads** go to every attached store whose delegate hook accepts the query, at once, and the answers are merged into
/// one result in the query's order (its sort descriptors, then CareKit's newest-created-first, then the order the
/// stores were attached), with the query's offset and limit applied to the merged result. Live queries combine the
/// stores' live queries: a new merged result whenever any of them yields one.
///
/// **Writes** go to one store: the first attached (read-write) store whose delegate hook accepts *every* entity of the
/// call, so a batch stays one transaction in one store. If no store accepts them all, the write fails and no store is
/// touched.
///
/// The coordinator is its own delegate until another is set (`delegate`); the default hooks accept everything.
///
/// For example, a patient's store, written to, with an archived copy of an older record read beside it:
/// ```swift
/// let coordinator = OCKStoreCoordinator()
/// coordinator.attach(store: OCKStore(name: "jane"))
/// coordinator.attachReadOnly(eventStore: OCKStore.reading(name: "jane-2024", directory: archive))
/// let events = try await coordinator.fetchAnyEvents(query: OCKEventQuery(for: day))
/// ```
public final class OCKStoreCoordinator: OCKAnyStoreProtocol, OCKStoreCoordinatorDelegate {
    struct Stores: Sendable {
        weak var delegate: (any OCKStoreCoordinatorDelegate)?
        var readOnlyPatientStores: [any OCKAnyReadOnlyPatientStore] = []
        var readOnlyPlanStores: [any OCKAnyReadOnlyCarePlanStore] = []
        var readOnlyContactStores: [any OCKAnyReadOnlyContactStore] = []
        var readOnlyEventStores: [any OCKAnyReadOnlyEventStore] = []
        var patientStores: [any OCKAnyPatientStore] = []
        var planStores: [any OCKAnyCarePlanStore] = []
        var contactStores: [any OCKAnyContactStore] = []
        var eventStores: [any OCKAnyEventStore] = []

        // The stores that read each kind, read-only ones first (CareKit's order).
        var patientReaders: [any OCKAnyReadOnlyPatientStore] { readOnlyPatientStores + (patientStores as [any OCKAnyReadOnlyPatientStore]) }
        var planReaders: [any OCKAnyReadOnlyCarePlanStore] { readOnlyPlanStores + (planStores as [any OCKAnyReadOnlyCarePlanStore]) }
        var contactReaders: [any OCKAnyReadOnlyContactStore] { readOnlyContactStores + (contactStores as [any OCKAnyReadOnlyContactStore]) }
        var eventReaders: [any OCKAnyReadOnlyEventStore] { readOnlyEventStores + (eventStores as [any OCKAnyReadOnlyEventStore]) }
    }

    let stores = Mutex(Stores())

    /// A coordinator with no stores attached; it decides for itself (accepting everything) until a `delegate` is set.
    public init() {}

    /// Decides which stores answer queries and take writes. Held weakly, as in CareKit; while none is set (or it is
    /// gone), the coordinator itself decides, accepting everything.
    public var delegate: (any OCKStoreCoordinatorDelegate)? {
        get {
            let chosen: (any OCKStoreCoordinatorDelegate)? = stores.withLock { $0.delegate }
            return chosen ?? self
        }
        set { stores.withLock { $0.delegate = newValue } }
    }

    /// Attaches a store for every kind of entity, read and write. Stores attached earlier take writes first.
    public func attach(store: any OCKAnyStoreProtocol) {
        stores.withLock {
            $0.patientStores.append(store)
            $0.planStores.append(store)
            $0.contactStores.append(store)
            $0.eventStores.append(store)
        }
    }

    /// Attaches a store that reads and writes patients.
    public func attach(patientStore: any OCKAnyPatientStore) {
        stores.withLock { $0.patientStores.append(patientStore) }
    }

    /// Attaches a store that reads and writes care plans.
    public func attach(planStore: any OCKAnyCarePlanStore) {
        stores.withLock { $0.planStores.append(planStore) }
    }

    /// Attaches a store that reads and writes contacts.
    public func attach(contactStore: any OCKAnyContactStore) {
        stores.withLock { $0.contactStores.append(contactStore) }
    }

    /// Attaches a store that reads and writes tasks and outcomes, and reads events.
    public func attach(eventStore: any OCKAnyEventStore) {
        stores.withLock { $0.eventStores.append(eventStore) }
    }

    /// Attaches a store whose patients are read but never written through the coordinator.
    public func attachReadOnly(patientStore: any OCKAnyReadOnlyPatientStore) {
        stores.withLock { $0.readOnlyPatientStores.append(patientStore) }
    }

    /// Attaches a store whose care plans are read but never written through the coordinator.
    public func attachReadOnly(carePlanStore: any OCKAnyReadOnlyCarePlanStore) {
        stores.withLock { $0.readOnlyPlanStores.append(carePlanStore) }
    }

    /// Attaches a store whose contacts are read but never written through the coordinator.
    public func attachReadOnly(contactStore: any OCKAnyReadOnlyContactStore) {
        stores.withLock { $0.readOnlyContactStores.append(contactStore) }
    }

    /// Attaches a store whose tasks, outcomes and events are read but never written through the coordinator.
    public func attachReadOnly(eventStore: any OCKAnyReadOnlyEventStore) {
        stores.withLock { $0.readOnlyEventStores.append(eventStore) }
    }

    /// Resets every attached store once (a store attached for several kinds is reset once), read-only ones included,
    /// as CareKit does. Stops at the first store that fails.
    public func reset() throws {
        let all: [any OCKAnyResettableStore] = stores.withLock { stores in
            stores.readOnlyPatientStores + stores.readOnlyPlanStores + stores.readOnlyContactStores
                + stores.readOnlyEventStores + stores.patientStores + stores.planStores + stores.contactStores
                + stores.eventStores
        }
        var seen = Set<ObjectIdentifier>()
        for store in all where seen.insert(ObjectIdentifier(store)).inserted {
            try store.reset()
        }
    }

    // MARK: Routing

    /// How the coordinator routes one kind of entity: the stores that read and write it, the delegate's hooks, and
    /// the order answers merge in.
    struct Route<Reader: Sendable, Writer: Sendable, Query: CoordinatedQuery, Entity: Sendable>: Sendable {
        let kind: String
        let readers: @Sendable (Stores) -> [Reader]
        let writers: @Sendable (Stores) -> [Writer]
        let answers: @Sendable (any OCKStoreCoordinatorDelegate, Reader, Query) -> Bool
        let accepts: @Sendable (any OCKStoreCoordinatorDelegate, Writer, Entity) -> Bool
        let order: @Sendable (Query) -> MergeOrder<Entity>
    }

    /// The attached stores and the delegate deciding for them, at this moment.
    private func attached() -> (Stores, any OCKStoreCoordinatorDelegate) {
        let attached = stores.withLock { $0 }
        return (attached, attached.delegate ?? self)
    }

    /// The stores that answer `query`.
    func readers<R, W, Q, E>(_ route: Route<R, W, Q, E>, _ query: Q) -> [R] {
        let (stores, decider) = attached()
        return route.readers(stores).filter { route.answers(decider, $0, query) }
    }

    /// Every store's answer to `query`, merged, then the query's page of it.
    func fetch<R, W, Q, E>(_ route: Route<R, W, Q, E>, _ query: Q,
                           _ fetch: @escaping @Sendable (R, Q) async throws -> [E]) async throws -> [E] {
        let order = route.order(query)
        return query.page(order.merge(try await FanOut.fetch(readers(route, query), query.perStore, fetch)))
    }

    /// The stores' live queries for `query`, combined.
    func live<R, W, Q, E>(_ route: Route<R, W, Q, E>, _ query: Q,
                          _ stream: (R, Q) -> CareStoreQueryResults<E>) -> CareStoreQueryResults<E> {
        let (perStore, order) = (query.perStore, route.order(query))
        return FanOut.live(readers(route, query).map { stream($0, perStore) }) { query.page(order.merge($0)) }
    }

    /// Runs a write on the first attached read-write store that accepts every entity of it.
    func write<R, W, Q, E>(_ route: Route<R, W, Q, E>, _ entities: [E], _ failure: (String) -> OCKStoreError,
                           _ write: (W, [E]) async throws -> [E]) async throws -> [E] {
        let (stores, decider) = attached()
        let candidates = route.writers(stores)
        guard let store = candidates.first(where: { store in entities.allSatisfy { route.accepts(decider, store, $0) } }) else {
            throw failure(candidates.isEmpty
                ? "No store for \(route.kind) is attached to the coordinator"
                : "No attached store accepts every one of these \(route.kind)")
        }
        return try await write(store, entities)
    }
}
