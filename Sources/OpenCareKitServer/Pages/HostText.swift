import OpenCareKitStore
import OpenCareKitUI

/// The words of the host's own pages (sign-in, home, account), in every language the app speaks; the switch makes a
/// missing translation a compile error.
enum HostText: String, CaseIterable, Sendable {
    case signInTitle, email, password, signIn, signInFailed, tooManyFailures, signedOutIdle, signedOut, demoPeople,
         demoSignInAs, homeTitle, noRecords, openRecord, rolePatient, roleCaregiver, roleClinician, owner, accountTitle,
         signOut, signOutEverywhere, signOutEverywhereHint, changePassword, currentPassword, newPassword,
         repeatPassword, passwordChanged, passwordsDiffer, wrongPassword, account, signedInAs,
         sharingTitle, whoHasAccess, role, changeRole, remove, removeNamed, roleOf, invite, inviteHint, createInvitation, invitationLink, pendingInvitations, expires, revoke, invitationTitle, invitationBody, accept, invitationGone, haveAccount, createAccount, yourName, emailTaken, activityTitle, activityLink, when, who, what, whereFrom, result, allowed, denied, exportFHIR, olderEntries, someoneElse, sharingLink, allRecords, idleWarning, staySignedIn, you,
         patientsTitle, needAttention, showingFirstPatients, otherRecords, lastSevenDays, lastSevenDaysNothing, flagMissedDoses,
         flagPain, needsAttention, noActivity, today, yesterday, daysAgo, lastActivity

    func text(_ language: OCKLanguage) -> String {
        switch language {
        case .english: english
        case .korean: korean
        }
    }

    var english: String {
        switch self {
        case .signInTitle: "Sign in"
        case .email: "Email"
        case .password: "Password"
        case .signIn: "Sign in"
        case .signInFailed: "The email or password is not right."
        case .tooManyFailures: "Too many failed sign-ins. Try again in {0} minutes."
        case .signedOutIdle: "You were signed out after a while without activity, to keep the record private."
        case .signedOut: "You are signed out."
        case .demoPeople: "Demo people"
        case .demoSignInAs: "Sign in as {0}"
        case .homeTitle: "Care records"
        case .noRecords: "You have no care records yet. Ask the patient (or their caregiver) for an invitation link."
        case .openRecord: "Open the care record of {0}"
        case .rolePatient: "Patient"
        case .roleCaregiver: "Caregiver"
        case .roleClinician: "Clinician"
        case .owner: "owner"
        case .accountTitle: "Account"
        case .signOut: "Sign out"
        case .signOutEverywhere: "Sign out everywhere"
        case .signOutEverywhereHint: "Ends every session of this account, on every device, including this one."
        case .changePassword: "Change password"
        case .currentPassword: "Current password"
        case .newPassword: "New password"
        case .repeatPassword: "New password again"
        case .passwordChanged: "The password is changed. Other devices are signed out."
        case .passwordsDiffer: "The two new passwords differ."
        case .wrongPassword: "The current password is not right."
        case .account: "Account"
        case .signedInAs: "Signed in as {0}"
        case .sharingTitle: "Sharing"
        case .whoHasAccess: "Who has access"
        case .role: "Role"
        case .changeRole: "Change role"
        case .remove: "Remove"
        case .removeNamed: "Remove {0}"
        case .roleOf: "Role of {0}"
        case .invite: "Invite someone"
        case .inviteHint: "An invitation is a link that works once, for 7 days. Send it to the person yourself."
        case .createInvitation: "Create invitation link"
        case .invitationLink: "Invitation link (shown once): send it to the person you invite."
        case .pendingInvitations: "Open invitations"
        case .expires: "expires {0}"
        case .revoke: "Revoke"
        case .invitationTitle: "Invitation"
        case .invitationBody: "{0} invites you to the care record of {1} as {2}."
        case .accept: "Accept"
        case .invitationGone: "This invitation link was used already, was revoked or has expired. Ask for a new one."
        case .haveAccount: "Have an account? Sign in to accept."
        case .createAccount: "Create an account"
        case .yourName: "Your name"
        case .emailTaken: "An account with that email exists: sign in to accept."
        case .activityTitle: "Who viewed or changed this record"
        case .activityLink: "Who viewed or changed this record"
        case .when: "When"
        case .who: "Who"
        case .what: "What"
        case .whereFrom: "From"
        case .result: "Result"
        case .allowed: "allowed"
        case .denied: "denied"
        case .exportFHIR: "Download as FHIR AuditEvent (JSON)"
        case .olderEntries: "Older entries"
        case .someoneElse: "Someone without access"
        case .sharingLink: "Sharing and activity"
        case .allRecords: "All records"
        case .idleWarning: "For your privacy you will be signed out in one minute without activity."
        case .staySignedIn: "Stay signed in"
        case .you: "you"
        case .patientsTitle: "Patients"
        case .needAttention: "{0} of {1} patients need attention."
        case .showingFirstPatients: "Showing {0} of your {1} patients."
        case .otherRecords: "Your other care records"
        case .lastSevenDays: "Last 7 days: {0} of tasks done"
        case .lastSevenDaysNothing: "Last 7 days: nothing to do"
        case .flagMissedDoses: "Missed doses on {0} days"
        case .flagPain: "Pain {0} of 10"
        case .needsAttention: "Needs attention"
        case .noActivity: "No activity yet"
        case .today: "today"
        case .yesterday: "yesterday"
        case .daysAgo: "{0} days ago"
        case .lastActivity: "Last activity: {0}"
        }
    }

