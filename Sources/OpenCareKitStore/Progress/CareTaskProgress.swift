import Foundation

/// How far along a task's event is, from 0 (not started) to 1 (done).
///
/// An event's progress comes from a ``CareTaskProgressStrategy``; ``AggregatedCareTaskProgress`` combines the
/// progress of several events (a day's completion ring).
///
/// For example:
/// ```swift
/// let events = try await store.fetchEvents(query: OCKEventQuery(for: Date()))
/// let water = events.filter { $0.task.id == "water" }.map { $0.computeProgress(by: .summingOutcomeValues) }
/// let glasses = water.first?.value // the sum of the values logged
/// let ring = AggregatedCareTaskProgress(combining: water).fractionCompleted
/// ```
public protocol CareTaskProgress: Sendable {
    /// The fraction completed; 1 or more means done.
    var fractionCompleted: Double { get }
}

extension CareTaskProgress {
    /// Whether the event is done (`fractionCompleted >= 1`).
    public var isCompleted: Bool { fractionCompleted >= 1 }

    /// `fractionCompleted` limited to 0…1 (0 for NaN).
    var clampedFractionCompleted: Double {
        let fraction = fractionCompleted
        return fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    }
}

/// Progress that is either done or not.
public struct BinaryCareTaskProgress: CareTaskProgress, Codable, Hashable, Sendable {
    /// Whether the event is done.
    public var isCompleted: Bool
    public var fractionCompleted: Double { isCompleted ? 1 : 0 }

    /// Progress that is complete or not.
    public init(isCompleted: Bool) {
        self.isCompleted = isCompleted
    }
}

/// Progress toward a numeric goal, such as 6 of 8 glasses of water.
///
/// CareKit traps on a negative value or goal; here the fraction is simply limited to 0…1.
public struct LinearCareTaskProgress: CareTaskProgress, Codable, Hashable, Sendable {
    /// The amount done so far.
    public var value: Double
    /// The amount to reach; nil means any positive value completes the event.
    public var goal: Double?

    /// Progress of `value` toward `goal`; with no goal, any positive value completes it.
    public init(value: Double, goal: Double? = nil) {
        self.value = value
        self.goal = goal
    }

    /// With no goal: 1 if the value is positive, else 0. With a goal of 0 or less: 1. Otherwise value ÷ goal,
    /// limited to 0…1.
    public var fractionCompleted: Double {
        guard !value.isNaN else { return 0 }
        guard let goal else { return value > 0 ? 1 : 0 }
        guard goal > 0 else { return 1 }
        return min(max(value / goal, 0), 1)
    }
}

/// The combined progress of several events, each weighted equally. No events counts as complete.
public struct AggregatedCareTaskProgress: CareTaskProgress, Codable, Hashable, Sendable {
    public let fractionCompleted: Double

    /// The mean of the progresses, each limited to 0…1; 1 for an empty array.
    public init(combining progress: [any CareTaskProgress]) {
        guard !progress.isEmpty else {
            fractionCompleted = 1
            return
        }
        fractionCompleted = progress.reduce(0) { $0 + $1.clampedFractionCompleted } / Double(progress.count)
    }

    /// The combined progress of `events` under `strategy`.
    public init<Progress>(events: [OCKAnyEvent], by strategy: CareTaskProgressStrategy<Progress> = .checkingOutcomeExists) {
        self.init(combining: events.map { $0.computeProgress(by: strategy) })
    }
}

/// How to compute an event's progress from its outcome.
public struct CareTaskProgressStrategy<Progress: CareTaskProgress>: Sendable {
    let computeProgress: @Sendable (OCKAnyEvent) -> Progress

    /// A custom strategy.
    public init(computeProgress: @escaping @Sendable (OCKAnyEvent) -> Progress) {
        self.computeProgress = computeProgress
    }
}

extension CareTaskProgressStrategy where Progress == BinaryCareTaskProgress {
    /// Complete once an outcome exists, even one with no values.
    public static var checkingOutcomeExists: CareTaskProgressStrategy<BinaryCareTaskProgress> {
        CareTaskProgressStrategy { event in BinaryCareTaskProgress(isCompleted: event.outcome != nil) }
    }
}

extension CareTaskProgressStrategy where Progress == LinearCareTaskProgress {
    /// The sum of the outcome's values against the sum of the schedule's target values. Numbers count as their
    /// value; text, dates, data and booleans count as 1. With no target values, any positive sum completes it.
    public static var summingOutcomeValues: CareTaskProgressStrategy<LinearCareTaskProgress> {
        CareTaskProgressStrategy { event in
            func amount(_ value: OCKOutcomeValue) -> Double {
                switch value.value {
                case let number as Int: Double(number)
                case let number as Double: number
                default: 1
                }
            }
            let value = (event.outcome?.values ?? []).reduce(0) { $0 + amount($1) }
            let targets = event.scheduleEvent.element.targetValues
            let goal: Double? = targets.isEmpty ? nil : targets.reduce(0) { $0 + amount($1) }
            return LinearCareTaskProgress(value: value, goal: goal)
        }
    }
}

/// The adherence of one day: no tasks that count, tasks but no events, or the progress of that day's events.
public enum OCKAdherence: Codable, Hashable, Sendable {
    /// No task that impacts adherence exists on that day.
    case noTasks
    /// Tasks that impact adherence exist on that day, but none has an event then.
    case noEvents
    /// The mean progress of that day's events, from 0 to 1.
    case progress(_ fractionCompleted: Double)
}
