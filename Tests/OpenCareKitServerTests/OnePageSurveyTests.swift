import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// A check-in answered as one form (`/surveys/answer`): what a device keeps to answer it offline, and what its queue
/// sends — checked as the survey checks each step, saved once however often it is sent, and refused in words when
/// someone else answered meanwhile.
@Suite struct OnePageSurveyTests {
    /// The check-in's fields as the one form names them.
    static func answers(pain: String = "6", sleep: String? = "7", exercises: String = "false") -> [String: String] {
        var fields = ["pain.answer": pain, "exercises.answer": exercises]
        fields["sleep.answer"] = sleep
        return fields
    }

    /// Posts the one form for `event`; the status and what it says (a JSON error's or notice's message, or the page).
    static func post(_ client: any TestClientProtocol, _ event: OCKEvent<OCKTask, OCKOutcome>, _ extra: [String: String],
                     json: Bool = true) async throws -> (status: HTTPResponse.Status, text: String) {
        var headers = ServerFixture.formHeaders
        if json { headers[.accept] = "application/json" }
        return try await client.execute(uri: CareServer.onePageSurveyPath, method: .post, headers: headers,
                                        body: ServerFixture.form(ServerFixture.fields(event, extra))) { response in
            let body = String(buffer: response.body)
            let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
            let text = (object?["notice"] as? String) ?? ((object?["error"] as? [String: Any])?["message"] as? String) ?? body
            return (response.status, text.replacingOccurrences(of: "\u{202F}", with: " "))
        }
    }

