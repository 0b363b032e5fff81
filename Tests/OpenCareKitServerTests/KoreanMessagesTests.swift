import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI
import Testing

/// Every message a page shows when it refuses something is in the reader's language (issue 18): the tables have
/// each sentence in English and Korean with the same placeholders, and Korean readers get Korean from the routes.
@Suite struct KoreanMessagesTests {
    static let korean: HTTPFields = [.acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.5"]

    /// The placeholders of a template: "{0}", "{1}" ….
    private func placeholders(_ template: String) -> [String] {
        template.matches(of: /\{[0-9]\}/).map { String($0.output) }.sorted()
    }

    private func isKorean(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
    }

    @Test func everyErrorSentenceIsKoreanWithTheEnglishPlaceholders() {
        for text in ErrorText.allCases {
            #expect(isKorean(text.korean), "\(text)")
            #expect(placeholders(text.korean) == placeholders(text.english), "\(text)")
        }
        let english = OCKLocalization(language: .english), korean = OCKLocalization(language: .korean)
        for key in OCKStringKey.allCases {
            let template = (english.string(key, arguments: []), korean.string(key, arguments: []))
            #expect(placeholders(template.1) == placeholders(template.0), "\(key)")
        }
    }

    @Test func aSurveysRefusalReadsInTheParticipantsLanguage() throws {
        let survey = try OCKSurvey(id: "check-in", title: "Check-in", steps: [
            OCKSurveyStep(id: "pain", kind: .question(prompt: "Pain", format: .scale(minimum: 0, maximum: 10, minimumLabel: "", maximumLabel: ""))),
        ])
        var session = OCKSurveySession(survey: survey)
        let error = try #require(throws: OCKSurveyError.self) { try session.record(.answer(.scale(11)), for: "pain") }
        #expect(error.message == "The answer must be from 0 to 10.")
        #expect(error.message(OCKLocalization(language: .korean)) == "응답은 0부터 10까지여야 합니다.")
        #expect(OCKSurveyError.missingAnswer(stepID: "pain").message(OCKLocalization(language: .korean)) == "이 단계에는 응답이 필요합니다.")
    }

    @Test func theCareRoutesRefuseInKorean() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            // An error page.
            try await client.execute(uri: "/care?date=yesterday", method: .get, headers: Self.korean) { response in
                #expect(response.status == .badRequest)
                let html = String(buffer: response.body)
                #expect(html.contains(ErrorText.badDay.korean))
                #expect(!html.contains(ErrorText.badDay.english))
            }
            // A card's form answered as JSON, which the page's script shows beside the card.
            var headers = ServerFixture.formHeaders
            headers[.accept] = "application/json"
            headers[.acceptLanguage] = "ko"
            let checklist = try await fixture.event("ibuprofen")
            try await client.execute(uri: "/care/events/log", method: .post, headers: headers,
                                     body: ServerFixture.form(ServerFixture.fields(checklist))) { response in
                #expect(response.status == .unprocessableContent)
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]]
                #expect(json?["error"]?["message"] as? String == #""task" 항목의 작업에는 기록 카드가 없습니다. 이 작업은 기록하지 않고 완료합니다."#)
            }
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers,
                                     body: ServerFixture.form(ServerFixture.fields(checklist, ["complete": "yes"]))) { response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]]
                #expect(json?["error"]?["message"] as? String == #""complete" 항목은 true 또는 false여야 합니다."#)
            }
            // The same form as a page, without the token: the expired-form page.
            var page = Self.korean
            page[.contentType] = "application/x-www-form-urlencoded"
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: page,
                                     body: ServerFixture.form(ServerFixture.fields(checklist, ["complete": "true"]))) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains(ErrorText.formExpired.korean))
            }
            // English readers still get English.
            headers[.acceptLanguage] = "en"
            try await client.execute(uri: "/care/events/log", method: .post, headers: headers,
                                     body: ServerFixture.form(ServerFixture.fields(checklist))) { response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]]
                #expect(json?["error"]?["message"] as? String == #"The field "task" has no log card: its events are completed, not logged."#)
            }
            #expect(try await fixture.event("ibuprofen").outcome == nil)
        }
    }
}
