import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import OpenCareKitUI

/// The care app as an installable web app: its manifest (`/manifest.webmanifest`, in the reader's language), its
/// service worker (`/service-worker.js`, scoped to the whole site: one worker a scope, so it also shows pushed
/// reminders) and icons (`AppIcon`). The worker keeps the app shell — scripts, styles, icons — in a cache named after
/// `version`, a digest of that shell and of the worker's own words: a server with other assets serves another worker,
/// which replaces the shell whole (`Resources/sw.js`).
enum WebApp {
    static let manifestPath = "/manifest.webmanifest"
    /// The one worker of the site: the app shell, and pushed reminders (`Resources/sw.js`).
    static let workerPath = "/service-worker.js"

    /// What the app shell is: its files' addresses, and their content (the icons are PNG, made on first use).
    static let shellFiles = ["/assets/opencarekit.css", "/assets/opencarekit.js", "/assets/app.js", "/assets/surveys.js",
                             "/assets/outbox.js", "/assets/icon.svg"] + AppIcon.sizes.flatMap { size in [AppIcon.path(size: size, purpose: .any),
                                                                                  AppIcon.path(size: size, purpose: .maskable)] }

    /// The reminders' words in every language, for the worker's notifications (`ReminderText`).
    static let reminderWords: String = {
        let words = Dictionary(uniqueKeysWithValues: OCKLanguage.allCases.map { language in
            (language.rawValue, ["reminder": ReminderText.reminderTitle.text(language), "followUp": ReminderText.followUpTitle.text(language),
                                 "today": ReminderText.today.text(language), "newMessage": MessageText.newMessage.text(language)])
        })
        return (try? JSONSerialization.data(withJSONObject: words, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }()

    /// The words of the worker's own offline page, in every language.
    static let offlineWords: String = {
        let words = Dictionary(uniqueKeysWithValues: OCKLanguage.allCases.map { language in
            (language.rawValue, ["notKept": OfflineText.notKept.text(language), "title": OfflineText.offline.text(language)
                                    .components(separatedBy: " — ").first ?? ""])
        })
        return (try? JSONSerialization.data(withJSONObject: words, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }()

    /// A digest of the shell's texts, the worker's own text and the icons' bytes, which changes with any of them (the
    /// icons are drawn here, at the server's start).
    static func version(shellTexts: [String]) -> String {
        var hash = SHA256()
        for text in shellTexts + [String(decoding: PackageResources.sw_js, as: UTF8.self), reminderWords, offlineWords] { hash.update(data: Data(text.utf8)) }
        for path in AppIcon.all.keys.sorted() { hash.update(data: AppIcon.all[path] ?? Data()) }
        return hash.finalize().prefix(8).hexEncoded
    }

    /// The service worker, with the version and the shell's files written in.
    static func worker(version: String) -> String {
        let files = "[" + shellFiles.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        return String(decoding: PackageResources.sw_js, as: UTF8.self)
            .replacingOccurrences(of: "__OCK_VERSION__", with: version)
            .replacingOccurrences(of: "__OCK_SHELL__", with: files)
            .replacingOccurrences(of: "__OCK_WORDS__", with: reminderWords)
            .replacingOccurrences(of: "__OCK_OFFLINE_WORDS__", with: offlineWords)
    }

    /// The manifest in `language`: the app's names, where it starts, how it shows, its colours and icons.
    static func manifest(_ language: OCKLanguage) -> Data {
        let colors = OCKStyler.Colors.light
        let icons: [[String: String]] = AppIcon.sizes.flatMap { size in
            [AppIcon.Purpose.any, .maskable].map { purpose in
                ["src": AppIcon.path(size: size, purpose: purpose), "sizes": "\(size)x\(size)", "type": "image/png", "purpose": purpose.rawValue]
            }
        }
        let manifest: [String: Any] = [
            "id": "/", "start_url": "/", "scope": "/", "display": "standalone",
            "name": WebAppText.name.text(language), "short_name": WebAppText.shortName.text(language),
            "description": WebAppText.description.text(language), "lang": language == .korean ? "ko" : "en", "dir": "ltr",
            "theme_color": colors.background.description, "background_color": colors.background.description,
            "icons": icons,
        ]
        return (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}

/// The words of the installable app.
enum WebAppText: String, CaseIterable, Sendable, HostWords {
    case name, shortName, description, install, updateReady, reload

    var english: String {
        switch self {
        case .name: "OpenCareKit Care"
        case .shortName: "Care"
        case .description: "A care plan's tasks, check-ins and progress, with the care team."
        case .install: "Install the app"
        case .updateReady: "A new version of the app is ready."
        case .reload: "Reload"
        }
    }

    var korean: String {
        switch self {
        case .name: "OpenCareKit 케어"
        case .shortName: "케어"
        case .description: "케어 플랜의 할 일, 체크인과 진행 상황을 케어 팀과 함께 봅니다."
        case .install: "앱 설치"
        case .updateReady: "앱의 새 버전이 준비되었습니다."
        case .reload: "새로 고침"
        }
    }
}

/// The words of the app on a device: kept offline, changes waiting to be sent, and those the record refused. The
/// script fills in `{time}`, `{count}` and `{task}` (`Resources/app.js`, `DeviceData`).
enum OfflineText: String, CaseIterable, Sendable, HostWords {
    case onThisDevice, keep, keepHint, kept, offline, notKept, waiting, waitingCount, notSent, retry, discard, dismiss, signOutWaiting,
         signOutAnyway, stay, sending, signInToSend

    var english: String {
        switch self {
        case .onThisDevice: "On this phone"
        case .keep: "Keep my care plan on this phone"
        case .keepHint: "The Care pages of the last week and the next, Insights and Contacts stay readable without a connection; what you record offline is sent when the connection is back."
        case .kept: "Kept on this phone. Updated {time}."
        case .offline: "Offline — last updated {time}"
        case .notKept: "You are offline, and this page is not kept on this phone."
        case .waiting: "Waiting to send"
        case .waitingCount: "Changes waiting to send: {count}"
        case .notSent: "Not sent"
        case .retry: "Retry"
        case .discard: "Discard"
        case .dismiss: "OK"
        case .signOutWaiting: "Changes waiting to send: {count}. Signing out deletes them from this phone."
        case .signOutAnyway: "Sign out and delete them"
        case .stay: "Stay signed in"
        case .sending: "Sending…"
        case .signInToSend: "Sign in again to send the changes waiting on this phone."
        }
    }

    var korean: String {
        switch self {
        case .onThisDevice: "이 휴대폰"
        case .keep: "이 휴대폰에 내 케어 플랜 보관"
        case .keepHint: "지난주와 다음 주의 케어 페이지, 인사이트와 연락처를 연결 없이 볼 수 있으며, 오프라인에서 기록한 내용은 연결되면 전송됩니다."
        case .kept: "이 휴대폰에 보관됨. {time}에 업데이트됨."
        case .offline: "오프라인 — 마지막 업데이트 {time}"
        case .notKept: "오프라인 상태이며 이 페이지는 이 휴대폰에 보관되어 있지 않습니다."
        case .waiting: "전송 대기 중"
        case .waitingCount: "전송 대기 중인 변경: {count}"
        case .notSent: "전송되지 않음"
        case .retry: "다시 시도"
        case .discard: "삭제"
        case .dismiss: "확인"
        case .signOutWaiting: "전송 대기 중인 변경: {count}. 로그아웃하면 이 휴대폰에서 삭제됩니다."
        case .signOutAnyway: "로그아웃하고 삭제"
        case .stay: "로그인 유지"
        case .sending: "전송 중…"
        case .signInToSend: "이 휴대폰에서 대기 중인 변경을 보내려면 다시 로그인하세요."
        }
    }

    /// Every word in `language`, as a JSON object for the script.
    static func json(_ language: OCKLanguage) -> String {
        let words = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.text(language)) })
        let data = (try? JSONSerialization.data(withJSONObject: words, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension CareHost {
    func addWebAppRoutes(to routes: inout HostRoutes, shellTexts: [String]) {
        let worker = ByteBuffer(string: WebApp.worker(version: WebApp.version(shellTexts: shellTexts)))
        routes.public(.get, WebApp.workerPath) { _, _ in
            // Checked for a new version at every navigation (no-cache), and allowed to control the whole site.
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache",
                                            HTTPField.Name("Service-Worker-Allowed")!: "/"],
                     body: .init(byteBuffer: worker))
        }
        let manifests = Dictionary(uniqueKeysWithValues: OCKLanguage.allCases.map { ($0, ByteBuffer(bytes: WebApp.manifest($0))) })
        routes.public(.get, WebApp.manifestPath) { request, _ in
            Response(status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "public, max-age=300",
                                            .vary: "Accept-Language"],
                     body: .init(byteBuffer: manifests[request.preferredLanguage] ?? manifests[.english]!))
        }
        for size in AppIcon.sizes {
            for purpose in [AppIcon.Purpose.any, .maskable] {
                let path = AppIcon.path(size: size, purpose: purpose)
                routes.public(.get, path) { _, _ in
                    Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=300"],
                             body: .init(byteBuffer: ByteBuffer(bytes: AppIcon.all[path] ?? Data())))
                }
            }
        }
    }
}
