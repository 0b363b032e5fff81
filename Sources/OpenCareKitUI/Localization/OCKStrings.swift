/// Every string OpenCareKitUI shows or speaks. Components never spell out visible text themselves: they ask the
/// render context's localization for one of these, so a language is complete when its table covers every key (the
/// switch below makes a missing translation a compile error).
///
/// Templates use `{0}`, `{1}` … for their arguments; a translation may reorder them. The other modules' pages
/// (OpenCareKitServer, OpenCareKitSurveys) take their shared words from the same table.
///
/// For example:
/// ```swift
/// let korean = OCKRenderContext(localization: OCKLocalization(language: .korean))
/// let progress = korean.string(.progressOfGoal, "5", "8잔") // "8잔 중 5": the translation reorders the arguments
/// ```
public enum OCKStringKey: String, Sendable, CaseIterable {
    // Tasks
    /// Task card text. `markAsCompleted` ("Mark as Completed") and `completed` ("Completed") are a completion button's
    /// text, and `markSubjectDone` ("Mark {0} as done", {0} the task and time) its accessible name; `log` ("Log") and
    /// `logSubject` ("Log {0}", {0} the task) are the log button's, and `actionOnSubject` ("{0} {1}": a custom button's
    /// text, then the task) names a custom log button; `deleteEntry` ("Delete {0} entry at {1}": task, time) names an
    /// entry's delete button; `progressOfGoal` ("{0} of {1}": progress, goal) names the progress meter; `allDay` ("All
    /// day") is an event without a time; `notRecorded` ("Not recorded") a value not yet entered; `save` ("Save") the
    /// value form's button; `entryLabel` ("{0} ({1})": label, unit) the value field's label; and `timesADay` ("{0}
    /// times a day") a schedule's detail.
    case markAsCompleted, completed, markSubjectDone, log, logSubject, actionOnSubject, deleteEntry,
         progressOfGoal, allDay, notRecorded, save, entryLabel, timesADay
    // Charts
    /// Chart text: `chartKeyboardHint` (how to move with the arrow keys), `chartPrevious` and `chartNext` (the step
    /// buttons), `playAudioGraph` ("Play audio graph of {0}", {0} the series), `valueWithUnit` ("{0} {1}": number,
    /// unit; no space in Korean), `listJoin` ("{0}; {1}": the values of several series), `chartEmpty` (the summary when
    /// nothing is recorded), `chartSummary` ("{0} ranges from {1} to {2}, averaging {3}.": series, lowest, highest,
    /// average), `seriesValue` ("{0}: {1}": a name, its value), `weekOf` ("Week of {0}", {0} a short date), `legend`
    /// ("Legend") and `noValue` ("no data").
    case chartKeyboardHint, chartPrevious, chartNext, playAudioGraph, valueWithUnit, listJoin, chartEmpty, chartSummary, seriesValue, weekOf, legend, noValue
    // Contacts
    /// Contact text: `call`, `message` and `email` ("Call", "Message", "Email") label the actions, which
    /// `callContact`, `messageContact` and `emailContact` ("Call {0}" …, {0} the contact's name) name in full;
    /// `address` ("Address") heads the address, and `mapContact` ("Location of {0} on a map") names its map link;
    /// `careTeam` ("Care team") and `friendsAndFamily` ("Friends and family") are the category badges. `contactPhoto`
    /// ("Photo of {0}") is not used by OpenCareKitUI's views, whose photos are decorative.
    case call, message, email, address, callContact, messageContact, emailContact, mapContact, careTeam,
         friendsAndFamily, contactPhoto
    // Calendar and rings
    /// Calendar and ring text: `today` ("Today"); `dayIsToday` ("{0}, Today", {0} a day's name); `dayCompletion`
    /// ("{0}: {1} complete": day, percentage) and `dayNoTasks` ("{0}: no tasks") name a day; `weekCalendar` ("Week")
    /// names the week calendar; `ringCompletion` ("{0} complete", {0} a percentage) and `ringNoTasks` ("No tasks") name
    /// a ring.
    case today, dayIsToday, dayCompletion, dayNoTasks, weekCalendar, ringCompletion, ringNoTasks
    // Links
    /// Link kinds beside `call`, `message` and `email`: `website` ("Website") and `location` ("Location").
    case website, location
    // Gallery
    /// Gallery text: `galleryTitle` ("OpenCareKitUI gallery"), `galleryVariants` (the name of its menu of variants),
    /// `appearanceLight` and `appearanceDark` ("light", "dark").
    case galleryTitle, galleryVariants, appearanceLight, appearanceDark
    // App pages
    /// The app's pages (OpenCareKitServer): the tabs `careTab`, `insightsTab` and `contactsTab`, and `sections` (the
    /// tab bar's name); the day navigation, `dayNavigation`, `previousDay`, `nextDay`, `previousWeek` and `nextWeek`;
    /// the care feed's notices `noTasksForDay` and `readOnlyDay`; `skipToContent`; the error page's `errorTitle` and
    /// `backToCare`; `otherContacts` (contacts without a category) and `noContacts`; `taskCompletion` (the insights
    /// chart); the insights period menu, `period`, `periodWeek`, `periodMonth` and `periodYear`; and
    /// `averageCompletion` ("On average, {0} of the tasks that count were done each day.", {0} a percentage).
    case careTab, insightsTab, contactsTab, sections, dayNavigation, previousDay, nextDay, previousWeek, nextWeek,
         noTasksForDay, readOnlyDay, skipToContent, errorTitle, backToCare, otherContacts, taskCompletion, period,
         periodWeek, periodMonth, periodYear, noContacts, averageCompletion
    // Surveys, consent and onboarding
    /// Surveys, consent and onboarding (OpenCareKitSurveys and the app's survey pages): `stepProgress` ("Step {0} of
    /// {1}"); the step buttons `next`, `back`, `cancel`, `done` and `skip`; `learnMore`; the signature step's
    /// `signConsentTitle`, `fullName`, `signatureDrawing`, `signatureHint`, `clearSignature` and `agreeToConsent`; the
    /// permissions step's `permissionsTitle`, `allowNotifications`, `notificationsGranted`, `notificationsDenied` and
    /// `notificationsUnavailable`; `scaleEnds` ("{0} means {1}; {2} means {3}.": each end of a scale and its label);
    /// `yes` and `no`; the survey card's `startSurvey` and `deleteAnswers`, and the confirmation's `confirmDeleteTitle`
    /// ("Delete the answers to {0}?"), `confirmDeleteBody` and `keepAnswers`; the signed consent's `consentTitle`,
    /// `viewConsent`, `downloadConsent`, `signedBy`, `signedOn`, `documentVersion`, `textHash`, `signatureOf`
    /// ("Signature of {0}"), `typedSignature`, `noConsent`, `consentAltered` and `consentDocumentVersion` ("{0},
    /// version {1}": title, version); `finishOnboarding`; and `answerRequired`.
    case stepProgress, next, back, cancel, done, skip, learnMore, fullName, signatureDrawing, signatureHint,
         clearSignature, agreeToConsent, allowNotifications, notificationsGranted, notificationsDenied,
         notificationsUnavailable, scaleEnds, yes, no, startSurvey, deleteAnswers, confirmDeleteTitle,
         confirmDeleteBody, keepAnswers, consentTitle, viewConsent, downloadConsent, signedBy, signedOn,
         documentVersion, textHash, signatureOf, typedSignature, noConsent, consentAltered, finishOnboarding,
         answerRequired, signConsentTitle, permissionsTitle, consentDocumentVersion
    // Survey answers refused (`OCKSurveyError`)
    /// Why a survey's answer was refused, as `OCKSurveyError` says it: `surveyUnknownStep`, `surveyNotFinished`,
    /// `answerScaleRange` and `answerNumberRange` ("… from {0} to {1}"), `answerOneOfChoices`, `answerChoicesOffered`,
    /// `answerTooLong` ("… at most {0} characters"), `answerDateRange`, `answerWrongKind`, `answerOneOnly`,
    /// `answerWholeNumber`, `answerNumber`, `answerDateTime`, `answerYesNo`, `consentVersionStale`,
    /// `signatureNameMissing`, `signatureNameTooLong` ("… at most {0} characters"), `signatureNotAgreed`,
    /// `signatureTooLarge` ("… at most {0} KiB"), `signatureNotPNG`, `permissionUnknown` and `stepWrongKind`.
    case surveyUnknownStep, surveyNotFinished, answerScaleRange, answerNumberRange, answerOneOfChoices, answerChoicesOffered,
         answerTooLong, answerDateRange, answerWrongKind, answerOneOnly, answerWholeNumber, answerNumber, answerDateTime,
         answerYesNo, consentVersionStale, signatureNameMissing, signatureNameTooLong, signatureNotAgreed,
         signatureTooLarge, signatureNotPNG, permissionUnknown, stepWrongKind
}

