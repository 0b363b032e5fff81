import Foundation
import OpenCareKitUI

/// The words of the account's access-token and two-step sign-in pages, in every language the app speaks; the switch
/// makes a missing translation a compile error.
enum AccountText: String, CaseIterable, Sendable, HostWords {
    case tokensTitle, tokensIntro, newToken, yourTokens, tokenRevoked, tokenLastUsed, tokenNeverUsed, tokenNoLongerShared,
         revoke, revokeNamed, makeTokenHeading, tokenName, tokenRecord, tokenScope, makeToken, tokenNameNeeded, tokenScopeProblem,
         tokenChooseRecord, tooManyTokens, noSuchToken, accessTokensLink, twoStepLinkOn, twoStepLinkOff,
         twoStepTitle, twoStepOnTitle, recoveryCodesHint, setupCodeWrong, wrongPassword, secondStepCodeLabel, secondStepCodeWrong,
         twoStepRequired, twoStepOnStatus, turnOff, turnOnTitle, qrLabel, scanHint, key, codeFromApp, turnOn,
         calendarHeading, calendarIntro, makeCalendarFeed, newCalendarFeed, openInCalendar, calendarLabel

    var english: String {
        switch self {
        case .tokensTitle: "Access tokens"
        case .tokensIntro: "A token lets a program use one record's JSON API (see /api/openapi.json) as you, within its scope, sent as Authorization: Bearer. It never does more than your role allows."
        case .newToken: "Your new token (shown once: copy it now)"
        case .yourTokens: "Your tokens"
        case .tokenRevoked: "revoked"
        case .tokenLastUsed: "last used {0}"
        case .tokenNeverUsed: "never used"
        case .tokenNoLongerShared: "no longer shared"
        case .revoke: "Revoke"
        case .revokeNamed: "Revoke {0}"
        case .makeTokenHeading: "Make a token"
        case .tokenName: "Name"
        case .tokenRecord: "Record"
        case .tokenScope: "Scope (SMART), such as patient/*.rs to read, patient/*.cruds to read and write"
        case .makeToken: "Make token"
        case .tokenNameNeeded: "Name the token (at most 100 characters)."
        case .tokenScopeProblem: "The scope: {0}"
        case .tokenChooseRecord: "Choose one of your records."
        case .tooManyTokens: "Revoke a token first (at most {0})."
        case .noSuchToken: "You have no such token."
        case .accessTokensLink: "Access tokens for the JSON API"
        case .twoStepLinkOn: "Two-step sign-in: on"
        case .twoStepLinkOff: "Two-step sign-in: off"
        case .twoStepTitle: "Two-step sign-in"
        case .twoStepOnTitle: "Two-step sign-in is on"
        case .recoveryCodesHint: "Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone; they are not shown again."
        case .setupCodeWrong: "That code is not right: type the 6 digits the app shows now."
        case .wrongPassword: "The password is not right."
        case .secondStepCodeLabel: "The code from your authenticator app, or a recovery code"
        case .secondStepCodeWrong: "That code is not right."
        case .twoStepRequired: "This server asks clinicians to use two-step sign-in: turn it on to go on."
        case .twoStepOnStatus: "Two-step sign-in is on. Unused recovery codes: {0}."
        case .turnOff: "Turn two-step sign-in off"
        case .turnOnTitle: "Turn on two-step sign-in"
        case .qrLabel: "QR code for your authenticator app"
        case .scanHint: "Scan the code with an authenticator app, or type the key into it, then enter the 6 digits it shows."
        case .key: "Key: "
        case .codeFromApp: "Code from the app"
        case .turnOn: "Turn on"
        case .calendarHeading: "Calendar feed"
        case .calendarIntro: "Subscribe to a record's tasks in your calendar app (Apple Calendar, Google Calendar, Outlook), with a reminder at each one. The link is a secret: anyone who has it sees the tasks. Making a new link for a record stops its old one; revoking it in the list above stops it."
        case .makeCalendarFeed: "Make a calendar link"
        case .newCalendarFeed: "Your calendar link (shown once: add it to your calendar app as a subscription)"
        case .openInCalendar: "Open in your calendar app"
        case .calendarLabel: "Calendar"
        }
    }

