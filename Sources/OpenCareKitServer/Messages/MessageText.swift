import OpenCareKitUI

/// The words of secure messages, in every language the app speaks.
enum MessageText: String, CaseIterable, Sendable, HostWords {
    case title, link, allRead, unreadCount, noThreads, lastMessage, messageCount, teamOnly, unreadBadge, olderThreads, newThread,
         subject, whoSees, everyone, careTeamOnly, message, send, backToRecord, noSuchThread, teamOnlyExplained, everyoneExplained,
         earlierMessages, messagesOf, you, formerMember, seenBy, reply, allThreads, unreadMessage, unreadMessages, tooMany, lengthNeeded,
         subjectNeeded, tooManyThreads, recordFull, messagePatient, messagePatientLabel, newMessage, importedAuthor

    var english: String {
        switch self {
        case .title: "Messages"
        case .link: "Messages"
        case .allRead: "No unread messages."
        case .unreadCount: "{0} unread"
        case .noThreads: "No conversations yet."
        case .lastMessage: "last message {0}"
        case .messageCount: "{0} messages"
        case .teamOnly: "Care team only"
        case .unreadBadge: "{0} new"
        case .olderThreads: "Older conversations"
        case .newThread: "New conversation"
        case .subject: "Subject"
        case .whoSees: "Who sees it"
        case .everyone: "The patient, caregivers and care team"
        case .careTeamOnly: "The care team only (a team note)"
        case .message: "Message"
        case .send: "Send"
        case .backToRecord: "Back to the record"
        case .noSuchThread: "There is no such conversation in this record."
        case .teamOnlyExplained: "A team note: only the clinicians of {0}'s record see it."
        case .everyoneExplained: "Seen by {0}, their caregivers and their care team."
        case .earlierMessages: "Earlier messages"
        case .messagesOf: "Messages of {0}"
        case .you: "You"
        case .formerMember: "someone no longer a member"
        case .seenBy: "Seen by {0} at {1}"
        case .reply: "Reply"
        case .allThreads: "All conversations"
        case .unreadMessage: "1 unread message"
        case .unreadMessages: "{0} unread messages"
        case .tooMany: "You can send at most {0} messages a minute. Wait a moment, then send it again (it is still in the box)."
        case .lengthNeeded: "Write a message of 1 to {0} characters."
        case .subjectNeeded: "Write a subject of 1 to {0} characters."
        case .tooManyThreads: "This record has {0} conversations, the most it keeps: reply in one of them."
        case .recordFull: "This record keeps at most {0} messages and has them all."
        case .messagePatient: "Message the patient"
        case .messagePatientLabel: "Message to {0} about this"
        case .newMessage: "New message"
        case .importedAuthor: "{0} (imported)"
        }
    }

    var korean: String {
        switch self {
        case .title: "메시지"
        case .link: "메시지"
        case .allRead: "읽지 않은 메시지가 없습니다."
        case .unreadCount: "읽지 않음 {0}개"
        case .noThreads: "아직 대화가 없습니다."
        case .lastMessage: "마지막 메시지 {0}"
        case .messageCount: "메시지 {0}개"
        case .teamOnly: "의료진 전용"
        case .unreadBadge: "새 메시지 {0}개"
        case .olderThreads: "이전 대화"
        case .newThread: "새 대화"
        case .subject: "제목"
        case .whoSees: "볼 수 있는 사람"
        case .everyone: "환자, 보호자, 의료진"
        case .careTeamOnly: "의료진만 (팀 메모)"
        case .message: "메시지"
        case .send: "보내기"
        case .backToRecord: "기록으로 돌아가기"
        case .noSuchThread: "이 기록에 그런 대화가 없습니다."
        case .teamOnlyExplained: "팀 메모: {0}님 기록의 의료진만 볼 수 있습니다."
        case .everyoneExplained: "{0}님, 보호자, 의료진이 볼 수 있습니다."
        case .earlierMessages: "이전 메시지"
        case .messagesOf: "{0}의 메시지"
        case .you: "나"
        case .formerMember: "더 이상 구성원이 아닌 사람"
        case .seenBy: "{0}님이 {1}에 읽음"
        case .reply: "답장"
        case .allThreads: "모든 대화"
        case .unreadMessage: "읽지 않은 메시지 1개"
        case .unreadMessages: "읽지 않은 메시지 {0}개"
        case .tooMany: "1분에 메시지를 최대 {0}개까지 보낼 수 있습니다. 잠시 후 다시 보내세요 (내용은 그대로 있습니다)."
        case .lengthNeeded: "1~{0}자의 메시지를 쓰세요."
        case .subjectNeeded: "1~{0}자의 제목을 쓰세요."
        case .tooManyThreads: "이 기록에는 보관할 수 있는 최대 {0}개의 대화가 있습니다. 기존 대화에 답장하세요."
        case .recordFull: "이 기록은 메시지를 최대 {0}개까지 보관하며 이미 가득 찼습니다."
        case .messagePatient: "환자에게 메시지"
        case .messagePatientLabel: "이 항목에 대해 {0}님에게 보낼 메시지"
        case .newMessage: "새 메시지"
        case .importedAuthor: "{0} (가져옴)"
        }
    }
}
