import Foundation
import Testing
@testable import OpenCareKitUI

@Suite struct ContactViewTests {
    @Test func simpleContactShowsMonogramRoleCategoryAndDisclosure() {
        let html = OCKSimpleContactView(name: "Dr. Maria Ruiz", title: "Family Practice Doctor", category: .careTeam,
                                        detailURL: SafeURL("/contacts/ruiz")).render().rendered
        #expect(html.hasPrefix(#"<article class="ock-card ock-contact ock-care-team"><a class="ock-contact-header ock-contact-link" href="/contacts/ruiz">"#))
        #expect(html.contains(#"<span aria-hidden="true" class="ock-monogram">MR</span>"#))
        #expect(html.contains(#"<p class="ock-contact-title">Family Practice Doctor</p>"#))
        // The category is a text badge with an icon, not only a color.
        #expect(html.contains("ock-glyph-careTeam"))
        #expect(html.contains("Care team</p>"))
        #expect(html.contains(#"class="ock-disclosure""#))
        let withPhoto = OCKSimpleContactView(name: "Lexi Torres", image: SafeURL("/photos/lexi.jpg"), category: .friendsAndFamily).render().rendered
        #expect(withPhoto.contains(#"<img alt="" class="ock-contact-photo" src="/photos/lexi.jpg">"#))
        #expect(withPhoto.contains("Friends and family"))
        #expect(!withPhoto.contains("<a ") && !withPhoto.contains("ock-disclosure"))
    }

    @Test(arguments: [("Maria Ruiz", "MR"), ("Dr. Maria de la Ruiz", "MR"), ("Dr. Maria Ruiz", "MR"), ("Dr.", "D"), ("김민지", "김"), ("cher", "C"), ("", "?"), ("  ", "?")])
    func monograms(name: String, expected: String) {
        #expect(OCKSimpleContactView.monogram(for: name) == expected)
    }

    @Test func detailedContactHasLabelledWaysToReachThem() {
        let html = OCKDetailedContactView(name: "Dr. Maria Ruiz", category: .careTeam, phoneNumber: "(503) 555-0142",
                                          messagingNumber: "+1 503 555 0142", emailAddress: "m.ruiz@example.org",
                                          address: "2101 NW Lovejoy St\nPortland, OR 97210").render().rendered
        #expect(html.contains(#"<a aria-label="Call Dr. Maria Ruiz" class="ock-contact-action" href="tel:5035550142">"#))
        #expect(html.contains(#"<a aria-label="Message Dr. Maria Ruiz" class="ock-contact-action" href="sms:+15035550142">"#))
        #expect(html.contains(#"<a aria-label="Email Dr. Maria Ruiz" class="ock-contact-action" href="mailto:m.ruiz@example.org">"#))
        #expect(html.contains(#"<p class="ock-address">2101 NW Lovejoy St<br>Portland, OR 97210</p>"#))
        #expect(html.contains(#"aria-label="Location of Dr. Maria Ruiz on a map" class="ock-contact-action ock-map-link" href="https://www.openstreetmap.org/search?query=2101%20NW%20Lovejoy%20St%2C%20Portland%2C%20OR%2097210""#))
        for label in [">Call<", ">Message<", ">Email<", ">Location<"] { #expect(html.contains(label)) }
    }

    @Test func unusableNumbersAndAddressesLeaveTheirActionOut() {
        let html = OCKDetailedContactView(name: "X", phoneNumber: "javascript:alert(1)", messagingNumber: "call me",
                                          emailAddress: "nobody").render().rendered
        #expect(!html.contains("ock-contact-actions"))
        #expect(!html.contains("javascript"))
    }
}

@Suite struct CalendarViewTests {
    let context = OCKRenderContext(localization: OCKLocalization(language: .english, timeZone: TimeZone(identifier: "UTC")!))

    func day(_ number: Int, hour: Int = 0) -> Date {
        ISO8601DateFormatter().date(from: String(format: "2026-11-%02dT%02d:00:00Z", number, hour))!
    }

