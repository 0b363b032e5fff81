import Foundation
import OpenCareKit
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

extension CareServer.Configuration {
    /// A record's app on the demo plan, as `serve --demo` sets it up (the benchmarks' record).
    package static func demo(timeZone: TimeZone, now: @escaping @Sendable () -> Date) -> Self {
        var configuration = CarePlanCatalog.configuration(for: CareRecord(patientName: "", timeZoneIdentifier: timeZone.identifier,
                                                                          carePlan: CarePlanCatalog.demo, createdDate: now()))
        configuration.now = now
        return configuration
    }
}