    var korean: String {
        switch self {
        case .signInTitle: "로그인"
        case .email: "이메일"
        case .password: "비밀번호"
        case .signIn: "로그인"
        case .signInFailed: "이메일 또는 비밀번호가 올바르지 않습니다."
        case .tooManyFailures: "로그인 실패가 너무 많습니다. {0}분 후에 다시 시도하세요."
        case .signedOutIdle: "기록을 보호하기 위해 한동안 사용하지 않아 로그아웃되었습니다."
        case .signedOut: "로그아웃되었습니다."
        case .demoPeople: "데모 사용자"
        case .demoSignInAs: "{0}(으)로 로그인"
        case .homeTitle: "케어 기록"
        case .noRecords: "아직 케어 기록이 없습니다. 환자(또는 보호자)에게 초대 링크를 요청하세요."
        case .openRecord: "{0}의 케어 기록 열기"
        case .rolePatient: "환자"
        case .roleCaregiver: "보호자"
        case .roleClinician: "의료진"
        case .owner: "소유자"
        case .accountTitle: "계정"
        case .signOut: "로그아웃"
        case .signOutEverywhere: "모든 기기에서 로그아웃"
        case .signOutEverywhereHint: "이 기기를 포함해 모든 기기에서 이 계정의 세션을 끝냅니다."
        case .changePassword: "비밀번호 변경"
        case .currentPassword: "현재 비밀번호"
        case .newPassword: "새 비밀번호"
        case .repeatPassword: "새 비밀번호 확인"
        case .passwordChanged: "비밀번호가 변경되었습니다. 다른 기기는 로그아웃되었습니다."
        case .passwordsDiffer: "두 새 비밀번호가 다릅니다."
        case .wrongPassword: "현재 비밀번호가 올바르지 않습니다."
        case .account: "계정"
        case .signedInAs: "{0}(으)로 로그인됨"
        case .sharingTitle: "공유"
        case .whoHasAccess: "접근할 수 있는 사람"
        case .role: "역할"
        case .changeRole: "역할 변경"
        case .remove: "삭제"
        case .removeNamed: "{0} 삭제"
        case .roleOf: "{0}의 역할"
        case .invite: "초대하기"
        case .inviteHint: "초대는 7일 동안 한 번만 쓸 수 있는 링크입니다. 직접 전달하세요."
        case .createInvitation: "초대 링크 만들기"
        case .invitationLink: "초대 링크(한 번만 표시됨): 초대할 사람에게 보내세요."
        case .pendingInvitations: "대기 중인 초대"
        case .expires: "{0} 만료"
        case .revoke: "취소"
        case .invitationTitle: "초대"
        case .invitationBody: "{0}님이 {1}의 케어 기록에 {2}(으)로 초대했습니다."
        case .accept: "수락"
        case .invitationGone: "이 초대 링크는 이미 사용되었거나 취소되었거나 만료되었습니다. 새 링크를 요청하세요."
        case .haveAccount: "계정이 있나요? 로그인하여 수락하세요."
        case .createAccount: "계정 만들기"
        case .yourName: "이름"
        case .emailTaken: "이 이메일의 계정이 있습니다. 로그인하여 수락하세요."
        case .activityTitle: "이 기록을 보거나 변경한 사람"
        case .activityLink: "이 기록을 보거나 변경한 사람"
        case .when: "시각"
        case .who: "누구"
        case .what: "무엇"
        case .whereFrom: "위치"
        case .result: "결과"
        case .allowed: "허용"
        case .denied: "거부"
        case .exportFHIR: "FHIR AuditEvent(JSON)로 내려받기"
        case .olderEntries: "이전 항목"
        case .someoneElse: "접근 권한이 없는 사람"
        case .sharingLink: "공유 및 활동"
        case .allRecords: "모든 기록"
        case .idleWarning: "개인정보 보호를 위해 1분 동안 활동이 없으면 로그아웃됩니다."
        case .staySignedIn: "로그인 유지"
        case .you: "나"
        case .patientsTitle: "환자"
        case .needAttention: "환자 {1}명 중 {0}명이 주의가 필요합니다."
        case .showingFirstPatients: "환자 {1}명 중 {0}명을 보여 줍니다."
        case .otherRecords: "내 다른 돌봄 기록"
        case .lastSevenDays: "최근 7일: 할 일 {0} 완료"
        case .lastSevenDaysNothing: "최근 7일: 할 일 없음"
        case .flagMissedDoses: "{0}일 동안 복용을 놓침"
        case .flagPain: "통증 {0}/10"
        case .needsAttention: "주의 필요"
        case .noActivity: "아직 활동 없음"
        case .today: "오늘"
        case .yesterday: "어제"
        case .daysAgo: "{0}일 전"
        case .lastActivity: "마지막 활동: {0}"
        }
    }

    static func role(_ role: CareRole) -> HostText {
        switch role {
        case .patient: .rolePatient
        case .caregiver: .roleCaregiver
        case .clinician: .roleClinician
        }
    }
}