    @Test func weekCalendarMarksTodaySelectionAndFutureDays() {
        let days = (16...22).map { OCKWeekCalendarView.Day(date: day($0), completion: $0 == 20 ? nil : Double($0 - 16) / 4,
                                                           url: SafeURL("/care?date=2026-11-\($0)")) }
        let html = OCKWeekCalendarView(days: days, selectedDate: day(18, hour: 9), now: day(19, hour: 10)).render(in: context).rendered
        #expect(html.hasPrefix(#"<nav aria-label="Week" class="ock-week-calendar"><ol>"#))
        #expect(html.components(separatedBy: "<li>").count == 8)
        #expect(html.contains(#"<a aria-current="date" aria-label="Wednesday, November 18: 50% complete" class="ock-day ock-selected" data-completion="0.5000" href="/care?date=2026-11-18">"#))
        #expect(html.contains(#"aria-label="Thursday, November 19: 75% complete, Today" class="ock-day ock-today""#))
        #expect(html.contains(#"aria-label="Friday, November 20: no tasks" class="ock-day ock-future" data-completion="""#))
        #expect(html.contains(#"aria-label="Monday, November 16: 0% complete" class="ock-day" data-completion="0.0000" href"#))
        // Rings inside days are decoration; the day's link carries the label.
        #expect(!html.contains(#"role="img""#))
    }

    @Test func completionRingDrawsItsShareAndACheckWhenDone() {
        let partly = OCKCompletionRingView(fraction: 0.6).render(in: context).rendered
        #expect(partly.contains(#"aria-label="60% complete""#) && partly.contains(#"role="img""#))
        #expect(partly.contains(#"stroke-dasharray="60 100""#))
        #expect(!partly.contains("ock-ring-check"))
        let done = OCKCompletionRingView(fraction: 1).render(in: context).rendered
        #expect(done.contains("ock-ring-check") && done.contains("ock-ring ock-complete"))
        let none = OCKCompletionRingView(fraction: nil).render(in: context).rendered
        #expect(none.contains("ock-empty") && !none.contains("ock-ring-progress"))
        #expect(OCKCompletionRingView(fraction: 7).fraction == 1)
        #expect(OCKCompletionRingView(fraction: .nan).fraction == 0)
    }

    @Test func linkViewBuildsSafeLinksAndKeepsUnsafeOnesAsText() {
        let html = OCKLinkView(title: "Learn more", links: [
            .website("https://example.org/knee", title: "Knee guide"),
            .call(phoneNumber: "503-555-0142", title: "Clinic"),
            .message(phoneNumber: "503 555 0142", title: "Text us"),
            .email(address: "care@example.org", title: "Nurse line"),
            .location("2101 NW Lovejoy St", title: "Clinic location"),
            .website("javascript:alert(1)", title: "Bad"),
            .website("data:text/html,hi", title: "Worse"),
            .website("tel:123", title: "Not a website"),
        ]).render().rendered
        #expect(html.contains(#"<a class="ock-link-row" href="https://example.org/knee">"#))
        #expect(html.contains(#"href="tel:5035550142""#) && html.contains(#"href="sms:5035550142""#))
        #expect(html.contains(#"href="mailto:care@example.org""#))
        #expect(html.contains(#"href="https://www.openstreetmap.org/search?query=2101%20NW%20Lovejoy%20St""#))
        #expect(!html.contains("javascript:") && !html.contains("data:"))
        #expect(html.components(separatedBy: "ock-link-unavailable").count == 4)
        #expect(html.contains(">Bad<"))
    }

    @Test func featuredContentIsAnImageWithALabel() {
        let html = OCKFeaturedContentView(label: "Easing nausea", image: SafeURL("/img/featured.jpg"), url: SafeURL("/articles/nausea"))
            .render().rendered
        #expect(html == #"<article class="ock-card ock-featured"><a class="ock-featured-link" href="/articles/nausea"><img alt="" class="ock-featured-image" src="/img/featured.jpg"><span class="ock-featured-label">Easing nausea</span></a></article>"#)
        let described = OCKFeaturedContentView(label: "x", image: SafeURL("/a.jpg"), imageDescription: "A nurse").render().rendered
        #expect(described.contains(#"alt="A nurse""#) && described.contains(#"<div class="ock-featured-link">"#))
    }
}
