import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// Finding 5 of the hostile probe: the signed consent is kept and a survey task's outcome comes from its survey,
/// whoever writes — the JSON API as well as the pages, and anything writing through the same store.
@Suite struct ProtectedDataTests {
    /// Marks today's first event of `taskID` done with a plain Boolean, straight through the store.
    func done(_ taskID: String, _ fixture: ServerFixture) async throws -> OCKOutcome {
        let event = try await fixture.event(taskID)
        return try await fixture.store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                             values: [OCKOutcomeValue(true)]))
    }

    @Test func theAPICannotDeleteOrOverwriteTheSignedConsentNorDeleteTheOnboardingTask() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            let walker = SurveyWalker(client: client)
            #expect(try await walker.onboard(fixture) != nil)
            let consent = try #require(try await fixture.event("onboarding").outcome)
            #expect(OCKSignedConsent(values: consent.values) != nil)

            // DELETE answered 204 before this fix, and /consent then said none was signed.
            try await client.execute(uri: "/api/v1/outcomes/\(consent.uuid.uuidString)", method: .delete) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("The signed consent is kept"))
            }
            try await client.execute(uri: "/api/v1/tasks/onboarding", method: .delete) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("cannot be deleted"))
            }
            #expect(try await fixture.event("onboarding").outcome == consent)
            try await client.execute(uri: "/consent", method: .get) { response in
                #expect(String(buffer: response.body).contains("Alex Rivera"))
            }

            // Nor can a writer going straight to the store, or one appending a value (an update).
            await #expect(throws: OCKStoreError.self) { try await fixture.store.deleteOutcome(consent) }
            var changed = consent
            changed.values.append(OCKOutcomeValue(true))
            await #expect(throws: OCKStoreError.self) { try await fixture.store.updateOutcome(changed) }
            #expect(try await fixture.event("onboarding").outcome == consent)
        }
    }

    @Test func aSurveyTasksOutcomeComesOnlyFromItsSurvey() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            // A forged onboarding: one Boolean, no consent. The API accepted it before this fix, skipping the consent.
            let onboarding = try await fixture.event("onboarding")
            let forged = OCKOutcome(taskUUID: onboarding.task.uuid, taskOccurrenceIndex: onboarding.scheduleEvent.occurrence,
                                    values: [OCKOutcomeValue(true)])
            try await client.execute(uri: "/api/v1/outcomes", method: .post, headers: APIRoutesTests.json,
                                     body: try APIRoutesTests().body(forged)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("comes from its survey"))
            }
            // A consent whose text was changed after signing is refused too.
            let survey = OCKDemoSurveys.onboarding
            let document = try #require(survey.consentDocument(version: "1.0"))
            var signed = OCKSignedConsent(document: document, signature: OCKSignature(fullName: "Alex Rivera", image: nil, agreed: true, date: fixture.now))
            signed.documentText += " And the data may be sold."
            let tampered = OCKOutcome(taskUUID: onboarding.task.uuid, taskOccurrenceIndex: onboarding.scheduleEvent.occurrence,
                                      values: signed.outcomeValues(createdDate: fixture.now))
            await #expect(throws: OCKStoreError.self) { try await fixture.store.addOutcome(tampered) }
            #expect(try await fixture.event("onboarding").outcome == nil)
            // Onboarding comes first (yesterday's, to keep today's event free above).
            try await fixture.onboard(daysFromToday: -1)

            // A check-in answer out of range, or for a question the survey does not ask, is refused; a real one is
            // kept, and, not being a consent, can be deleted.
            let checkIn = try await fixture.event("check-in")
            func outcome(_ values: [OCKOutcomeValue]) -> OCKOutcome {
                OCKOutcome(taskUUID: checkIn.task.uuid, taskOccurrenceIndex: checkIn.scheduleEvent.occurrence, values: values)
            }
            let questions = OCKDemoSurveys.checkIn.steps.filter { if case .question = $0.kind { true } else { false } }
            let pain = try #require(questions.first)
            var outOfRange = OCKOutcomeValue(99)
            outOfRange.kind = pain.id
            var unknown = OCKOutcomeValue("x")
            unknown.kind = "not-a-question"
            for values in [[outOfRange], [unknown], [OCKOutcomeValue(true)]] {
                await #expect(throws: OCKStoreError.self) { try await fixture.store.addOutcome(outcome(values)) }
            }
            var session = OCKSurveySession(survey: OCKDemoSurveys.checkIn)
            try session.record(.answer(.scale(4)), for: "pain")
            try session.record(.answer(.number(7.5)), for: "sleep")
            try session.record(.answer(.yesNo(true)), for: "exercises")
            let result = try session.finish()
            let answered = try await fixture.store.addOutcome(outcome(result.outcomeValues(createdDate: fixture.now)))
            try await client.execute(uri: "/api/v1/outcomes/\(answered.uuid.uuidString)", method: .delete) { response in
                #expect(response.status == .noContent)
            }
        }
    }

    @Test func anOutcomeCannotBeMovedOntoASurveyTaskPastItsRule() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            // The record opens, and its store gets the app's rules, at its first request.
            try await client.execute(uri: "/care", method: .get) { #expect($0.status == .ok) }
            try await fixture.onboard(daysFromToday: -1)
            // A plain Boolean on an ordinary task, then a version of it moved onto the onboarding's event.
            let added = try await done("enoxaparin", fixture)
            let onboarding = try await fixture.event("onboarding")
            var moved = added
            moved.taskUUID = onboarding.task.uuid
            moved.taskOccurrenceIndex = onboarding.scheduleEvent.occurrence
            await #expect(throws: OCKStoreError.self) { try await fixture.store.updateOutcome(moved) }
            #expect(try await fixture.event("onboarding").outcome == nil)
            #expect(try await fixture.event("enoxaparin").outcome == added)
        }
    }

    @Test func withoutSurveysNothingIsProtected() async throws {
        // The rule belongs to the app's surveys: a store without them keeps CareKit's behaviour.
        let fixture = ServerFixture(surveys: false)
        try await fixture.test { client in
            // The record opens, and its store gets the app's rules, at its first request.
            try await client.execute(uri: "/care", method: .get) { #expect($0.status == .ok) }
            try await fixture.store.deleteOutcome(try await done("onboarding", fixture))
        }
    }
}
