import Testing
@testable import OpenCareKitUI

@Suite struct HTMLTests {
    @Test func textAndAttributesAreEscaped() {
        let node = HTML.element("p", ["title": #"a "quoted" <b>"#], [.text("<script>alert('x')</script> & more")])
        #expect(node.rendered == #"<p title="a &quot;quoted&quot; &lt;b&gt;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more</p>"#)
    }

    @Test func namesCannotBreakOutOfTags() {
        #expect(HTML.element("p onclick=alert(1)", ["x\" onmouseover=\"y": "1"], []).rendered
            == #"<ponclickalert1 xonmouseovery="1"></ponclickalert1>"#)
        #expect(HTML.element("", [:], []).rendered == "<span></span>")
    }

    @Test func voidElementsHaveNoClosingTag() {
        #expect(HTML.element("input", ["type": "hidden", "name": "id", "value": "1"], []).rendered
            == #"<input name="id" type="hidden" value="1">"#)
    }

    @Test(arguments: ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
                      "data:text/html,<script>alert(1)</script>", "vbscript:msgbox", "//evil.example/x", "", "file:///etc/passwd"])
    func unsafeLinksAreRefused(url: String) {
        #expect(SafeURL(url) == nil)
    }

    @Test(arguments: ["https://example.org/a?b=c", "/care?date=2026-11-22", "tel:+15035550142", "sms:+15035550142",
                      "mailto:a@example.org", "maps:?q=Portland", "#main", "care/today"])
    func safeLinksAreKept(url: String) {
        #expect(SafeURL(url)?.description == url)
    }

    @Test func contactLinkBuildersKeepOnlyWhatTheSchemeAllows() {
        #expect(SafeURL.telephone("(503) 555-0142")?.description == "tel:5035550142")
        #expect(SafeURL.telephone("javascript:alert(1)") == nil)
        #expect(SafeURL.message("+1 503 555 0142")?.description == "sms:+15035550142")
        #expect(SafeURL.email("m.ruiz@example.org")?.description == "mailto:m.ruiz@example.org")
        #expect(SafeURL.email("not an address") == nil)
        #expect(SafeURL.email("a@b.org?subject=<script>")?.description.contains("<") == false)
    }
}
