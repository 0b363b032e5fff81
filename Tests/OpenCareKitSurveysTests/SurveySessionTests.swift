import Foundation
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

@Suite struct SurveySessionTests {
    static let consent = OCKConsentDocument(version: "1.0", title: "Informed consent", sections: [
        .init(title: "Data", summary: "We collect your task outcomes.", learnMore: "Only the study team sees them."),
        .init(title: "Time", summary: "About five minutes a day."),
    ])

    static func onboarding() throws -> OCKSurvey {
        try OCKSurvey(id: "onboarding", title: "Welcome", steps: [
            OCKSurveyStep(id: "welcome", kind: .instruction(.init(title: "Welcome"))),
            OCKSurveyStep(id: "review", kind: .consentReview(consent)),
            OCKSurveyStep(id: "signature", kind: .signature(documentVersion: "1.0")),
            OCKSurveyStep(id: "permissions", kind: .permissions([OCKPermission(kind: .notifications, explanation: "Reminders")]),
                          isOptional: true),
            OCKSurveyStep(id: "done", kind: .completion(.init(title: "All set"))),
        ])
    }

    static func checkIn() throws -> OCKSurvey {
        try OCKSurvey(id: "check-in", title: "Daily check-in", steps: [
            OCKSurveyStep(id: "pain", kind: .question(prompt: "Pain", format: .scale(minimum: 0, maximum: 10, minimumLabel: "None",
                                                                                     maximumLabel: "Worst"))),
            OCKSurveyStep(id: "sleep", kind: .question(prompt: "Hours slept", format: .numeric(unit: "h", minimum: 0, maximum: 24))),
            OCKSurveyStep(id: "exercises", kind: .question(prompt: "Did you do your knee exercises?", format: .yesNo)),
            OCKSurveyStep(id: "symptoms", kind: .question(prompt: "Symptoms", format: .multipleChoice([
                OCKChoice(id: "nausea", text: "Nausea"), OCKChoice(id: "swelling", text: "Swelling"),
            ])), isOptional: true),
            OCKSurveyStep(id: "notes", kind: .question(prompt: "Anything else?", format: .text(maximumLength: 500)), isOptional: true),
        ])
    }

    @Test func surveysNeedStepsWithUniqueIdentifiers() {
        #expect(throws: OCKSurveyError.self) { try OCKSurvey(id: "x", title: "x", steps: []) }
        let step = OCKSurveyStep(id: "a", kind: .instruction(.init(title: "A")))
        #expect(throws: OCKSurveyError.self) { try OCKSurvey(id: "x", title: "x", steps: [step, step]) }
    }

