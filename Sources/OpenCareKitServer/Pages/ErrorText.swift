import OpenCareKitSurveys
import OpenCareKitUI

/// What pages say when something is refused or fails, in every language the app speaks (the switches make a missing
/// translation a compile error). Sentences about a form field take the field's name as `{0}`. The JSON API's
/// messages (`CareServer+API`) and the refusals of malformed HTTP are for developers and stay in English.
enum ErrorText: String, CaseIterable, Sendable, HostWords {
    // Form fields (`FormError`)
    case fieldRequired, fieldNotUUID, fieldWholeNumber, fieldTrueOrFalse, fieldNumber, fieldNumberRange, fieldDay,
         fieldNoLogCard, fieldFutureEvent, fieldClockAhead, fieldHasNoSurvey, fieldDoneBySurvey, fieldKeepsConsent, fieldAlreadyAnswered,
         fieldOnboardingOnce, fieldSurveyStepByStep
    // Pages
    case formExpired, badDay, badPeriod, noSuchContact, noSuchSignature, noSuchConsent, signatureFormTooLarge,
         noSuchEvent, markedDoneMeanwhile, someoneMarkedDoneMeanwhile, markedNotDoneMeanwhile, recordedMeanwhile, someoneRecordedMeanwhile, answeredMeanwhile, someoneAnsweredMeanwhile, noDeletableAnswers, badSurveyAddress, finishOnboardingFirst, eventChanged, changeRefused, dayTooFull,
         planChanged, noSuchDemoPerson, noSuchRecord, roleDoesNotAllow
    // Surveys
    case surveyAnsweredElsewhere, surveySaveUnknown, surveySaving, surveySubmitted, surveyCancelled, surveyDiscarded,
         surveyNotOpen, surveyBadAction, surveyPageStale, surveyNotSavedRetry
    // Sharing and invitations
    case chooseCaregiverOrClinician, choosePersonAndRole, ownerRoleStays, personHasNoAccess, ownerCannotBeRemoved,
         giveYourName, giveEmail, passwordTooShort, passwordTooLong, tooManyInvitations, invitationForSecondPatient, serverBusy, tooManyRecords
    // Access tokens' scopes (`SMARTScope`)
    case scopePrefix, scopeForm, scopeResource, scopeOperations, scopeNoOperation, scopeCount

