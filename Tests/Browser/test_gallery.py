"""The gallery in Chromium: loads cleanly, passes axe-core, keeps every target at 44×44 CSS px, and a chart can be
read with the keyboard."""
import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import DESKTOP, PHONE, SCREENSHOTS, open_page, opened_page

PAGES = ["en-light.html", "en-dark.html", "ko-light.html", "ko-dark.html"]
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}




@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_page_loads_cleanly_passes_axe_and_is_photographed(browser, gallery_url, name, size):
    with opened_page(browser, f"{gallery_url}/{name}", VIEWPORTS[size], failed_requests=True) as (page, errors):
        assert page.locator(".ock-card").count() > 30
        # The script ran: the audio graph buttons are shown.
        assert page.locator(".ock-audio-graph-button:visible").count() > 0
        results = Axe().run(page)
        violations = [
            f"{violation['id']}: {[node['target'] for node in violation['nodes']][:3]}"
            for violation in results.response["violations"]
        ]
        assert violations == []
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"gallery-{name.removesuffix('.html')}-{size}.png"), full_page=True)
        assert errors == []


def test_index_passes_axe(browser, gallery_url):
    with opened_page(browser, f"{gallery_url}/index.html", PHONE, failed_requests=True) as (page, errors):
        assert page.locator("a").count() == 4
        assert Axe().run(page).response["violations"] == []
        assert errors == []


@pytest.mark.parametrize("name", ["en-light.html", "ko-dark.html"])
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_button_and_link_is_at_least_44_by_44(browser, gallery_url, name, size):
    with opened_page(browser, f"{gallery_url}/{name}", VIEWPORTS[size], failed_requests=True) as (page, _):
        small = page.evaluate("""() => Array.from(document.querySelectorAll('button, a[href]'))
            .filter(element => element.getClientRects().length > 0)
            .map(element => { const box = element.getBoundingClientRect();
                              return {text: (element.getAttribute('aria-label') || element.textContent).trim().slice(0, 40),
                                      width: box.width, height: box.height}; })
            .filter(box => box.width < 44 || box.height < 44)""")
        count = page.evaluate("() => document.querySelectorAll('button, a[href]').length")
        assert count > 40
        assert small == []


def test_keyboard_moves_through_a_chart_and_the_live_region_reads_each_value(browser, gallery_url):
    with opened_page(browser, f"{gallery_url}/en-light.html", PHONE, failed_requests=True) as (page, errors):
        chart = page.locator("#chart-adherence")
        columns = chart.locator(".ock-chart-column")
        labels = [columns.nth(index).get_attribute("aria-label") for index in range(columns.count())]
        assert len(labels) == 7
        assert labels[0] == "Monday, November 16: 3 of 4 doses"
        # Reach the chart with the Tab key alone, the way a keyboard user would.
        for _ in range(200):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.closest('#chart-adherence') !== null"):
                break
        else:
            pytest.fail("the chart is not reachable with Tab")
        readout = chart.locator(".ock-chart-readout")
        assert readout.get_attribute("aria-live") == "polite"
        assert readout.text_content() == labels[0]
        for index in range(1, 7):
            page.keyboard.press("ArrowRight")
            assert page.evaluate("() => document.activeElement.getAttribute('data-index')") == str(index)
            assert readout.text_content() == labels[index]
        page.keyboard.press("ArrowRight")  # stays on the last day
        assert readout.text_content() == labels[6]
        page.keyboard.press("Home")
        assert readout.text_content() == labels[0]
        # The focus is visible: the focused column's outline is drawn.
        stroke = page.evaluate("""() => getComputedStyle(document.activeElement.querySelector('.ock-chart-focus')).stroke""")
        assert stroke not in ("none", "")
        # Only one column is in the tab order at a time.
        assert chart.locator('.ock-chart-column[tabindex="0"]').count() == 1
        assert errors == []


def test_reduced_motion_turns_transitions_off(browser, gallery_url):
    for motion, moving in (("no-preference", True), ("reduce", False)):
        with opened_page(browser, f"{gallery_url}/en-light.html", PHONE, reduced_motion=motion) as (page, _):
            duration = page.evaluate("""() => getComputedStyle(document.querySelector('.ock-completion-button')).transitionDuration""")
            assert (duration not in ("0s", "0s, 0s")) == moving, duration


def test_dark_appearance_and_system_preference(browser, gallery_url):
    with opened_page(browser, f"{gallery_url}/index.html", PHONE, color_scheme="dark", failed_requests=True) as (page, _):
        assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == "rgb(0, 0, 0)"
    with opened_page(browser, f"{gallery_url}/en-light.html", PHONE, color_scheme="dark", failed_requests=True) as (page, _):
        # A page that chooses light stays light whatever the system says.
        assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == "rgb(242, 242, 247)"


def test_large_text_scales_and_stacks_rows(browser, gallery_url):
    context, page, _ = open_page(browser, f"{gallery_url}/en-light.html", PHONE)
    try:
        def layout():
            return page.evaluate("""() => ({
                title: parseFloat(getComputedStyle(document.querySelector('.ock-header-title')).fontSize),
                actions: getComputedStyle(document.querySelector('.ock-contact-actions')).flexDirection })""")
        normal = layout()
        assert normal == {"title": 17, "actions": "row"}
        session = context.new_cdp_session(page)
        session.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
        large = layout()
        assert large["title"] == 34
        assert large["actions"] == "column"
    finally:
        context.close()


def test_audio_graph_plays_the_series_and_says_so(browser, gallery_url):
    with opened_page(browser, f"{gallery_url}/en-light.html", PHONE, failed_requests=True) as (page, errors):
        button = page.locator("#chart-adherence .ock-audio-graph-button")
        assert button.is_visible()
        assert button.get_attribute("aria-pressed") == "false"
        button.click()
        assert button.get_attribute("aria-pressed") == "true"
        # Seven tones of 0.2 s; the button turns back when the last one ends.
        page.wait_for_function(
            "() => document.querySelector('#chart-adherence .ock-audio-graph-button').getAttribute('aria-pressed') === 'false'",
            timeout=10_000)
        assert errors == []
