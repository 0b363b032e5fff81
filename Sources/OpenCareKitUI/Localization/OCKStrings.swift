/// Every string OpenCareKitUI shows or speaks. Components never spell out visible text themselves: they ask the
/// render context's localization for one of these, so a language is complete when its table covers every key (the
/// switch below makes a missing translation a compile error).
///
/// Templates use `{0}`, `{1}` … for their arguments; a translation may reorder them.
public enum OCKStringKey: String, Sendable, CaseIterable {
    // Tasks
    case markAsCompleted, completed, markSubjectDone, log, logSubject, actionOnSubject, deleteEntry,
         progressOfGoal, allDay, notRecorded, save, entryLabel, timesADay
    // Charts
    case chartKeyboardHint, playAudioGraph, valueWithUnit, listJoin, chartEmpty, chartSummary, seriesValue, weekOf, legend, noValue
    // Contacts
    case call, message, email, address, callContact, messageContact, emailContact, mapContact, careTeam,
         friendsAndFamily, contactPhoto
    // Calendar and rings
    case today, dayIsToday, dayCompletion, dayNoTasks, weekCalendar, ringCompletion, ringNoTasks
    // Links
    case website, location
    // Gallery
    case galleryTitle, galleryVariants, appearanceLight, appearanceDark
    // App pages
    case careTab, insightsTab, contactsTab, sections, dayNavigation, previousDay, nextDay, previousWeek, nextWeek,
         noTasksForDay, readOnlyDay, skipToContent, errorTitle, backToCare, otherContacts, taskCompletion, period,
         periodWeek, periodMonth, periodYear, noContacts, averageCompletion
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
        }
    }
}