    var english: String {
        switch self {
        case .fieldRequired: "The field \"{0}\" is required."
        case .fieldNotUUID: "The field \"{0}\" must be a UUID."
        case .fieldWholeNumber: "The field \"{0}\" must be a whole number from {1} to {2}."
        case .fieldTrueOrFalse: "The field \"{0}\" must be true or false."
        case .fieldNumber: "The field \"{0}\" must be a number."
        case .fieldNumberRange: "The field \"{0}\" must be from {1} to {2}."
        case .fieldDay: "The field \"{0}\" must be a day written as YYYY-MM-DD."
        case .fieldNoLogCard: "The field \"{0}\" has no log card: its events are completed, not logged."
        case .fieldFutureEvent: "The field \"{0}\" is still to come: future events cannot change yet."
        case .fieldClockAhead: "The field \"{0}\" is a moment still to come: this device's clock is ahead. Set its time, then retry."
        case .fieldHasNoSurvey: "The field \"{0}\" has no survey."
        case .fieldSurveyStepByStep: "The survey of \"{0}\" is answered step by step: start it from its card."
        case .fieldDoneBySurvey: "The field \"{0}\" is done by answering its survey."
        case .fieldKeepsConsent: "The field \"{0}\" keeps a signed consent, which is never deleted."
        case .fieldAlreadyAnswered: "The field \"{0}\" is already done: delete its answers first to answer again."
        case .fieldOnboardingOnce: "The field \"{0}\" is done: onboarding happens once."
        case .formExpired: "The form has expired or did not come from this app. Reload the page and try again."
        case .badDay: "The date must be a day written as YYYY-MM-DD."
        case .badPeriod: "The period must be week, month or year."
        case .noSuchContact: "There is no such contact."
        case .noSuchSignature: "There is no such signature."
        case .noSuchConsent: "There is no such consent."
        case .signatureFormTooLarge: "The form is too large. A signature drawing may be at most {0} KiB."
        case .noSuchEvent: "That event does not exist."
        case .markedDoneMeanwhile: "{0} marked {1} done at {2} while you were offline."
        case .someoneMarkedDoneMeanwhile: "{1} was marked done at {2} while you were offline."
        case .markedNotDoneMeanwhile: "{1} was marked not done at {2} while you were offline."
        case .recordedMeanwhile: "{0} recorded {1} for {2} at {3} while you were offline."
        case .someoneRecordedMeanwhile: "{1} was recorded for {2} at {3} while you were offline."
        case .answeredMeanwhile: "{0} answered {1} at {2} while you were offline, so these answers were not saved."
        case .someoneAnsweredMeanwhile: "{1} was answered at {2} while you were offline, so these answers were not saved."
        case .noDeletableAnswers: "That event has no survey answers that can be deleted."
        case .badSurveyAddress: "The address must name a task, an occurrence and a day."
        case .finishOnboardingFirst: "Finish onboarding first: the care plan opens after it."
        case .eventChanged: "The event changed in the meantime. Reload the page and try again."
        case .changeRefused: "This change cannot be saved: it breaks a rule of the care plan or of CareKit's store."
        case .dayTooFull: "This day has more than {0} events, more than one page shows: remove tasks or make their schedules sparser."
        case .planChanged: "The care plan changed in the meantime, or this change conflicts with it. Reload the page and try again."
        case .noSuchDemoPerson: "There is no such demo person."
        case .noSuchRecord: "There is no such care record, or you have no access to it."
        case .roleDoesNotAllow: "Your role in this record ({0}) does not allow this."
        case .surveyAnsweredElsewhere:
            "This survey was already answered for that day (in another tab or device), or its task changed, so these answers were not saved."
        case .surveySaveUnknown: "Your answers are kept, but whether they were saved cannot be told just now. Open this survey again in a minute."
        case .surveySaving:
            "This survey's answers are being saved. Open this page again in a minute (or start the survey from its card, which comes back here)."
        case .surveySubmitted: "This survey was already submitted. Its answers were saved once; submitting again changed nothing."
        case .surveyCancelled: "This survey was cancelled, so nothing was saved. Start it again from its card."
        case .surveyDiscarded: "This survey's answers were not saved: that day's survey had been answered elsewhere, or its task changed."
        case .surveyNotOpen: "This survey is not open: it may have expired, or it was started in another browser. Start it again from its card."
        case .surveyBadAction: "The form's action must be next, back, skip or cancel."
        case .surveyPageStale: "That page was out of date: the survey had moved on. This is the current step."
        case .surveyNotSavedRetry: "The answers could not be saved. Nothing was lost: try again."
        case .chooseCaregiverOrClinician: "Choose caregiver or clinician (a record has one patient)."
        case .tooManyInvitations: "A record has at most {0} open invitations: revoke one first, or wait until one is accepted or expires."
        case .invitationForSecondPatient: "This invitation is for the record's patient, and the record has its patient already."
        case .serverBusy: "The server is busy with other reports and imports: try again in a few seconds."
        case .tooManyRecords: "An account owns at most {0} records."
        case .choosePersonAndRole: "Choose a person and a role."
        case .ownerRoleStays: "The owner's role stays as it is."
        case .personHasNoAccess: "That person has no access to this record."
        case .ownerCannotBeRemoved: "The record's owner cannot be removed."
        case .giveYourName: "Give your name (at most 200 characters)."
        case .giveEmail: "Give an email address."
        case .passwordTooShort: "The password must have at least {0} characters."
        case .passwordTooLong: "The password must be at most {0} bytes long."
        case .scopePrefix: "A scope starts with patient/ (a token opens one record)."
        case .scopeForm: "A scope has the form patient/Resource.cruds."
        case .scopeResource: "A scope names * or one of {0}."
        case .scopeOperations: "A scope's operations are letters of cruds, in that order, each at most once."
        case .scopeNoOperation: "A scope names at least one of c, r, u, d, s."
        case .scopeCount: "Give from 1 to 16 scopes."
        }
    }

