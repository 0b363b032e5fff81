import Hummingbird
import OpenCareKitUI
import Testing

/// Why form bodies are read by `OCKFormBody` (through `FormFields`) and not by Hummingbird's `URLEncodedFormDecoder`:
/// the decoder refuses what browsers post for a question with several answers, and its errors quote what was typed.
/// If a later Hummingbird reads such bodies and keeps values out of its errors, these tests fail and the decoder can
/// take over.
@Suite struct FormBodyTests {
    /// The answers of a multiple-choice question are checkboxes of one name; a browser posts each checked one.
    static let checkboxes = "symptoms=nausea&symptoms=headache&note=Feeling+dizzy%2C+tired"

    struct SymptomsForm: Decodable {
        let symptoms: [String]
        let note: String
    }

    struct NoteForm: Decodable {
        let note: String
    }

    @Test func checkboxesOfOneNameAreReadInOrder() {
        #expect(OCKFormBody.fields(Self.checkboxes) == ["symptoms": ["nausea", "headache"], "note": ["Feeling dizzy, tired"]])
    }

    @Test func hummingbirdsDecoderRefusesCheckboxesOfOneName() {
        #expect(throws: URLEncodedFormError.self) { try URLEncodedFormDecoder().decode(SymptomsForm.self, from: Self.checkboxes) }
    }

    /// A note whose percent-encoding is broken (a hand-made request): the decoder's error repeats the note, which
    /// would put what a patient wrote into logs; `OCKFormBody` reads it as empty, so the form asks again.
    @Test func hummingbirdsDecoderQuotesTheValueInItsError() throws {
        let body = "note=blood%2sugar+high"
        let error = try #require(throws: URLEncodedFormError.self) { try URLEncodedFormDecoder().decode(NoteForm.self, from: body) }
        #expect(String(describing: error).contains("sugar"))
        #expect(OCKFormBody.fields(body) == ["note": [""]])
    }
}
