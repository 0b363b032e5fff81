import Foundation
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI
import Testing

@Suite struct SurveyPagesTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    static let action = OCKFormAction(url: SafeURL("/surveys/abc")!, fields: ["csrf": "token"])

    static func step(_ id: String, in survey: OCKSurvey = OCKDemoSurveys.checkIn) -> OCKSurveyStep {
        survey.step(id)!
    }

    @Test func formFieldsBecomeTypedResults() throws {
        let now = Date(timeIntervalSince1970: 1_763_280_000)
        func result(_ step: OCKSurveyStep, _ fields: [String: [String]]) throws -> OCKStepResult? {
            try OCKSurveyForm.result(for: step, fields: fields, now: now, timeZone: Self.seoul)
        }
        #expect(try result(Self.step("pain"), ["answer": ["7"]]) == .answer(.scale(7)))
        #expect(try result(Self.step("pain"), [:]) == nil)
        #expect(try result(Self.step("pain"), ["answer": ["  "]]) == nil)
        #expect(try result(Self.step("sleep"), ["answer": ["6,5"]]) == .answer(.number(6.5)))
        #expect(try result(Self.step("exercises"), ["answer": ["false"]]) == .answer(.yesNo(false)))
        #expect(throws: OCKSurveyError.self) { try result(Self.step("pain"), ["answer": ["7", "8"]]) }
        #expect(throws: OCKSurveyError.self) { try result(Self.step("sleep"), ["answer": ["inf"]]) }
        #expect(throws: OCKSurveyError.self) { try result(Self.step("exercises"), ["answer": ["yes"]]) }

        let choices = OCKSurveyStep(id: "symptoms", kind: .question(prompt: "Symptoms", format: .multipleChoice([
            OCKChoice(id: "nausea", text: "Nausea"), OCKChoice(id: "swelling", text: "Swelling"),
        ])))
        #expect(try result(choices, ["answer": ["nausea", "swelling"]]) == .answer(.choices(["nausea", "swelling"])))
        let when = OCKSurveyStep(id: "when", kind: .question(prompt: "When?", format: .dateTime))
        let answer = try result(when, ["answer": ["2026-11-16T08:30"]])
        #expect(answer == .answer(.date(Date(timeIntervalSince1970: 1_794_785_400)))) // 08:30 in Seoul is 23:30 UTC the day before
        #expect(throws: OCKSurveyError.self) { try result(when, ["answer": ["2026-02-30T08:30"]]) }
        #expect(throws: OCKSurveyError.self) { try result(when, ["answer": ["yesterday"]]) }

        let onboarding = OCKDemoSurveys.onboarding
        let signature = try #require(try result(Self.step("signature", in: onboarding), [
            "fullName": [" Alex Rivera "], "agree": ["true"], "signature": ["data:image/png;base64,iVBORw0KGgo="],
        ]))
        #expect(signature == .signature(OCKSignature(fullName: "Alex Rivera", image: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
                                                     agreed: true, date: now)))
        #expect(throws: OCKSurveyError.self) {
            try result(Self.step("signature", in: onboarding), ["fullName": ["Alex"], "signature": ["javascript:alert(1)"]])
        }
        #expect(try result(Self.step("notifications", in: onboarding), ["permission.notifications": ["granted"]])
            == .permissions(["notifications": true]))
        #expect(try result(Self.step("notifications", in: onboarding), [:]) == .permissions(["notifications": false]))
        #expect(try result(Self.step("welcome", in: onboarding), ["answer": ["x"]]) == nil)
    }

    @Test func aDateTimeAnswerSurvivesTheRoundTripThroughItsField() {
        let date = Date(timeIntervalSince1970: 1_794_785_400)
        let text = OCKSurveyForm.localDateTime(date, timeZone: Self.seoul)
        #expect(text == "2026-11-16T08:30")
        #expect(OCKSurveyForm.date(fromLocal: text, timeZone: Self.seoul) == date)
        // 02:30 on 8 March 2026 does not exist in New York (clocks jump from 2:00 to 3:00).
        #expect(OCKSurveyForm.date(fromLocal: "2026-03-08T02:30", timeZone: TimeZone(identifier: "America/New_York")!) == nil)
    }

    @Test func aSignedConsentTravelsInOutcomeValuesWithItsHash() throws {
        // SHA-256 of "abc" (FIPS 180-2's example).
        #expect(OCKSignedConsent.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var session = OCKSurveySession(survey: OCKDemoSurveys.onboarding)
        let signed = Date(timeIntervalSince1970: 1_763_280_000)
        let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try session.record(.consentReviewed(version: "1.0"), for: "consent-review")
        try session.record(.signature(OCKSignature(fullName: "Alex Rivera", image: image, agreed: true, date: signed)), for: "signature")
        try session.record(.permissions(["notifications": false]), for: "notifications")
        let result = try session.finish()
        let values = result.outcomeValues(createdDate: signed)
        #expect(values.map(\.kind) == ["consent.version", "consent.title", "consent.text", "consent.textSHA256", "consent.signer",
                                       "consent.date", "consent.signature", "permission.notifications"])
        let consent = try #require(OCKSignedConsent(values: values))
        #expect(consent == result.signedConsents.first)
        #expect(consent.documentText == OCKDemoSurveys.consent.text && consent.isIntact)
        #expect(consent.signatureImage == image && consent.signedDate == signed && consent.signerName == "Alex Rivera")
        // A changed text no longer matches its hash; a partial record is no consent.
        var altered = consent
        altered.documentText += " (amended)"
        #expect(!altered.isIntact)
        #expect(OCKSignedConsent(values: Array(values.dropFirst())) == nil)
        // Values survive the store's JSON (the binary signature included).
        let decoded = try JSONDecoder().decode([OCKOutcomeValue].self, from: JSONEncoder().encode(values))
        #expect(OCKSignedConsent(values: decoded) == consent)
    }

    @Test func aSurveyWithNoAnswersStillRecordsThatItWasDone() throws {
        let survey = try OCKSurvey(id: "optional", title: "Optional", steps: [
            OCKSurveyStep(id: "notes", kind: .question(prompt: "Notes", format: .text(maximumLength: 10)), isOptional: true),
        ])
        var session = OCKSurveySession(survey: survey)
        try session.next()
        let values = try session.finish().outcomeValues(createdDate: Date(timeIntervalSince1970: 5))
        #expect(values.count == 1 && values[0].kind == OCKSurveyResult.completedKind && values[0].dateValue == Date(timeIntervalSince1970: 5))
    }

    @Test func surveysThatCannotBeAnsweredOrSkipConsentAreRefused() {
        let document = OCKConsentDocument(version: "1", title: "Consent", sections: [])
        let review = OCKSurveyStep(id: "review", kind: .consentReview(document))
        let cases: [[OCKSurveyStep]] = [
            [OCKSurveyStep(id: "sign", kind: .signature(documentVersion: "2.0"))],
            [review, OCKSurveyStep(id: "sign", kind: .signature(documentVersion: "1"), isOptional: true)],
            [OCKSurveyStep(id: "review", kind: .consentReview(document), isOptional: true)],
            [OCKSurveyStep(id: "q", kind: .question(prompt: "?", format: .scale(minimum: 10, maximum: 0, minimumLabel: "", maximumLabel: "")))],
            [OCKSurveyStep(id: "q", kind: .question(prompt: "?", format: .numeric(unit: nil, minimum: 0, maximum: .infinity)))],
            [OCKSurveyStep(id: "q", kind: .question(prompt: "?", format: .singleChoice([])))],
            [OCKSurveyStep(id: "q", kind: .question(prompt: "?", format: .multipleChoice([OCKChoice(id: "a", text: "A"), OCKChoice(id: "a", text: "B")])))],
            [OCKSurveyStep(id: "q", kind: .question(prompt: "?", format: .text(maximumLength: 0)))],
        ]
        for steps in cases {
            #expect(throws: OCKSurveyError.self) { try OCKSurvey(id: "x", title: "x", steps: steps) }
        }
    }

    @Test func longTextIsMeasuredInBytesToo() throws {
        var session = OCKSurveySession(survey: try OCKSurvey(id: "x", title: "x", steps: [
            OCKSurveyStep(id: "notes", kind: .question(prompt: "Notes", format: .text(maximumLength: 10))),
        ]))
        // One character on screen, thousands of bytes: combining marks.
        let heavy = "e" + String(repeating: "\u{301}", count: 5000)
        #expect(heavy.count == 1)
        #expect(throws: OCKSurveyError.self) { try session.record(.answer(.text(heavy)), for: "notes") }
        try session.record(.answer(.text("été")), for: "notes")
    }

    @Test func theDemoOnboardingIsTheWWDCFlow() {
        let steps = OCKDemoSurveys.onboarding.steps
        #expect(steps.map(\.id) == ["welcome", "before-you-join", "consent-review", "signature", "notifications", "completion"])
        guard case let .instruction(content) = steps[1].kind else { Issue.record("not an instruction"); return }
        #expect(content.bodyItems.count == 4 && content.bodyItems.allSatisfy { OCKIcon(rawValue: $0.icon) != nil })
        #expect(steps[4].isOptional)
        #expect(OCKDemoSurveys.checkIn.steps.map(\.id) == ["pain", "sleep", "exercises"])
    }

    @Test func stepPagesShowProgressTheirControlsAndTheRightButtons() {
        func html(_ step: OCKSurveyStep, _ survey: OCKSurvey = OCKDemoSurveys.checkIn, at position: Int, of count: Int,
                  result: OCKStepResult? = nil, error: String? = nil) -> String {
            OCKSurveyStepView(survey: survey, step: step, progress: (position, count), result: result, error: error, action: Self.action)
                .render().rendered
        }
        let pain = html(Self.step("pain"), at: 1, of: 3)
        #expect(pain.contains("Step 1 of 3") && pain.contains(#"<progress aria-hidden="true" max="3" value="1">"#))
        #expect(pain.components(separatedBy: #"type="radio""#).count - 1 == 11)
        #expect(pain.contains("0 means no pain; 10 means worst pain imaginable."))
        #expect(pain.contains(#"required="required""#) && !pain.contains(#"value="back""#) && !pain.contains(#"value="skip""#))
        #expect(pain.contains(#"<input name="csrf" type="hidden" value="token">"#) && pain.contains(#"name="step" type="hidden" value="pain""#))
        // Next comes first, so Enter means Next; the last step says Done.
        #expect(pain.range(of: #"value="next""#)!.lowerBound < pain.range(of: #"value="cancel""#)!.lowerBound)
        let exercises = html(Self.step("exercises"), at: 3, of: 3, result: .answer(.yesNo(true)))
        #expect(exercises.contains(">Done<") && exercises.contains(#"value="back""#))
        #expect(exercises.contains(#"checked="checked" id="ock-answer-0""#))
        let sleep = html(Self.step("sleep"), at: 2, of: 3, result: .answer(.number(7.5)), error: "The answer must be a number.")
        #expect(sleep.contains(#"max="24""#) && sleep.contains(#"value="7.5""#) && sleep.contains(">hours<"))
        #expect(sleep.contains(#"aria-describedby="ock-step-error""#) && sleep.contains(#"aria-invalid="true""#) && sleep.contains(#"role="alert""#))

        let symptoms = OCKSurveyStep(id: "symptoms", kind: .question(prompt: "Symptoms", format: .multipleChoice([
            OCKChoice(id: "nausea", text: "Nausea"), OCKChoice(id: "swelling", text: "Swelling"),
        ])), isOptional: true)
        let checkboxes = html(symptoms, at: 1, of: 1, result: .answer(.choices(["swelling"])))
        #expect(checkboxes.components(separatedBy: #"type="checkbox""#).count - 1 == 2 && !checkboxes.contains("required"))
        #expect(checkboxes.contains(#"checked="checked" id="ock-answer-1""#) && checkboxes.contains(#"value="skip""#))
        let notes = html(OCKSurveyStep(id: "notes", kind: .question(prompt: "Notes", format: .text(maximumLength: 500))), at: 1, of: 1,
                         result: .answer(.text("Slept <badly>")))
        #expect(notes.contains(#"maxlength="500""#) && notes.contains(">Slept &lt;badly&gt;</textarea>") && !notes.contains("value=\"Slept"))
        let when = html(OCKSurveyStep(id: "when", kind: .question(prompt: "When?", format: .dateTime)), at: 1, of: 1,
                        result: .answer(.date(Date(timeIntervalSince1970: 1_794_785_400))))
        #expect(when.contains(#"type="datetime-local""#) && when.contains(#"<label class="ock-survey-question" for="ock-answer">When?</label>"#))

        let onboarding = OCKDemoSurveys.onboarding
        let permissions = html(Self.step("notifications", in: onboarding), onboarding, at: 5, of: 6)
        #expect(permissions.contains(#"value="skip""#) && permissions.contains(#"data-ock-permission="notifications""#))
        let signature = html(Self.step("signature", in: onboarding), onboarding, at: 4, of: 6)
        #expect(signature.contains("<canvas") && signature.contains("Informed Consent, version 1.0"))
        #expect(signature.contains(#"autocomplete="name""#) && signature.contains("I agree to take part"))
        let korean = OCKSurveyStepView(survey: onboarding, step: Self.step("signature", in: onboarding), progress: (4, 6), action: Self.action)
            .render(in: OCKRenderContext(localization: OCKLocalization(language: .korean, timeZone: Self.seoul))).rendered
        #expect(korean.contains("6단계 중 4단계") && korean.contains("서명 지우기"))
    }

    @Test func hostileSurveyTextStaysText() throws {
        let evil = #"<script>alert("x")</script>&"'"#
        let survey = try OCKSurvey(id: evil, title: evil, steps: [
            OCKSurveyStep(id: evil, kind: .instruction(OCKInstructionContent(title: evil, detail: evil, image: evil,
                                                                              bodyItems: [.init(icon: evil, text: evil)]))),
            OCKSurveyStep(id: "review", kind: .consentReview(OCKConsentDocument(version: evil, title: evil, sections: [
                .init(title: evil, summary: evil, learnMore: evil),
            ]))),
            OCKSurveyStep(id: "sign", kind: .signature(documentVersion: evil)),
            OCKSurveyStep(id: "choose", kind: .question(prompt: evil, format: .singleChoice([OCKChoice(id: evil, text: evil)]))),
            OCKSurveyStep(id: "scale", kind: .question(prompt: evil, format: .scale(minimum: 0, maximum: 2, minimumLabel: evil, maximumLabel: evil))),
        ])
        for (index, step) in survey.steps.enumerated() {
            let html = OCKSurveyStepView(survey: survey, step: step, progress: (index + 1, survey.steps.count),
                                         result: .signature(OCKSignature(fullName: evil, image: nil, agreed: true, date: Date())),
                                         error: evil, action: Self.action).render().rendered
            #expect(!html.contains("<script") && html.contains("&lt;script&gt;"), "\(step.id)")
        }
        let consent = OCKSignedConsent(document: OCKConsentDocument(version: evil, title: evil, sections: []),
                                       signature: OCKSignature(fullName: evil, image: Data(evil.utf8), agreed: true, date: Date()))
        let view = OCKSignedConsentView(consent: consent, signatureImage: SafeURL("/consent/x/signature.png"))
        for html in [view.render().rendered, view.document(in: .standard)] {
            #expect(!html.contains("<script") && html.contains("&lt;script&gt;"))
        }
        // Bytes that are not a PNG never become an image of the document.
        #expect(!view.document(in: .standard).contains("data:"))
        let card = OCKSurveyTaskView(title: evil, instructions: evil, isComplete: true, startAction: nil, deleteURL: SafeURL("/x?a=1&b=2"))
        #expect(!card.render().rendered.contains("<script") && card.render().rendered.contains(#"href="/x?a=1&amp;b=2""#))
    }
}
