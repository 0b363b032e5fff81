import Foundation
import Testing
@testable import OpenCareKitUI

/// Hostile strings in every text field and link of every component: nothing becomes markup.
@Suite struct SafetyTests {
    static let hostile = [
        #"<script>alert("x")</script>"#,
        #"" onmouseover="alert(1)"#,
        #"' onfocus='alert(1)' autofocus='"#,
        "javascript:alert(1)",
        "</textarea></title><svg onload=alert(1)>",
        "{0}{1} & &amp; <!-- -->",
    ]

    static func everyComponent(_ text: String) -> [any OCKComponent] {
        let date = Date(timeIntervalSince1970: 1_763_280_000)
        let action = OCKFormAction(url: SafeURL("/act")!, fields: [text: text])
        let url = SafeURL(text) // nil for the script URLs: link builders refuse them
        let item = OCKEventItem(time: .text(text), isComplete: false, action: action)
        let series = [OCKDataSeries(title: text, points: [OCKDataPoint(1, label: text), OCKDataPoint(nil)], mark: .bar, unit: text),
                      OCKDataSeries(title: text, values: [2, 3], mark: .lineWithPoints, unit: text, axis: .trailing)]
        return [
            OCKCardView(header: OCKHeaderView(title: text, detail: text, iconName: text), contentStack: [HTML.text(text)], identifier: text),
            OCKSimpleTaskView(title: text, detail: text, eventTime: .text(text), isComplete: true, action: action,
                              completedImage: url, identifier: text),
            OCKInstructionsTaskView(title: text, detail: text, instructions: text, eventTime: .text(text), isComplete: false,
                                    action: action, identifier: text),
            OCKChecklistTaskView(title: text, detail: text, items: [item], instructions: text, identifier: text),
            OCKGridTaskView(title: text, detail: text, items: [item], cellContent: [0: HTML.text(text)], instructions: text,
                            identifier: text),
            OCKLogTaskView(title: text, detail: text, instructions: text, logTitle: text, logAction: action,
                           entries: [.init(time: .text(text), value: text, deleteAction: action)], identifier: text),
            OCKLabeledValueTaskView(title: text, detail: text, state: .complete(value: text, label: text), identifier: text),
            OCKLabeledValueTaskView(title: text, state: .incomplete(label: text)),
            OCKNumericProgressTaskView(title: text, detail: text, progress: 1, progressText: text, goal: 2, goalText: text,
                                       instructions: text, identifier: text),
            OCKCartesianChartView(title: text, detail: text, summary: text, domain: .categories([text, text]), series: series,
                                  identifier: text),
            OCKCartesianChartView(title: text, domain: .dates([date, date.addingTimeInterval(86_400)], .day), series: series),
            OCKSimpleContactView(name: text, title: text, image: url, category: .careTeam, detailURL: url, identifier: text),
            OCKDetailedContactView(name: text, title: text, image: url, category: .friendsAndFamily, instructions: text,
                                   phoneNumber: text, messagingNumber: text, emailAddress: text + "@example.org",
                                   address: text + "\n" + text, mapURL: url, identifier: text),
            OCKWeekCalendarView(days: [.init(date: date, completion: 0.5, url: url)], selectedDate: date, now: date, identifier: text),
            OCKCompletionRingView(fraction: 0.5),
            OCKLinkView(title: text, detail: text, links: [.website(text, title: text), .call(phoneNumber: text, title: text),
                                                          .message(phoneNumber: text, title: text), .email(address: text, title: text),
                                                          .location(text, title: text)], identifier: text),
            OCKFeaturedContentView(label: text, image: url, imageDescription: text, url: url, identifier: text),
        ]
    }

    @Test(arguments: hostile)
    func hostileStringsNeverBecomeMarkup(text: String) {
        for language in OCKLanguage.allCases {
            let context = OCKRenderContext(localization: OCKLocalization(language: language))
            for component in Self.everyComponent(text) {
                let html = component.render(in: context).rendered
                let name = String(describing: type(of: component))
                #expect(!html.contains("<script"), "\(name)")
                #expect(!html.contains("<svg onload"), "\(name)")
                #expect(!html.contains("<!--"), "\(name)")
                #expect(!html.contains(#"" onmouseover="#), "\(name)")
                #expect(!html.contains("' onfocus='"), "\(name)")
                #expect(!html.contains(#"href="javascript"#) && !html.contains(#"src="javascript"#), "\(name)")
                #expect(Self.tagsAreBalanced(html), "\(name)")
            }
        }
    }

    /// Every `<` starts a tag this module writes: an element name from a fixed set, or a closing tag.
    static func tagsAreBalanced(_ html: String) -> Bool {
        let known: Set<String> = ["article", "header", "div", "h1", "h2", "h3", "h4", "h5", "h6", "p", "span", "form", "input",
                                  "button", "ul", "ol", "li", "img", "meter", "svg", "g", "rect", "line", "path", "circle",
                                  "polygon", "text", "defs", "pattern", "nav", "a", "br"]
        var stack: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: ">") else { return false }
            let tag = after[..<close]
            if tag.hasPrefix("/") {
                guard stack.popLast() == String(tag.dropFirst()) else { return false }
            } else {
                let name = String(tag.prefix { $0 != " " })
                guard known.contains(name) else { return false }
                if !HTML.voidElements.contains(name) { stack.append(name) }
            }
            rest = after[after.index(after: close)...]
        }
        return stack.isEmpty
    }

    @Test(arguments: ["javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "JAVASCRIPT:x", "\u{0}javascript:x"])
    func linkBuildersRefuseScriptURLs(text: String) {
        #expect(SafeURL(text) == nil)
        #expect(SafeURL.telephone(text) == nil && SafeURL.message(text) == nil)
        #expect(OCKLinkView.Link.website(text, title: "t").url == nil)
    }
}

@Suite struct GalleryTests {
    @Test func everyComponentAppearsInEveryVariant() {
        let classes = ["ock-simple-task", "ock-instructions-task", "ock-checklist-task", "ock-grid-task", "ock-log-task",
                       "ock-labeled-value-task", "ock-numeric-progress-task", "ock-chart", "ock-contact",
                       "ock-detailed-contact", "ock-week-calendar", "ock-ring", "ock-link-view", "ock-featured",
                       "ock-completed-image", "ock-stack-separator", "ock-tick-trailing", "ock-log-entry"]
        #expect(OCKGallery.all.count == 4)
        for gallery in OCKGallery.all {
            let page = gallery.page()
            for name in classes { #expect(page.contains(name), "\(gallery.fileName) lacks \(name)") }
            // Incomplete, partly done and done states.
            #expect(page.contains(#"aria-pressed="false""#) && page.contains(#"aria-pressed="true""#))
            #expect(page.contains("data-appearance=\"\(gallery.appearance.rawValue)\""))
            #expect(page.contains("lang=\"\(gallery.language.rawValue)\""))
            #expect(SafetyTests.tagsAreBalanced(page.components(separatedBy: "<body>")[1]
                .replacingOccurrences(of: "</body></html>", with: "")
                .replacingOccurrences(of: "<main class=\"ock-page-main\">", with: "<div>")
                .replacingOccurrences(of: "</main>", with: "</div>")
                .replacingOccurrences(of: "<section class=\"ock-page-section\">", with: "<div>")
                .replacingOccurrences(of: "</section>", with: "</div>")))
        }
        #expect(OCKGallery(language: .korean, appearance: .light).page().contains("복약 순응도"))
        #expect(OCKGallery.assets.keys.sorted() == ["featured.svg", "opencarekit.css", "opencarekit.js", "portrait.svg", "star.svg"])
    }
}
