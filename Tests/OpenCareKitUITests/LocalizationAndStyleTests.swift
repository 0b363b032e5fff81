import Foundation
import Testing
@testable import OpenCareKitUI

@Suite struct LocalizationTests {
    @Test(arguments: OCKStringKey.allCases)
    func everyLanguageHasEveryStringWithTheSamePlaceholders(key: OCKStringKey) {
        let placeholders = { (text: String) in Set((0..<4).filter { text.contains("{\($0)}") }) }
        let english = OCKLanguage.english.template(key)
        for language in OCKLanguage.allCases {
            let text = language.template(key)
            #expect(!text.isEmpty)
            #expect(placeholders(text) == placeholders(english), "\(language) \(key)")
        }
        #expect(OCKLanguage.korean.template(key).unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
            || ["{0}: {1}", "{0}{1}", "{0}, {1}", "{1} {0}", "{0} ({1})"].contains(OCKLanguage.korean.template(key)), "\(key) is not translated")
    }

    @Test func placeholdersAreFilledOnceInOrder() {
        let l10n = OCKLocalization(language: .korean)
        #expect(l10n.string(.deleteEntry, "메스꺼움", "오전 9:12") == "오전 9:12에 기록한 메스꺼움 삭제")
        // An argument that looks like a placeholder stays as written.
        #expect(OCKLocalization().string(.progressOfGoal, "{1}", "8") == "{1} of 8")
    }

    @Test func datesTimesAndNumbersFollowTheLocale() {
        let date = ISO8601DateFormatter().date(from: "2026-11-16T17:05:00Z")!
        let utc = TimeZone(identifier: "UTC")!
        let english = OCKLocalization(language: .english, timeZone: utc)
        let korean = OCKLocalization(language: .korean, timeZone: utc)
        #expect(english.time(date).replacingOccurrences(of: "\u{202F}", with: " ") == "5:05 PM")
        #expect(korean.time(date) == "오후 5:05")
        #expect(english.fullDay(date) == "Monday, November 16")
        #expect(korean.fullDay(date) == "11월 16일 월요일")
        #expect(english.weekdayShort(date) == "Mon" && korean.weekdayShort(date) == "월")
        #expect(english.number(1234.56) == "1,234.6")
        #expect(english.number(72.5, unit: "kg") == "72.5 kg" && korean.number(72.5, unit: "kg") == "72.5kg")
        #expect(english.percent(0.75) == "75%")
        #expect(english.number(.nan) == "no data")
        let german = OCKLocalization(language: .english, locale: Locale(identifier: "de_DE"), timeZone: utc)
        #expect(german.number(1234.5) == "1.234,5")
    }

    @Test func componentsSpeakTheReadersLanguage() {
        let korean = OCKRenderContext(localization: OCKLocalization(language: .korean, timeZone: TimeZone(identifier: "Asia/Seoul")!))
        let eight = ISO8601DateFormatter().date(from: "2026-11-16T23:00:00Z")! // 08:00 in Seoul
        let html = OCKSimpleTaskView(title: "이부프로펜", eventTime: .time(eight), isComplete: false,
                                     action: OCKFormAction(url: SafeURL("/x")!)).render(in: korean).rendered
        #expect(html.contains(#"aria-label="이부프로펜 오전 8:00 완료로 표시""#))
        #expect(OCKInstructionsTaskView(title: "운동", instructions: nil, isComplete: false, action: nil)
            .render(in: korean).rendered.contains(">완료로 표시<"))
        let log = OCKLogTaskView(title: "메스꺼움", logAction: nil, entries: []).render(in: korean).rendered
        #expect(log.contains(#"aria-label="메스꺼움 기록하기""#) && log.contains(">기록<"))
        #expect(OCKInstructionsTaskView(title: "운동", instructions: nil, eventTime: .allDay, isComplete: true, action: nil)
            .render(in: korean).rendered.contains(#"aria-label="운동 종일 완료로 표시" aria-pressed="true""#))
    }
}

@Suite struct StyleTests {
    @Test func colorsAreHexOnly() {
        #expect(OCKColor(hex: "#0062CC")?.description == "#0062cc")
        #expect(OCKColor(hex: "0062cc")?.description == "#0062cc")
        for bad in ["red", "#12345", "#1234567", "#12345g", "#000;}body{display:none", ""] { #expect(OCKColor(hex: bad) == nil) }
    }

    @Test func stylerRendersCustomPropertiesForLightAndDark() {
        var styler = OCKStyler()
        styler.light.tint = OCKColor(hex: "#aa0000")!
        styler.dimensions.buttonHeight = 3
        styler.dimensions.cornerRadius = .infinity
        let css = OCKStylesheet.css(styler)
        #expect(css.contains("--ock-color-tint: #aa0000;"))
        #expect(css.contains("--ock-button-height: max(44px, 3rem);"))
        #expect(css.contains("--ock-radius: 0rem;"))
        #expect(css.contains("@media (prefers-color-scheme: dark) {\n  :root:not([data-appearance=\"light\"]) {\n    color-scheme: dark;"))
        #expect(css.contains(":root[data-appearance=\"dark\"] {\n  color-scheme: dark;"))
        #expect(css.contains("@media (prefers-reduced-motion: reduce)"))
        // Rules only use the styler's properties for colors (no stray literals beyond the featured overlay).
        #expect(!OCKStylesheet.rules.contains("#0062cc"))
        // Text is sized in rem or em, chart text included.
        #expect(!OCKStylesheet.rules.components(separatedBy: "font-size:").dropFirst().contains { part in
            let value = part.prefix(while: { $0 != ";" && $0 != "}" }).trimmingCharacters(in: .whitespaces)
            return !(value.hasSuffix("rem") || value.hasSuffix("em"))
        })
    }

    @Test func pagesLinkTheirStylesheetAndScriptAndChooseAnAppearance() {
        let page = OCKPage(title: "Care <today>", body: [HTML.text("hi")], stylesheet: SafeURL("/assets/opencarekit.css")!,
                           scripts: [SafeURL("/assets/opencarekit.js")!], appearance: .dark)
        let html = page.rendered(in: OCKRenderContext(localization: OCKLocalization(language: .korean)))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html data-appearance=\"dark\" lang=\"ko\">"))
        #expect(html.contains("<title>Care &lt;today&gt;</title>"))
        #expect(html.contains(#"<script defer="defer" src="/assets/opencarekit.js"></script>"#))
        #expect(!html.contains("<style") && !html.contains("<script>"))
    }
}
