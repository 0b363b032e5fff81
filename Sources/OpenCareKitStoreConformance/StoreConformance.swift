import Foundation
import OpenCareKitStore
import Testing

/// A store the conformance suite can test: CareKit's full store protocol with OpenCareKit's entity types.
public protocol StoreUnderTest: OCKStoreProtocol, OCKAnyResettableStore
where Task == OCKTask, Outcome == OCKOutcome, Patient == OCKPatient, Plan == OCKCarePlan, Contact == OCKContact {}

extension OCKStore: StoreUnderTest {}

/// One behaviour every store backend must have, run against a fresh, empty store.
public struct StoreCheck: Sendable, CustomStringConvertible {
    public let description: String
    private let body: @Sendable (any StoreUnderTest) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any StoreUnderTest) async throws -> Void) {
        description = name
        self.body = body
    }

    public func run(on store: any StoreUnderTest) async throws {
        try await body(store)
    }
}

/// Fixed dates and schedules the checks use (America/New_York, November 2026).
enum Fixture {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        return calendar
    }()

    static func date(_ day: Int, _ hour: Int = 0, _ minute: Int = 0, month: Int = 11) -> Date {
        calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
    }

    static func day(_ day: Int) -> DateInterval {
        DateInterval(start: date(day), end: date(day + 1))
    }

    static func daily(_ id: String, hours: [Int] = [8], from day: Int = 1) -> OCKTask {
        let elements = hours.map {
            OCKScheduleElement(start: date(day, $0), end: nil, interval: DateComponents(day: 1), calendar: calendar)
        }
        return OCKTask(id: id, title: id, carePlanUUID: nil, schedule: OCKSchedule(composing: elements))
    }

    /// A daily 08:00 task whose schedule ends at `end`.
    static func bounded(_ id: String, until end: Date) -> OCKTask {
        let element = OCKScheduleElement(start: date(1, 8), end: end, interval: DateComponents(day: 1), calendar: calendar)
        return OCKTask(id: id, title: id, carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
    }

    static func done(_ task: OCKTask, _ occurrence: Int) -> OCKOutcome {
        OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: [OCKOutcomeValue(true)])
    }
}

/// The error a call threw, or nil.
func failure(_ body: () async throws -> Void) async -> OCKStoreError? {
    do {
        try await body()
        return nil
    } catch let error as OCKStoreError {
        return error
    } catch {
        Issue.record("expected an OCKStoreError, got \(error)")
        return nil
    }
}

extension OCKStoreError {
    var isAddFailed: Bool { if case .addFailed = self { true } else { false } }
    var isUpdateFailed: Bool { if case .updateFailed = self { true } else { false } }
    var isDeleteFailed: Bool { if case .deleteFailed = self { true } else { false } }
    var isInvalidValue: Bool { if case .invalidValue = self { true } else { false } }
    var isFetchFailed: Bool { if case .fetchFailed = self { true } else { false } }
}

/// Every check of the suite.
public enum StoreConformance {
    public static var checks: [StoreCheck] { versioning + rules + recordRules + events + queries + live + sync + careKitSyncSteps + careKitCallbackForms + serving + paging }
}
