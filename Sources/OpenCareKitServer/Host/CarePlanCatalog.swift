import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys

/// The built-in care plans a record can follow (`CareRecord.carePlan`): what the app shows with them.
public enum CarePlanCatalog {
    /// The demo's knee-recovery plan, with its onboarding and check-in surveys, card styles and charts.
    public static let demo = "demo"

    /// The surveys every record can give a task, by their id.
    public static let surveys: [String: OCKSurvey] = [OCKDemoSurveys.checkIn.id: OCKDemoSurveys.checkIn]

    /// The app configuration of a record following `carePlan`, in the record's time zone, before the host's settings.
    static func configuration(for record: CareRecord) -> CareServer.Configuration {
        let timeZone = TimeZone(identifier: record.timeZoneIdentifier) ?? TimeZone(identifier: "UTC")!
        var configuration = CareServer.Configuration(timeZone: timeZone)
        if record.carePlan == demo {
            configuration = CareServer.Configuration(timeZone: timeZone, cardStyles: OCKDemoCarePlan.cardStyles, insights: OCKDemoCarePlan.insights,
                                                     surveys: OCKDemoSurveys.byTaskID, onboardingTaskID: OCKDemoSurveys.onboardingTaskID)
        }
        configuration.surveyCatalog = surveys
        return configuration
    }
}

extension CarePlanCatalog {
    /// Installs `record`'s rules on its `store` (`CareServer.Configuration.recordRules`, from the plan it follows and
    /// its time zone): whoever opens a record's store to write — the server, an import, the command line, the demo's
    /// seeding — calls this, so every writer passes the same rules.
    public static func installRules(on store: OCKStore, for record: CareRecord, now: @escaping @Sendable () -> Date = Date.init) {
        var configuration = configuration(for: record)
        configuration.now = now
        configuration.installRules(on: store)
    }
}

extension CareServer.Configuration {
    /// The rules of a record shown with this configuration, checked inside every write transaction of its store
    /// (`OCKStoreRule`), whoever writes:
    /// - the surveys' rule (`OCKSurveyStoreRule`): the signed consent is kept, a survey task's outcome comes from its
    ///   survey with valid answers, and onboarding comes first;
    /// - events still to come are read-only (`OCKFutureEventsRule`), in the record's time zone by `now`;
    /// - a task's alert rules are readable and in bounds (`OCKAlertRulesStoreRule`).
    /// The store's own limits (entities of a kind, events a day, sync devices) hold for every store.
    public var recordRules: [any OCKStoreRule] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return [CareServer.surveyRule(self), OCKFutureEventsRule(calendar: calendar, now: now), OCKAlertRulesStoreRule()]
    }

    /// Adds `recordRules` to `store`.
    public func installRules(on store: OCKStore) {
        for rule in recordRules { store.addRule(rule) }
    }
}

extension CareServer.Configuration {
    /// A record's app on the demo plan, as `serve --demo` sets it up (the benchmarks' record).
    package static func demo(timeZone: TimeZone, now: @escaping @Sendable () -> Date) -> Self {
        var configuration = CarePlanCatalog.configuration(for: CareRecord(patientName: "", timeZoneIdentifier: timeZone.identifier,
                                                                          carePlan: CarePlanCatalog.demo, createdDate: now()))
        configuration.now = now
        return configuration
    }
}