    var korean: String {
        switch self {
        case .tokensTitle: "액세스 토큰"
        case .tokensIntro: "토큰이 있으면 프로그램이 나를 대신해 토큰의 범위 안에서 한 기록의 JSON API(/api/openapi.json 참고)를 사용할 수 있습니다. 토큰은 Authorization: Bearer로 보냅니다. 토큰으로는 내 역할이 허용하는 일만 할 수 있습니다."
        case .newToken: "새 토큰(한 번만 표시됨: 지금 복사하세요)"
        case .yourTokens: "내 토큰"
        case .tokenRevoked: "취소됨"
        case .tokenLastUsed: "마지막 사용: {0}"
        case .tokenNeverUsed: "사용한 적 없음"
        case .tokenNoLongerShared: "더 이상 공유되지 않음"
        case .revoke: "취소"
        case .revokeNamed: "{0} 취소"
        case .makeTokenHeading: "토큰 만들기"
        case .tokenName: "이름"
        case .tokenRecord: "기록"
        case .tokenScope: "범위(SMART), 예: 읽기는 patient/*.rs, 읽기와 쓰기는 patient/*.cruds"
        case .makeToken: "토큰 만들기"
        case .tokenNameNeeded: "토큰 이름을 입력하세요(최대 100자)."
        case .tokenScopeProblem: "범위: {0}"
        case .tokenChooseRecord: "내 기록 중 하나를 선택하세요."
        case .tooManyTokens: "먼저 토큰을 취소하세요(최대 {0}개)."
        case .noSuchToken: "해당 토큰이 없습니다."
        case .accessTokensLink: "JSON API용 액세스 토큰"
        case .twoStepLinkOn: "2단계 로그인: 켜짐"
        case .twoStepLinkOff: "2단계 로그인: 꺼짐"
        case .twoStepTitle: "2단계 로그인"
        case .twoStepOnTitle: "2단계 로그인이 켜졌습니다"
        case .recoveryCodesHint: "이 복구 코드를 안전한 곳에 보관하세요. 휴대전화를 잃어버렸을 때 코드마다 한 번씩 로그인할 수 있습니다. 다시 표시되지 않습니다."
        case .setupCodeWrong: "코드가 올바르지 않습니다. 지금 앱에 표시된 6자리 숫자를 입력하세요."
        case .wrongPassword: "비밀번호가 올바르지 않습니다."
        case .secondStepCodeLabel: "인증 앱의 코드 또는 복구 코드"
        case .secondStepCodeWrong: "코드가 올바르지 않습니다."
        case .twoStepRequired: "이 서버에서는 의료진이 2단계 로그인을 사용해야 합니다. 계속하려면 켜세요."
        case .twoStepOnStatus: "2단계 로그인이 켜져 있습니다. 남은 복구 코드: {0}개."
        case .turnOff: "2단계 로그인 끄기"
        case .turnOnTitle: "2단계 로그인 켜기"
        case .qrLabel: "인증 앱용 QR 코드"
        case .scanHint: "인증 앱으로 코드를 스캔하거나 키를 직접 입력한 다음, 앱에 표시된 6자리 숫자를 입력하세요."
        case .key: "키: "
        case .codeFromApp: "앱의 코드"
        case .turnOn: "켜기"
        case .calendarHeading: "캘린더 구독"
        case .calendarIntro: "기록의 할 일을 캘린더 앱(Apple 캘린더, Google 캘린더, Outlook)에서 구독하고 할 일마다 알림을 받을 수 있습니다. 이 링크는 비밀입니다. 링크가 있는 사람은 누구나 할 일을 볼 수 있습니다. 기록의 새 링크를 만들면 이전 링크는 더 이상 작동하지 않으며, 위 목록에서 취소해도 작동이 멈춥니다."
        case .makeCalendarFeed: "캘린더 링크 만들기"
        case .newCalendarFeed: "새 캘린더 링크(한 번만 표시됩니다. 캘린더 앱에 구독으로 추가하세요)"
        case .openInCalendar: "캘린더 앱에서 열기"
        case .calendarLabel: "캘린더"
        }
    }

    static func twoStepLink(isOn: Bool) -> AccountText {
        isOn ? .twoStepLinkOn : .twoStepLinkOff
    }
}
