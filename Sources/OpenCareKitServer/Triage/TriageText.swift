import OpenCareKitUI

/// The words of the triage queue, in every language the app speaks.
enum TriageText: String, CaseIterable, Sendable, HostWords {
    case queueTitle, openCount, nothingOpen, urgent, routine, new, acknowledgedBy, assignedTo, careTeam, raisedAt, raisedTimes,
         acknowledge, assign, assignTo, resolve, resolutionNote, missedDoses, valueAtLeast, valueAtMost, valueOutside, change,
         noActivity, anyValue, openOutcomes, acknowledgedMeanwhile, resolvedMeanwhile, noteNeeded,
         clinicianOnly, backToPatients, itemGone, unnamed, showingItems, wholeQueue, queuePages, nextItems, previousItems

    var english: String {
        switch self {
        case .queueTitle: "Triage queue"
        case .openCount: "{0} open, {1} urgent"
        case .nothingOpen: "Nothing open: every alert has been dealt with."
        case .urgent: "Urgent"
        case .routine: "Routine"
        case .new: "New"
        case .acknowledgedBy: "Acknowledged by {0} at {1}"
        case .assignedTo: "Assigned to {0}"
        case .careTeam: "the care team"
        case .raisedAt: "Raised {0}"
        case .raisedTimes: "raised {0} times"
        case .acknowledge: "Acknowledge"
        case .assign: "Assign"
        case .assignTo: "Assign {0} to"
        case .resolve: "Resolve"
        case .resolutionNote: "Resolution note for {0}"
        case .missedDoses: "{0}: missed on {1} of the last {2} days"
        case .valueAtLeast: "{0}: {1} {2} (alert at {3} or more)"
        case .valueAtMost: "{0}: {1} {2} (alert at {3} or less)"
        case .valueOutside: "{0}: {1} {2} (alert outside {3} to {4})"
        case .change: "{0}: {1} changed by {2} within {3} days (alert at {4})"
        case .noActivity: "{0}: nothing recorded for {1} days"
        case .anyValue: "value"
        case .openOutcomes: "See the day on {0}"
        case .acknowledgedMeanwhile: "{0} acknowledged this at {1}, so it was not acknowledged again."
        case .resolvedMeanwhile: "{0} resolved this at {1}."
        case .noteNeeded: "Write a note of 1 to {0} characters to resolve it."
        case .clinicianOnly: "An item can be assigned to a clinician of its record only."
        case .backToPatients: "Back to your patients"
        case .itemGone: "There is no such item in this record."
        case .unnamed: "someone no longer a member"
        case .showingItems: "Showing {0}–{1} of {2} open items."
        case .wholeQueue: "All {0} open items"
        case .queuePages: "Pages of the triage queue"
        case .nextItems: "Next items"
        case .previousItems: "Previous items"
        }
    }

    var korean: String {
        switch self {
        case .queueTitle: "분류 대기열"
        case .openCount: "열린 항목 {0}개, 긴급 {1}개"
        case .nothingOpen: "열린 항목이 없습니다. 모든 알림이 처리되었습니다."
        case .urgent: "긴급"
        case .routine: "일반"
        case .new: "새 항목"
        case .acknowledgedBy: "{0}님이 {1}에 확인함"
        case .assignedTo: "담당: {0}"
        case .careTeam: "의료진"
        case .raisedAt: "{0} 발생"
        case .raisedTimes: "{0}번 발생"
        case .acknowledge: "확인"
        case .assign: "배정"
        case .assignTo: "{0} 담당자"
        case .resolve: "해결"
        case .resolutionNote: "{0} 해결 메모"
        case .missedDoses: "{0}: 최근 {2}일 중 {1}일 놓침"
        case .valueAtLeast: "{0}: {1} {2} ({3} 이상이면 알림)"
        case .valueAtMost: "{0}: {1} {2} ({3} 이하이면 알림)"
        case .valueOutside: "{0}: {1} {2} ({3}~{4} 밖이면 알림)"
        case .change: "{0}: {3}일 안에 {1} {2} 변화 (기준 {4})"
        case .noActivity: "{0}: {1}일 동안 기록 없음"
        case .anyValue: "값"
        case .openOutcomes: "{0} 기록 보기"
        case .acknowledgedMeanwhile: "{0}님이 {1}에 이미 확인했으므로 다시 확인하지 않았습니다."
        case .resolvedMeanwhile: "{0}님이 {1}에 이미 해결했습니다."
        case .noteNeeded: "해결하려면 1~{0}자의 메모를 쓰세요."
        case .clinicianOnly: "항목은 그 기록의 의료진에게만 배정할 수 있습니다."
        case .backToPatients: "환자 목록으로 돌아가기"
        case .itemGone: "이 기록에 그런 항목이 없습니다."
        case .unnamed: "더 이상 구성원이 아닌 사람"
        case .showingItems: "열린 항목 {2}개 중 {0}–{1}번째를 보여 줍니다."
        case .wholeQueue: "열린 항목 {0}개 모두 보기"
        case .queuePages: "분류 대기열 페이지"
        case .nextItems: "다음 항목"
        case .previousItems: "이전 항목"
        }
    }
}