extension OCKLanguage {
    /// The template for `key` in this language.
    func template(_ key: OCKStringKey) -> String {
        switch self {
        case .english: english(key)
        case .korean: korean(key)
        }
    }

    private func english(_ key: OCKStringKey) -> String {
        switch key {
        case .markAsCompleted: "Mark as Completed"
        case .completed: "Completed"
        case .markSubjectDone: "Mark {0} as done"
        case .actionOnSubject: "{0} {1}"
        case .log: "Log"
        case .logSubject: "Log {0}"
        case .deleteEntry: "Delete {0} entry at {1}"
        case .progressOfGoal: "{0} of {1}"
        case .allDay: "All day"
        case .notRecorded: "Not recorded"
        case .save: "Save"
        case .timesADay: "{0} times a day"
        case .entryLabel: "{0} ({1})"
        case .chartKeyboardHint: "Use the left and right arrow keys to move through the chart."
        case .chartPrevious: "Previous"
        case .chartNext: "Next"
        case .playAudioGraph: "Play audio graph of {0}"
        case .valueWithUnit: "{0} {1}"
        case .listJoin: "{0}; {1}"
        case .chartEmpty: "No data recorded for this period."
        case .chartSummary: "{0} ranges from {1} to {2}, averaging {3}."
        case .seriesValue: "{0}: {1}"
        case .weekOf: "Week of {0}"
        case .legend: "Legend"
        case .noValue: "no data"
        case .call: "Call"
        case .message: "Message"
        case .email: "Email"
        case .address: "Address"
        case .callContact: "Call {0}"
        case .messageContact: "Message {0}"
        case .emailContact: "Email {0}"
        case .mapContact: "Location of {0} on a map"
        case .careTeam: "Care team"
        case .friendsAndFamily: "Friends and family"
        case .contactPhoto: "Photo of {0}"
        case .today: "Today"
        case .dayIsToday: "{0}, Today"
        case .ringNoTasks: "No tasks"
        case .dayCompletion: "{0}: {1} complete"
        case .dayNoTasks: "{0}: no tasks"
        case .weekCalendar: "Week"
        case .ringCompletion: "{0} complete"
        case .website: "Website"
        case .location: "Location"
        case .galleryTitle: "OpenCareKitUI gallery"
        case .galleryVariants: "Gallery variants"
        case .appearanceLight: "light"
        case .appearanceDark: "dark"
        case .careTab: "Care"
        case .insightsTab: "Insights"
        case .contactsTab: "Contacts"
        case .sections: "Sections"
        case .dayNavigation: "Days"
        case .previousDay: "Previous day"
        case .nextDay: "Next day"
        case .previousWeek: "Previous week"
        case .nextWeek: "Next week"
        case .noTasksForDay: "Nothing to do on this day."
        case .readOnlyDay: "This day is still to come: its tasks can be seen but not done yet."
        case .skipToContent: "Skip to content"
        case .errorTitle: "That did not work"
        case .backToCare: "Back to Care"
        case .otherContacts: "Other contacts"
        case .taskCompletion: "Task completion"
        case .period: "Period"
        case .periodWeek: "Week"
        case .periodMonth: "Month"
        case .periodYear: "Year"
        case .noContacts: "No contacts yet."
        case .averageCompletion: "On average, {0} of the tasks that count were done each day."
        case .stepProgress: "Step {0} of {1}"
        case .next: "Next"
        case .back: "Back"
        case .cancel: "Cancel"
        case .done: "Done"
        case .skip: "Skip"
        case .learnMore: "Learn more"
        case .fullName: "Full name"
        case .signatureDrawing: "Signature drawing (optional)"
        case .signatureHint: "Draw your signature with a mouse, finger or pen, or leave it blank: your typed name then signs."
        case .clearSignature: "Clear signature"
        case .agreeToConsent: "I agree to take part, as the consent document describes."
        case .allowNotifications: "Allow notifications"
        case .notificationsGranted: "Notifications are on."
        case .notificationsDenied: "Notifications are off. You can change this in the browser's settings."
        case .notificationsUnavailable: "This browser cannot show notifications here."
        case .scaleEnds: "{0} means {1}; {2} means {3}."
        case .yes: "Yes"
        case .no: "No"
        case .startSurvey: "Start survey"
        case .deleteAnswers: "Delete answers"
        case .confirmDeleteTitle: "Delete the answers to {0}?"
        case .confirmDeleteBody: "The survey will show as not done, and its answers leave your charts."
        case .keepAnswers: "Keep them"
        case .consentTitle: "Signed consent"
        case .viewConsent: "View signed consent"
        case .downloadConsent: "Download the consent"
        case .signedBy: "Signed by"
        case .signedOn: "Signed on"
        case .documentVersion: "Document version"
        case .textHash: "SHA-256 of the text"
        case .signatureOf: "Signature of {0}"
        case .typedSignature: "Signed with the typed name."
        case .noConsent: "No consent has been signed yet."
        case .consentAltered: "The kept text no longer matches the hash taken when it was signed."
        case .finishOnboarding: "Finish onboarding to see your care plan."
        case .answerRequired: "This step needs an answer."
        case .signConsentTitle: "Sign the consent"
        case .permissionsTitle: "Reminders"
        case .consentDocumentVersion: "{0}, version {1}"
        case .surveyUnknownStep: "The form names a step this survey does not have."
        case .surveyNotFinished: "Some required steps have no answer yet."
        case .answerScaleRange: "The answer must be from {0} to {1}."
        case .answerNumberRange: "The answer must be a number from {0} to {1}."
        case .answerOneOfChoices: "The answer must be one of the choices."
        case .answerChoicesOffered: "The answer must be choices offered, each once."
        case .answerTooLong: "The answer must be at most {0} characters."
        case .answerDateRange: "The answer must be a date between 1900 and 3000."
        case .answerWrongKind: "The answer is not the kind of answer the question asks for."
        case .answerOneOnly: "The question takes one answer."
        case .answerWholeNumber: "The answer must be a whole number."
        case .answerNumber: "The answer must be a number."
        case .answerDateTime: "The answer must be a date and time."
        case .answerYesNo: "The answer must be yes or no."
        case .consentVersionStale: "The consent reviewed must be the current version of the document."
        case .signatureNameMissing: "The signature needs the signer's full name."
        case .signatureNameTooLong: "The name must be at most {0} characters."
        case .signatureNotAgreed: "The signature needs the box \"I agree\" ticked."
        case .signatureTooLarge: "The signature drawing is too large: at most {0} KiB."
        case .signatureNotPNG: "The signature drawing must be a PNG image."
        case .permissionUnknown: "The form names a permission this step does not ask for."
        case .stepWrongKind: "The form does not hold the kind of answer this step takes."
        }
    }