    var korean: String {
        switch self {
        case .fieldRequired: "\"{0}\" 항목을 입력해야 합니다."
        case .fieldNotUUID: "\"{0}\" 항목은 UUID여야 합니다."
        case .fieldWholeNumber: "\"{0}\" 항목은 {1}부터 {2}까지의 정수여야 합니다."
        case .fieldTrueOrFalse: "\"{0}\" 항목은 true 또는 false여야 합니다."
        case .fieldNumber: "\"{0}\" 항목은 숫자여야 합니다."
        case .fieldNumberRange: "\"{0}\" 항목은 {1}부터 {2}까지여야 합니다."
        case .fieldDay: "\"{0}\" 항목은 YYYY-MM-DD 형식의 날짜여야 합니다."
        case .fieldNoLogCard: "\"{0}\" 항목의 작업에는 기록 카드가 없습니다. 이 작업은 기록하지 않고 완료합니다."
        case .fieldFutureEvent: "\"{0}\" 항목의 일정은 아직 오지 않았습니다. 앞으로의 일정은 아직 바꿀 수 없습니다."
        case .fieldClockAhead: "\"{0}\" 항목의 시각이 아직 오지 않았습니다. 이 기기의 시계가 빠릅니다. 시간을 맞춘 뒤 다시 시도하세요."
        case .fieldHasNoSurvey: "\"{0}\" 항목의 작업에는 설문이 없습니다."
        case .fieldSurveyStepByStep: "\"{0}\" 항목의 설문은 단계별로 응답합니다. 카드에서 시작하세요."
        case .fieldDoneBySurvey: "\"{0}\" 항목의 작업은 설문에 응답해서 완료합니다."
        case .fieldKeepsConsent: "\"{0}\" 항목의 작업에는 서명한 동의서가 있으며, 동의서는 삭제되지 않습니다."
        case .fieldAlreadyAnswered: "\"{0}\" 항목의 일정은 이미 완료되었습니다. 다시 응답하려면 먼저 응답을 삭제하세요."
        case .fieldOnboardingOnce: "\"{0}\" 항목은 이미 완료되었습니다. 온보딩은 한 번만 합니다."
        case .formExpired: "양식이 만료되었거나 이 앱에서 보낸 것이 아닙니다. 페이지를 새로 고친 뒤 다시 시도하세요."
        case .badDay: "날짜는 YYYY-MM-DD 형식이어야 합니다."
        case .badPeriod: "기간은 주, 월, 연 중 하나여야 합니다."
        case .noSuchContact: "그런 연락처가 없습니다."
        case .noSuchSignature: "그런 서명이 없습니다."
        case .noSuchConsent: "그런 동의서가 없습니다."
        case .signatureFormTooLarge: "양식이 너무 큽니다. 서명 그림은 최대 {0} KiB까지 가능합니다."
        case .noSuchEvent: "그런 일정이 없습니다."
        case .markedDoneMeanwhile: "오프라인인 동안 {0}님이 {2}에 {1}을(를) 완료로 표시했습니다."
        case .someoneMarkedDoneMeanwhile: "오프라인인 동안 {2}에 {1}이(가) 완료로 표시되었습니다."
        case .markedNotDoneMeanwhile: "오프라인인 동안 {2}에 {1}이(가) 미완료로 표시되었습니다."
        case .recordedMeanwhile: "오프라인인 동안 {0}님이 {3}에 {2}에 {1}을(를) 기록했습니다."
        case .someoneRecordedMeanwhile: "오프라인인 동안 {3}에 {2}에 {1}이(가) 기록되었습니다."
        case .answeredMeanwhile: "오프라인인 동안 {0}님이 {2}에 {1}에 응답하여, 이 응답은 저장되지 않았습니다."
        case .someoneAnsweredMeanwhile: "오프라인인 동안 {2}에 {1}에 응답이 저장되어, 이 응답은 저장되지 않았습니다."
        case .noDeletableAnswers: "그 일정에는 삭제할 수 있는 설문 응답이 없습니다."
        case .badSurveyAddress: "주소에 작업, 회차, 날짜가 있어야 합니다."
        case .finishOnboardingFirst: "먼저 온보딩을 마치세요. 케어 플랜은 그다음에 열립니다."
        case .eventChanged: "그사이에 일정이 바뀌었습니다. 페이지를 새로 고친 뒤 다시 시도하세요."
        case .changeRefused: "이 변경은 저장할 수 없습니다. 케어 플랜이나 CareKit 저장소의 규칙에 어긋납니다."
        case .dayTooFull: "이날은 일정이 {0}개를 넘어 한 페이지에 다 보여 줄 수 없습니다. 작업을 지우거나 일정 간격을 넓히세요."
        case .planChanged: "그사이에 케어 플랜이 바뀌었거나 이 변경과 충돌합니다. 페이지를 새로 고친 뒤 다시 시도하세요."
        case .noSuchDemoPerson: "그런 데모 사용자가 없습니다."
        case .noSuchRecord: "그런 케어 기록이 없거나 접근 권한이 없습니다."
        case .roleDoesNotAllow: "이 기록에서 내 역할({0})로는 할 수 없는 일입니다."
        case .surveyAnsweredElsewhere: "그날의 설문은 이미 (다른 탭이나 기기에서) 응답되었거나 작업이 바뀌어, 이 응답은 저장되지 않았습니다."
        case .surveySaveUnknown: "응답은 보관되어 있지만, 저장되었는지 지금은 알 수 없습니다. 잠시 후 이 설문을 다시 여세요."
        case .surveySaving: "이 설문의 응답을 저장하는 중입니다. 잠시 후 이 페이지를 다시 여세요(또는 카드에서 설문을 시작하면 이곳으로 돌아옵니다)."
        case .surveySubmitted: "이 설문은 이미 제출되었습니다. 응답은 한 번 저장되었고, 다시 제출해도 바뀐 것은 없습니다."
        case .surveyCancelled: "이 설문은 취소되어 아무것도 저장되지 않았습니다. 카드에서 다시 시작하세요."
        case .surveyDiscarded: "이 설문의 응답은 저장되지 않았습니다. 그날의 설문이 다른 곳에서 이미 응답되었거나 작업이 바뀌었습니다."
        case .surveyNotOpen: "이 설문은 열려 있지 않습니다. 만료되었거나 다른 브라우저에서 시작되었을 수 있습니다. 카드에서 다시 시작하세요."
        case .surveyBadAction: "양식의 동작은 다음, 이전, 건너뛰기, 취소 중 하나여야 합니다."
        case .surveyPageStale: "페이지가 최신이 아니었습니다. 설문이 이미 다음으로 넘어갔습니다. 지금 단계는 이것입니다."
        case .surveyNotSavedRetry: "응답을 저장하지 못했습니다. 잃어버린 것은 없으니 다시 시도하세요."
        case .chooseCaregiverOrClinician: "보호자나 임상의를 고르세요(기록의 환자는 한 명입니다)."
        case .tooManyInvitations: "한 기록의 열린 초대는 최대 {0}개입니다. 먼저 하나를 취소하거나, 수락되거나 만료될 때까지 기다리세요."
        case .invitationForSecondPatient: "이 초대는 기록의 환자를 위한 것인데, 이 기록에는 이미 환자가 있습니다."
        case .serverBusy: "서버가 다른 보고서와 가져오기로 바쁩니다. 몇 초 뒤에 다시 시도하세요."
        case .tooManyRecords: "한 계정이 소유할 수 있는 기록은 최대 {0}개입니다."
        case .choosePersonAndRole: "사람과 역할을 고르세요."
        case .ownerRoleStays: "소유자의 역할은 바꿀 수 없습니다."
        case .personHasNoAccess: "그 사람은 이 기록에 접근할 수 없습니다."
        case .ownerCannotBeRemoved: "기록의 소유자는 삭제할 수 없습니다."
        case .giveYourName: "이름을 입력하세요(최대 200자)."
        case .giveEmail: "이메일 주소를 입력하세요."
        case .passwordTooShort: "비밀번호는 {0}자 이상이어야 합니다."
        case .passwordTooLong: "비밀번호는 최대 {0}바이트까지 쓸 수 있습니다."
        case .scopePrefix: "범위는 patient/로 시작합니다(토큰 하나는 기록 하나를 엽니다)."
        case .scopeForm: "범위는 patient/Resource.cruds 형식입니다."
        case .scopeResource: "범위에는 * 또는 {0} 중 하나를 씁니다."
        case .scopeOperations: "범위의 작업은 cruds의 글자를 그 순서대로, 각각 한 번까지만 씁니다."
        case .scopeNoOperation: "범위에는 c, r, u, d, s 중 하나 이상을 씁니다."
        case .scopeCount: "범위는 1개에서 16개까지 주세요."
        }
    }
}

/// A sentence for a person, written in the reader's language when the page is made: words of one of the app's tables
/// with their arguments, or a survey's refusal. Error pages, the survey page and the sharing and invitation pages take
/// these rather than strings, so none of them can show a sentence that has no translation.
struct PageMessage: Sendable {
    private let make: @Sendable (OCKLanguage) -> String

    init(_ words: some HostWords & Sendable, _ arguments: String...) {
        self.init(words, arguments: arguments)
    }

    init(_ words: some HostWords & Sendable, arguments: [String]) {
        make = { language in words.text(language, arguments: arguments) }
    }

    /// A message already in the reader's words (an error's own).
    init(verbatim text: String) {
        make = { _ in text }
    }

    init(_ error: OCKSurveyError) {
        make = { language in error.message(OCKLocalization(language: language)) }
    }

    func text(_ language: OCKLanguage) -> String {
        make(language)
    }
}
