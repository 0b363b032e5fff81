import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// A view bound to store data: CareKit's SynchronizedViewController without UIKit. It turns each view model from
/// an async sequence (usually a live store query) into a view through its synchronizer, passing the previous view
/// model along, and yields the new view.
///
/// For example, a task card that follows the store:
/// ```swift
/// let card = OCKSynchronizedView.events(of: "ibuprofen", on: today, calendar: calendar, in: store,
///                                       synchronizer: OCKChecklistTaskViewSynchronizer(), environment: environment)
/// for try await view in card.views() { send(view.render(in: environment.render)) }
/// ```
public struct OCKSynchronizedView<Synchronizer: OCKViewSynchronizing>: Sendable {
    public let synchronizer: Synchronizer
    public let environment: OCKSynchronizationEnvironment
    private let viewModels: @Sendable () -> AsyncThrowingStream<Synchronizer.ViewModel, any Error>

    /// Binds any sequence of view models to a synchronizer.
    public init<ViewModels: AsyncSequence & Sendable>(viewModels: ViewModels, synchronizer: Synchronizer,
                                                      environment: OCKSynchronizationEnvironment)
        where ViewModels.Element == Synchronizer.ViewModel {
        self.synchronizer = synchronizer
        self.environment = environment
        self.viewModels = {
            AsyncThrowingStream { continuation in
                let work = Task {
                    do {
                        for try await model in viewModels { continuation.yield(model) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in work.cancel() }
            }
        }
    }

    /// The view for each view model, starting with the current one.
    public func views() -> AsyncThrowingStream<Synchronizer.View, any Error> {
        let models = viewModels()
        let synchronizer = synchronizer
        let environment = environment
        return AsyncThrowingStream { continuation in
            let work = Task {
                do {
                    var previous: Synchronizer.ViewModel?
                    for try await model in models {
                        continuation.yield(synchronizer.view(for: model, previous: previous, environment: environment))
                        previous = model
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}

extension OCKSynchronizedView where Synchronizer.ViewModel == OCKTaskEvents {
    /// A task card bound to the live query of the task's events on the day containing `date`.
    public static func events<Store: OCKReadOnlyEventStore>(of taskID: String, on date: Date, calendar: Calendar, in store: Store,
                                                            synchronizer: Synchronizer,
                                                            environment: OCKSynchronizationEnvironment) -> Self
        where Store.Events: Sendable {
        var query = OCKEventQuery(dateInterval: calendar.dateInterval(of: .day, for: date) ?? DateInterval(start: date, duration: 86_400))
        query.taskIDs = [taskID]
        let events = store.events(matching: query).map { $0.map(\.anyEvent) }
        return OCKSynchronizedView(viewModels: events, synchronizer: synchronizer, environment: environment)
    }
}