    private func korean(_ key: OCKStringKey) -> String {
        switch key {
        case .markAsCompleted: "완료로 표시"
        case .completed: "완료됨"
        case .markSubjectDone: "{0} 완료로 표시"
        case .actionOnSubject: "{1} {0}"
        case .log: "기록"
        case .logSubject: "{0} 기록하기"
        case .deleteEntry: "{1}에 기록한 {0} 삭제"
        case .progressOfGoal: "{1} 중 {0}"
        case .allDay: "종일"
        case .notRecorded: "기록 없음"
        case .save: "저장"
        case .timesADay: "하루 {0}회"
        case .entryLabel: "{0} ({1})"
        case .chartKeyboardHint: "왼쪽과 오른쪽 화살표 키로 차트를 탐색하세요."
        case .chartPrevious: "이전"
        case .chartNext: "다음"
        case .playAudioGraph: "{0} 오디오 그래프 재생"
        case .valueWithUnit: "{0}{1}"
        case .listJoin: "{0}, {1}"
        case .chartEmpty: "이 기간에 기록된 데이터가 없습니다."
        case .chartSummary: "{0}: 최저 {1}, 최고 {2}, 평균 {3}."
        case .seriesValue: "{0}: {1}"
        case .weekOf: "{0} 주간"
        case .legend: "범례"
        case .noValue: "데이터 없음"
        case .call: "전화"
        case .message: "메시지"
        case .email: "이메일"
        case .address: "주소"
        case .callContact: "{0}에게 전화 걸기"
        case .messageContact: "{0}에게 메시지 보내기"
        case .emailContact: "{0}에게 이메일 보내기"
        case .mapContact: "지도에서 {0}의 위치"
        case .careTeam: "의료진"
        case .friendsAndFamily: "친구 및 가족"
        case .contactPhoto: "{0}의 사진"
        case .today: "오늘"
        case .dayIsToday: "{0}, 오늘"
        case .ringNoTasks: "할 일 없음"
        case .dayCompletion: "{0}: {1} 완료"
        case .dayNoTasks: "{0}: 할 일 없음"
        case .weekCalendar: "주간"
        case .ringCompletion: "{0} 완료"
        case .website: "웹사이트"
        case .location: "위치"
        case .galleryTitle: "OpenCareKitUI 갤러리"
        case .galleryVariants: "갤러리 보기"
        case .appearanceLight: "라이트"
        case .appearanceDark: "다크"
        case .careTab: "케어"
        case .insightsTab: "인사이트"
        case .contactsTab: "연락처"
        case .sections: "섹션"
        case .dayNavigation: "날짜 이동"
        case .previousDay: "이전 날"
        case .nextDay: "다음 날"
        case .previousWeek: "지난주"
        case .nextWeek: "다음 주"
        case .noTasksForDay: "이 날은 할 일이 없습니다."
        case .readOnlyDay: "아직 오지 않은 날입니다. 할 일을 볼 수는 있지만 아직 완료할 수 없습니다."
        case .skipToContent: "본문으로 건너뛰기"
        case .errorTitle: "요청을 처리하지 못했습니다"
        case .backToCare: "케어로 돌아가기"
        case .otherContacts: "기타 연락처"
        case .taskCompletion: "할 일 완료율"
        case .period: "기간"
        case .periodWeek: "주"
        case .periodMonth: "월"
        case .periodYear: "연"
        case .noContacts: "아직 연락처가 없습니다."
        case .averageCompletion: "하루 평균 할 일의 {0}을 완료했습니다."
        case .stepProgress: "{1}단계 중 {0}단계"
        case .next: "다음"
        case .back: "이전"
        case .cancel: "취소"
        case .done: "완료"
        case .skip: "건너뛰기"
        case .learnMore: "자세히 알아보기"
        case .fullName: "성명"
        case .signatureDrawing: "서명 그리기(선택 사항)"
        case .signatureHint: "마우스, 손가락 또는 펜으로 서명하세요. 비워 두면 입력한 이름이 서명이 됩니다."
        case .clearSignature: "서명 지우기"
        case .agreeToConsent: "동의서에 설명된 대로 참여하는 데 동의합니다."
        case .allowNotifications: "알림 허용"
        case .notificationsGranted: "알림이 켜져 있습니다."
        case .notificationsDenied: "알림이 꺼져 있습니다. 브라우저 설정에서 바꿀 수 있습니다."
        case .notificationsUnavailable: "이 브라우저에서는 알림을 표시할 수 없습니다."
        case .scaleEnds: "{0}은(는) {1}, {2}은(는) {3}을(를) 뜻합니다."
        case .yes: "예"
        case .no: "아니요"
        case .startSurvey: "설문 시작"
        case .deleteAnswers: "응답 삭제"
        case .confirmDeleteTitle: "{0}의 응답을 삭제할까요?"
        case .confirmDeleteBody: "설문이 완료되지 않은 것으로 표시되고 응답이 차트에서 사라집니다."
        case .keepAnswers: "유지"
        case .consentTitle: "서명한 동의서"
        case .viewConsent: "서명한 동의서 보기"
        case .downloadConsent: "동의서 내려받기"
        case .signedBy: "서명자"
        case .signedOn: "서명일"
        case .documentVersion: "문서 버전"
        case .textHash: "본문의 SHA-256"
        case .signatureOf: "{0}의 서명"
        case .typedSignature: "입력한 이름으로 서명했습니다."
        case .noConsent: "아직 서명한 동의서가 없습니다."
        case .consentAltered: "보관된 본문이 서명 당시의 해시와 일치하지 않습니다."
        case .finishOnboarding: "케어 플랜을 보려면 온보딩을 마치세요."
        case .answerRequired: "이 단계에는 응답이 필요합니다."
        case .signConsentTitle: "동의서에 서명"
        case .permissionsTitle: "알림"
        case .consentDocumentVersion: "{0}, 버전 {1}"
        case .surveyUnknownStep: "양식에 이 설문에 없는 단계가 있습니다."
        case .surveyNotFinished: "아직 응답하지 않은 필수 단계가 있습니다."
        case .answerScaleRange: "응답은 {0}부터 {1}까지여야 합니다."
        case .answerNumberRange: "응답은 {0}부터 {1}까지의 숫자여야 합니다."
        case .answerOneOfChoices: "응답은 선택지 중 하나여야 합니다."
        case .answerChoicesOffered: "응답은 제시된 선택지여야 하며, 각 선택지는 한 번만 고를 수 있습니다."
        case .answerTooLong: "응답은 최대 {0}자까지 쓸 수 있습니다."
        case .answerDateRange: "응답은 1900년에서 3000년 사이의 날짜여야 합니다."
        case .answerWrongKind: "질문이 묻는 종류의 응답이 아닙니다."
        case .answerOneOnly: "이 질문에는 응답을 하나만 할 수 있습니다."
        case .answerWholeNumber: "응답은 정수여야 합니다."
        case .answerNumber: "응답은 숫자여야 합니다."
        case .answerDateTime: "응답은 날짜와 시간이어야 합니다."
        case .answerYesNo: "응답은 예 또는 아니요여야 합니다."
        case .consentVersionStale: "검토한 동의서가 문서의 현재 버전이어야 합니다."
        case .signatureNameMissing: "서명에는 서명하는 사람의 이름 전체가 필요합니다."
        case .signatureNameTooLong: "이름은 최대 {0}자까지 쓸 수 있습니다."
        case .signatureNotAgreed: "서명하려면 참여 동의 상자에 표시해야 합니다."
        case .signatureTooLarge: "서명 그림이 너무 큽니다. 최대 {0} KiB까지 가능합니다."
        case .signatureNotPNG: "서명 그림은 PNG 이미지여야 합니다."
        case .permissionUnknown: "양식에 이 단계에서 묻지 않는 권한이 있습니다."
        case .stepWrongKind: "양식에 이 단계가 받는 종류의 응답이 없습니다."
        }
    }
}
