import OpenCareKitStore
import OpenCareKitUI

/// The words of the host's own pages (sign-in, home, account), in every language the app speaks; the switch makes a
/// missing translation a compile error.
enum HostText: String, CaseIterable, Sendable {
    case signInTitle, email, password, signIn, signInFailed, tooManyFailures, signedOutIdle, signedOut, demoPeople,
         demoSignInAs, homeTitle, noRecords, openRecord, rolePatient, roleCaregiver, roleClinician, owner, accountTitle,
         signOut, signOutEverywhere, signOutEverywhereHint, changePassword, currentPassword, newPassword,
         repeatPassword, passwordChanged, passwordsDiffer, wrongPassword, account, signedInAs

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


