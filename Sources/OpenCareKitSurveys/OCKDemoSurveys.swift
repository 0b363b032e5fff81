import Foundation
import OpenCareKitStore

/// The surveys of the demo care plan: the onboarding of seed 004's WWDC21 app (welcome; "before you join"; informed
/// consent with a signature; notifications; completion) and a daily check-in, keyed by the id of the task that
/// runs them.
public enum OCKDemoSurveys {
    /// The id of the demo's onboarding task, which gates the care feed.
    public static let onboardingTaskID = "onboarding"
    /// The id of the demo's daily check-in task.
    public static let checkInTaskID = "check-in"

    /// Each survey by the id of its task.
    public static var byTaskID: [String: OCKSurvey] { [onboardingTaskID: onboarding, checkInTaskID: checkIn] }

    /// The demo's informed consent, version `1.0`, in four sections: the study, what the participant does, their data,
    /// and that taking part is voluntary.
    public static let consent = OCKConsentDocument(version: "1.0", title: "Informed Consent", sections: [
        .init(title: "About the study",
              summary: "This study follows your recovery after knee surgery for twelve weeks.",
              learnMore: "The study team looks at how medications, exercises and sleep relate to pain and swelling, to improve recovery plans."),
        .init(title: "What you will do",
              summary: "Each day you mark the tasks of your care plan and answer a short check-in: pain, sleep and exercises.",
              learnMore: "The check-in takes about a minute. You can skip a day; nothing happens if you do."),
        .init(title: "Your data",
              summary: "Your answers and task outcomes are kept in your care record and shared only with your care team.",
              learnMore: "Your record is never sold and never used for advertising. The study team sees it without your name."),
        .init(title: "Taking part is voluntary",
              summary: "You may stop at any time, without giving a reason and without any effect on your care.",
              learnMore: "To stop, tell your care team. What you recorded until then stays in your care record."),
    ])

    /// The onboarding (task `onboardingTaskID`): welcome; "before you join"; the consent to read; the signature;
    /// notifications (optional); completion.
    public static let onboarding: OCKSurvey = {
        do {
            return try OCKSurvey(id: "onboarding", title: "Welcome to the knee recovery study", steps: [
                OCKSurveyStep(id: "welcome", kind: .instruction(OCKInstructionContent(
                    title: "Welcome", detail: "Thank you for joining our study. Tap Next to learn more before signing up.", image: "heart"))),
                OCKSurveyStep(id: "before-you-join", kind: .instruction(OCKInstructionContent(
                    title: "Before you join", detail: nil, bodyItems: [
                        .init(icon: "heart", text: "The study will ask you to share some of your health data."),
                        .init(icon: "checklist", text: "You will be asked to complete various tasks over the duration of the study."),
                        .init(icon: "signature", text: "Before joining, we will ask you to sign an informed consent document."),
                        .init(icon: "lock", text: "Your data is kept private and secure."),
                    ]))),
                OCKSurveyStep(id: "consent-review", kind: .consentReview(consent)),
                OCKSurveyStep(id: "signature", kind: .signature(documentVersion: consent.version)),
                OCKSurveyStep(id: "notifications", kind: .permissions([
                    OCKPermission(kind: .notifications,
                                  explanation: "Reminders help you keep to your care plan: a notification when a task is due. This is optional; you can skip it."),
                ]), isOptional: true),
                OCKSurveyStep(id: "completion", kind: .completion(OCKInstructionContent(
                    title: "Enrollment complete", detail: "Thank you for enrolling. Your care plan is ready.", image: "checklist"))),
            ])
        } catch {
            preconditionFailure("The demo onboarding survey is well formed.")
        }
    }()

    /// The daily check-in (task `checkInTaskID`): pain on a 0–10 scale (`pain`), hours slept (`sleep`, 0–24 hours) and
    /// whether the knee exercises were done (`exercises`, yes or no); every question required.
    public static let checkIn: OCKSurvey = {
        do {
            return try OCKSurvey(id: "check-in", title: "Daily check-in", steps: [
                OCKSurveyStep(id: "pain", kind: .question(prompt: "How would you rate your pain today?",
                                                          format: .scale(minimum: 0, maximum: 10, minimumLabel: "no pain",
                                                                         maximumLabel: "worst pain imaginable"))),
                OCKSurveyStep(id: "sleep", kind: .question(prompt: "How many hours did you sleep last night?",
                                                           format: .numeric(unit: "hours", minimum: 0, maximum: 24))),
                OCKSurveyStep(id: "exercises", kind: .question(prompt: "Did you do your knee exercises?", format: .yesNo)),
            ])
        } catch {
            preconditionFailure("The demo check-in survey is well formed.")
        }
    }()

    /// The onboarding survey's outcome values, finished at `time` and signed with the typed name `signerName` (no drawn
    /// signature): what a patient who onboards gives, for seeding a demo store.
    public static func signedOnboarding(signerName: String, at time: Date) throws -> [OCKOutcomeValue] {
        var session = OCKSurveySession(survey: onboarding)
        try session.record(.consentReviewed(version: consent.version), for: "consent-review")
        try session.record(.signature(OCKSignature(fullName: signerName, image: nil, agreed: true, date: time)), for: "signature")
        try session.record(.permissions(["notifications": true]), for: "notifications")
        return try session.finish().outcomeValues(createdDate: time)
    }

    /// Finishes the demo plan's onboarding in `store` on `day` (its event that day, in `calendar`), the consent signed
    /// with the typed name `signerName` at `now` or the event's end, whichever is earlier: a demo store whose plan's
    /// outcomes can then be recorded (`OCKSurveyStoreRule`'s onboarding comes first).
    public static func completeOnboarding(in store: OCKStore, on day: Date, calendar: Calendar, signerName: String,
                                          now: Date = Date()) async throws {
        var query = OCKEventQuery(for: day, calendar: calendar)
        query.taskIDs = [onboardingTaskID]
        guard let event = try await store.fetchEvents(query: query).first else {
            throw OCKStoreError.fetchFailed(reason: "The store's plan has no onboarding that day")
        }
        try await store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                              values: try signedOnboarding(signerName: signerName, at: min(now, event.scheduleEvent.end))))
    }
}