    @Test func aCheckInAnsweredOnOneFormIsCheckedLikeItsStepsAndSavedOnce() async throws {
        let fixture = ServerFixture(surveys: true)
        let (hosted, directory, sam) = try await CareRoutesTests.recordWithSam(fixture)
        try await fixture.onboard(daysFromToday: -1)
        try await hosted.test(hosted.host(on: directory)) { client in
            let checkIn = try await fixture.event(OCKDemoSurveys.checkInTaskID)
            let address = "\(CareServer.onePageSurveyPath)?task=\(checkIn.task.uuid)&occurrence=\(checkIn.scheduleEvent.occurrence)&date=2026-11-16"
            // The card links the one form (hidden: the app's script opens it on a device offline).
            let care = try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { String(buffer: $0.body) }
            #expect(care.contains(#"data-ock-survey-page="" hidden="hidden" href="\#(client.recordBase)\#(address.replacingOccurrences(of: "&", with: "&amp;"))""#))
            // The form: every question, named after its step, with its own ids, posting back to itself.
            let page = try await client.execute(uri: address, method: .get, headers: ServerFixture.cookie) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
            #expect(page.contains(#"class="ock-survey ock-survey-one-page""#) && page.contains(#"action="\#(client.recordBase)/surveys/answer""#))
            for name in ["pain.answer", "sleep.answer", "exercises.answer"] { #expect(page.contains(#"name="\#(name)""#), "\(name)") }
            #expect(page.contains(#"id="ock-answer-0_pain""#) && page.contains(#"id="ock-answer_sleep""#) && page.contains(#"for="ock-answer_sleep""#))
            #expect(page.contains("How would you rate your pain today?") && page.contains(">Done<"))

            // A required question unanswered: refused at its step, the other answers shown again, nothing saved.
            let missing = try await Self.post(client, checkIn, Self.answers(sleep: nil), json: false)
            #expect(missing.status == .unprocessableContent)
            #expect(missing.text.contains(#"id="ock-step-error_sleep""#) && missing.text.contains(#"aria-describedby="ock-step-error_sleep""#))
            #expect(missing.text.contains(#"checked="checked" id="ock-answer-6_pain""#), "the pain answer is shown again")
            // An answer out of range, as JSON (the app's queue): refused with the survey's words.
            let outOfRange = try await Self.post(client, checkIn, Self.answers(pain: "99"))
            #expect(outOfRange.status == .unprocessableContent && outOfRange.text.contains("0") && outOfRange.text.contains("10"), "\(outOfRange.text)")
            #expect(try await fixture.event(OCKDemoSurveys.checkInTaskID).outcome == nil)

            // Answered, at the moment the person pressed Done (the app sends it), with its author.
            let acted = fixture.now.addingTimeInterval(-600)
            let moment = String(Int(acted.timeIntervalSince1970 * 1000))
            #expect(try await Self.post(client, checkIn, Self.answers().merging(["acted": moment]) { $1 }).status == .noContent)
            let saved = try #require(try await fixture.event(OCKDemoSurveys.checkInTaskID).outcome)
            #expect(saved.values.first { $0.kind == "pain" }?.integerValue == 6 && saved.values.first { $0.kind == "sleep" }?.doubleValue == 7)
            #expect(saved.values.first { $0.kind == "exercises" }?.booleanValue == false)
            #expect(saved.values.allSatisfy { abs($0.createdDate.timeIntervalSince(acted)) < 0.001 })
            #expect(saved.userInfo?[CareServer.authorKey] != nil && saved.userInfo?[CareServer.authorKey] != sam.id.description)
            // Sent again (its first answer lost): nothing more is saved.
            #expect(try await Self.post(client, checkIn, Self.answers().merging(["acted": moment]) { $1 }).status == .noContent)
            var query = OCKOutcomeQuery()
            query.taskIDs = [OCKDemoSurveys.checkInTaskID]
            #expect(try await fixture.store.fetchOutcomes(query: query).map(\.uuid) == [saved.uuid])
            // Answered already: the form is not offered again.
            #expect(try await client.execute(uri: address, method: .get, headers: ServerFixture.cookie) { $0.status } == .conflict)

            // Answered by Sam meanwhile: another form's answers are refused, naming who and when.
            try await fixture.store.deleteOutcome(saved)
            let samsValues = try OCKSurveySession.answered(OCKDemoSurveys.checkIn, [
                "pain": .answer(.scale(3)), "sleep": .answer(.number(8)), "exercises": .answer(.yesNo(true)),
            ]).outcomeValues(createdDate: fixture.now)
            try await fixture.store.addOutcome(OCKOutcome(taskUUID: checkIn.task.uuid, taskOccurrenceIndex: checkIn.scheduleEvent.occurrence,
                                                          values: samsValues).withUserInfo([CareServer.authorKey: sam.id.description]))
            let conflict = try await Self.post(client, checkIn, Self.answers().merging(["acted": moment]) { $1 })
            #expect(conflict.status == .conflict)
            #expect(conflict.text == "Sam Rivera answered Daily Check-in at 12:00 PM while you were offline, so these answers were not saved.",
                    "\(conflict.text)")
            #expect(try await fixture.event(OCKDemoSurveys.checkInTaskID).outcome?.values.first { $0.kind == "pain" }?.integerValue == 3)
            // The very answers, at the very moment, but Sam's: still not taken for this person's (nothing is silent).
            let sams = try #require(try await fixture.event(OCKDemoSurveys.checkInTaskID).outcome)
            try await fixture.store.deleteOutcome(sams)
            try await fixture.store.addOutcome(OCKOutcome(taskUUID: saved.taskUUID, taskOccurrenceIndex: saved.taskOccurrenceIndex,
                                                          values: saved.values).withUserInfo([CareServer.authorKey: sam.id.description]))
            #expect(try await Self.post(client, checkIn, Self.answers().merging(["acted": moment]) { $1 }).status == .conflict)

            // The onboarding, whose consent is read and signed step by step, has no one form.
            let onboarding = try await fixture.event(OCKDemoSurveys.onboardingTaskID, daysFromToday: -1)
            let onboardingAddress = "\(CareServer.onePageSurveyPath)?task=\(onboarding.task.uuid)&occurrence=\(onboarding.scheduleEvent.occurrence)&date=2026-11-15"
            #expect(try await client.execute(uri: onboardingAddress, method: .get, headers: ServerFixture.cookie) { $0.status } == .notFound)
            #expect(try await Self.post(client, onboarding, [:]).status == .unprocessableContent)
            // A malformed address says so.
            #expect(try await client.execute(uri: CareServer.onePageSurveyPath + "?task=x", method: .get, headers: ServerFixture.cookie) { $0.status }
                    == .badRequest)
        }
    }
}

extension OCKSurveySession {
    /// The finished survey with `results`, recorded step by step.
    static func answered(_ survey: OCKSurvey, _ results: [String: OCKStepResult]) throws -> OCKSurveyResult {
        var session = OCKSurveySession(survey: survey)
        for (step, result) in results { try session.record(result, for: step) }
        return try session.finish()
    }
}

extension OCKOutcome {
    func withUserInfo(_ userInfo: [String: String]) -> OCKOutcome {
        var copy = self
        copy.userInfo = userInfo
        return copy
    }
}
