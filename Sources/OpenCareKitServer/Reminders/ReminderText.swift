import OpenCareKitUI

/// The words of reminders: the settings page, the device's notifications and the notices in open pages.
enum ReminderText: String, CaseIterable, Sendable, HostWords {
    case title, link, intro, unavailable, tasksHeading, noTasks, quietHeading, quietHint, quietFrom, quietTo, followUp, followUpNone,
         followUpAfter, save, saved, quietInvalid, unknownTask, deviceHeading, deviceIntro, turnOnDevice, deviceOn, deviceUnsupported,
         deviceDenied, deviceFailed, subscriptionRefused, reminderTitle, followUpTitle, today, notice, followUpNotice, open, dismiss

    var english: String {
        switch self {
        case .title: "Reminders"
        case .link: "Reminders"
        case .intro: "Choose the tasks to be reminded of. A reminder comes when a task is due, on each device where you turned notifications on, and in the app while it is open — unless the task is already done."
        case .unavailable: "This server does not send reminders."
        case .tasksHeading: "Remind me of"
        case .noTasks: "This record has no tasks yet."
        case .quietHeading: "Quiet hours"
        case .quietHint: "Reminders due in quiet hours come when they end (times in the record's time zone, {0})."
        case .quietFrom: "From"
        case .quietTo: "To"
        case .followUp: "If a task is still not done"
        case .followUpNone: "No second reminder"
        case .followUpAfter: "Remind again after {0} minutes"
        case .save: "Save reminders"
        case .saved: "Your reminders are saved."
        case .quietInvalid: "Give quiet hours as two times, or leave both empty."
        case .unknownTask: "Choose tasks of this record."
        case .deviceHeading: "This device"
        case .deviceIntro: "Notifications reach this device even when the app is closed."
        case .turnOnDevice: "Turn on notifications on this device"
        case .deviceOn: "Notifications are on for this device."
        case .deviceUnsupported: "This browser cannot receive notifications (on an iPhone, add the app to the Home Screen first)."
        case .deviceDenied: "Notifications are blocked for this site: allow them in the browser's settings."
        case .deviceFailed: "This browser could not turn notifications on."
        case .subscriptionRefused: "This server cannot send to that browser: {0}"
        case .reminderTitle: "Reminder"
        case .followUpTitle: "Still to do"
        case .today: "today"
        case .notice: "Reminder: {0} ({1})"
        case .followUpNotice: "Still to do: {0} ({1})"
        case .open: "Open"
        case .dismiss: "Dismiss"
        }
    }

    var korean: String {
        switch self {
        case .title: "알림"
        case .link: "알림"
        case .intro: "알림을 받을 작업을 고르세요. 작업 시간이 되면, 알림을 켠 각 기기와 열려 있는 앱에 알림이 옵니다. 이미 한 작업은 알리지 않습니다."
        case .unavailable: "이 서버는 알림을 보내지 않습니다."
        case .tasksHeading: "알림 받을 작업"
        case .noTasks: "이 기록에는 아직 작업이 없습니다."
        case .quietHeading: "방해 금지 시간"
        case .quietHint: "방해 금지 시간에 울릴 알림은 그 시간이 끝날 때 옵니다 (기록의 시간대 {0} 기준)."
        case .quietFrom: "시작"
        case .quietTo: "끝"
        case .followUp: "작업을 아직 하지 않았다면"
        case .followUpNone: "다시 알리지 않음"
        case .followUpAfter: "{0}분 뒤 다시 알림"
        case .save: "알림 저장"
        case .saved: "알림 설정을 저장했습니다."
        case .quietInvalid: "방해 금지 시간은 두 시각으로 입력하거나 둘 다 비워 두세요."
        case .unknownTask: "이 기록의 작업을 고르세요."
        case .deviceHeading: "이 기기"
        case .deviceIntro: "앱이 닫혀 있어도 이 기기로 알림이 옵니다."
        case .turnOnDevice: "이 기기에서 알림 켜기"
        case .deviceOn: "이 기기의 알림이 켜져 있습니다."
        case .deviceUnsupported: "이 브라우저는 알림을 받을 수 없습니다 (iPhone에서는 먼저 앱을 홈 화면에 추가하세요)."
        case .deviceDenied: "이 사이트의 알림이 차단되어 있습니다. 브라우저 설정에서 허용하세요."
        case .deviceFailed: "이 브라우저에서 알림을 켜지 못했습니다."
        case .subscriptionRefused: "이 서버는 그 브라우저로 보낼 수 없습니다: {0}"
        case .reminderTitle: "알림"
        case .followUpTitle: "아직 할 일"
        case .today: "오늘"
        case .notice: "알림: {0} ({1})"
        case .followUpNotice: "아직 할 일: {0} ({1})"
        case .open: "열기"
        case .dismiss: "닫기"
        }
    }
}
