import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// A view bound to store data: CareKit's SynchronizedViewController without UIKit. It turns each view model from
/// an async sequence (usually a live store query) into a view through its synchronizer, passing the previous view
/// model along, and yields the new view.
///
/// For example, a task card that follows the store (a new view each time the day's ibuprofen events or their
/// outcomes change):
/// ```swift
/// let card = OCKSynchronizedView.events(of: "ibuprofen", on: today, calendar: calendar, in: store,
///                                       synchronizer: OCKChecklistTaskViewSynchronizer(), environment: environment)
/// for try await view in card.views() {
///     print(view.render(in: environment.render).rendered)
/// }
/// ```
public struct OCKSynchronizedView<Synchronizer: OCKViewSynchronizing>: Sendable {
    /// Turns each view model into a view.
    public let synchronizer: Synchronizer
    /// The reader, the controls' actions and read-only state every view is made with.
    public let environment: OCKSynchronizationEnvironment
    private let viewModels: @Sendable () -> AsyncThrowingStream<Synchronizer.ViewModel, any Error>

    /// Binds any sequence of view models to a synchronizer.
    ///
    /// - Parameters:
    ///   - viewModels: The view models, such as a live store query's results; iterated anew by each ``views()``.
    ///   - synchronizer: Makes and fills the views.
    ///   - environment: The reader, actions and read-only state of every view.
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
    ///
    /// Each call iterates the view models afresh. The stream ends when they end and throws what they throw; when
    /// the caller stops iterating, the iteration of the view models (the live query) is cancelled too.
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
    /// A task card bound to the live query of the task's events on the day containing `date`: a new view model
    /// each time the task or its outcomes change that day's events.
    ///
    /// - Parameters:
    ///   - taskID: The task's id (every version of it that owns events that day).
    ///   - date: Any moment of the day to show.
    ///   - calendar: The calendar whose day is shown (the patient's time zone).
    ///   - store: The store to query.
    ///   - synchronizer: The card's synchronizer, such as ``OCKSimpleTaskViewSynchronizer``.
    ///   - environment: The reader, actions and read-only state of the card.
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