    @Test func aSnapshotResumesTheSessionAndOneTheSurveyWouldNotTakeIsRefused() throws {
        var session = OCKSurveySession(survey: try Self.onboarding())
        try session.next()
        try session.record(.consentReviewed(version: "1.0"), for: "review")
        try session.next()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try session.record(.signature(OCKSignature(fullName: "Alex Rivera", image: png, agreed: true,
                                                   date: Date(timeIntervalSince1970: 1_700_000_000.25))), for: "signature")
        // Kept as JSON and read back, it resumes where it was, with every result.
        let kept = try JSONEncoder().encode(session.snapshot)
        let snapshot = try JSONDecoder().decode(OCKSurveySession.Snapshot.self, from: kept)
        var resumed = try OCKSurveySession(survey: try Self.onboarding(), restoring: snapshot)
        #expect(resumed == session)
        try resumed.next()
        #expect(resumed.progress == (4, 5))

        // Each answer kind survives the trip.
        var checkIn = OCKSurveySession(survey: try Self.checkIn())
        try checkIn.record(.answer(.scale(7)), for: "pain")
        try checkIn.record(.answer(.number(7.5)), for: "sleep")
        try checkIn.record(.answer(.yesNo(false)), for: "exercises")
        try checkIn.record(.answer(.choices(["nausea"])), for: "symptoms")
        try checkIn.record(.answer(.text("Knee \u{1F9B5} sore")), for: "notes")
        let checkInSnapshot = try JSONDecoder().decode(OCKSurveySession.Snapshot.self, from: JSONEncoder().encode(checkIn.snapshot))
        #expect(try OCKSurveySession(survey: try Self.checkIn(), restoring: checkInSnapshot) == checkIn)

        // What the survey would not take now is refused, not resumed.
        var outOfRange = checkInSnapshot
        outOfRange.results["pain"] = .answer(.scale(11))
        #expect(throws: OCKSurveyError.self) { try OCKSurveySession(survey: try Self.checkIn(), restoring: outOfRange) }
        var otherStep = snapshot
        otherStep.results["pain"] = .answer(.scale(1))
        #expect(throws: OCKSurveyError.unknownStep("pain")) { try OCKSurveySession(survey: try Self.onboarding(), restoring: otherStep) }
        var pastTheEnd = snapshot
        pastTheEnd.step = 5
        #expect(throws: OCKSurveyError.unknownStep("#5")) { try OCKSurveySession(survey: try Self.onboarding(), restoring: pastTheEnd) }
        var unsignedAhead = snapshot
        unsignedAhead.step = 3
        unsignedAhead.results["signature"] = nil
        #expect(throws: OCKSurveyError.missingAnswer(stepID: "signature")) {
            try OCKSurveySession(survey: try Self.onboarding(), restoring: unsignedAhead)
        }
    }

    @Test func nextRefusesRequiredStepsBackKeepsAnswersAndProgressCounts() throws {
        var session = OCKSurveySession(survey: try Self.onboarding())
        #expect(session.progress == (1, 5))
        try session.next() // instructions need nothing
        #expect(session.progress == (2, 5))
        #expect(throws: OCKSurveyError.missingAnswer(stepID: "review")) { try session.next() }
        try session.record(.consentReviewed(version: "1.0"), for: "review")
        try session.next()
        let signature = OCKSignature(fullName: "Alex Rivera", image: nil, agreed: true, date: Date(timeIntervalSince1970: 0))
        try session.record(.signature(signature), for: "signature")
        session.back()
        session.back()
        #expect(session.progress == (1, 5))
        #expect(session.results["review"] == .consentReviewed(version: "1.0"))
        try session.next(); try session.next(); try session.next()
        // Permissions are optional: Next without a choice records a skip.
        try session.next()
        #expect(session.results["permissions"] == .skipped)
        #expect(session.isAtLastStep)
        let result = try session.finish()
        #expect(result.results["signature"] == .signature(signature))
    }

    @Test func badResultsAreRefusedAndNothingIsRecorded() throws {
        var session = OCKSurveySession(survey: try Self.onboarding())
        #expect(throws: OCKSurveyError.unknownStep("forged")) { try session.record(.skipped, for: "forged") }
        #expect(throws: OCKSurveyError.self) { try session.record(.consentReviewed(version: "0.9"), for: "review") }
        #expect(throws: OCKSurveyError.self) { try session.record(.answer(.yesNo(true)), for: "review") }
        #expect(throws: OCKSurveyError.missingAnswer(stepID: "signature")) { try session.record(.skipped, for: "signature") }
        let unsigned = OCKSignature(fullName: "Alex Rivera", image: nil, agreed: false, date: Date())
        #expect(throws: OCKSurveyError.self) { try session.record(.signature(unsigned), for: "signature") }
        let nameless = OCKSignature(fullName: "  ", image: nil, agreed: true, date: Date())
        #expect(throws: OCKSurveyError.self) { try session.record(.signature(nameless), for: "signature") }
        let huge = OCKSignature(fullName: "Alex", image: Data([0x89, 0x50, 0x4E, 0x47]) + Data(count: OCKSignature.maximumImageBytes),
                                agreed: true, date: Date())
        #expect(throws: OCKSurveyError.self) { try session.record(.signature(huge), for: "signature") }
        let notPNG = OCKSignature(fullName: "Alex", image: Data("<svg onload=alert(1)>".utf8), agreed: true, date: Date())
        #expect(throws: OCKSurveyError.self) { try session.record(.signature(notPNG), for: "signature") }
        #expect(throws: OCKSurveyError.self) { try session.record(.permissions(["camera": true]), for: "permissions") }
        #expect(session.results.isEmpty)
        #expect(throws: OCKSurveyError.notFinished) { try session.finish() }
    }

    @Test(arguments: [
        ("pain", OCKAnswer.scale(11)), ("pain", .scale(-1)), ("pain", .number(5)), ("sleep", .number(25)), ("sleep", .number(.nan)),
        ("exercises", .choice("yes")), ("symptoms", .choices(["fever"])), ("symptoms", .choices(["nausea", "nausea"])),
        ("notes", .text(String(repeating: "x", count: 501))),
    ])
    func answersOutsideTheirFormatAreRefused(step: String, answer: OCKAnswer) throws {
        var session = OCKSurveySession(survey: try Self.checkIn())
        #expect(throws: OCKSurveyError.self) { try session.record(.answer(answer), for: step) }
        #expect(session.results[step] == nil)
    }

    @Test func aCheckInBecomesOutcomeValuesKeyedByQuestion() throws {
        var session = OCKSurveySession(survey: try Self.checkIn())
        try session.record(.answer(.scale(6)), for: "pain")
        try session.record(.answer(.number(7.5)), for: "sleep")
        try session.record(.answer(.yesNo(true)), for: "exercises")
        try session.record(.answer(.choices(["nausea", "swelling"])), for: "symptoms")
        try session.record(.skipped, for: "notes")
        let created = Date(timeIntervalSince1970: 1_763_280_000)
        let values = try session.finish().outcomeValues(createdDate: created)
        #expect(values.map(\.kind) == ["pain", "sleep", "exercises", "symptoms", "symptoms"])
        #expect(values[0].integerValue == 6)
        #expect(values[1].doubleValue == 7.5 && values[1].units == "h")
        #expect(values[2].booleanValue == true)
        #expect(values[3].stringValue == "nausea" && values[4].stringValue == "swelling")
        #expect(values.allSatisfy { $0.createdDate == created })
    }

    @Test func theConsentTextIsWhatIsSigned() {
        #expect(Self.consent.text == "Informed consent\n\nData\n\nWe collect your task outcomes.\n\nOnly the study team sees them.\n\nTime\n\nAbout five minutes a day.")
    }
}
