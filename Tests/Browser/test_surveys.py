"""Onboarding, informed consent and the daily check-in, end to end in Chromium against `opencarekit serve --demo`."""
import pathlib
import tempfile

import pytest
from axe_playwright_python.sync_playwright import Axe

from careapp import onboard, record_base, served
from conftest import DESKTOP, PHONE, opened_page


@pytest.fixture()
def fresh_app():
    """The demo on a fresh store: nobody has onboarded yet."""
    with tempfile.TemporaryDirectory() as directory, served(directory) as origin:
        yield record_base(origin)


def assert_accessible(page, where):
    violations = [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in Axe().run(page).response["violations"]]
    assert violations == [], where
    small = page.evaluate("""() => Array.from(document.querySelectorAll('button, a[href], input:not([type=hidden]), summary, label'))
        .filter(element => element.getClientRects().length > 0 && !element.classList.contains('ock-skip-link'))
        .filter(element => element.tagName !== 'LABEL' || element.closest('.ock-choice, .ock-check-row'))
        // A visually hidden radio or checkbox is pressed through its label, which is measured instead.
        .filter(element => element.tagName !== 'INPUT' || getComputedStyle(element).opacity !== '0')
        .map(element => element.getBoundingClientRect())
        .filter(box => box.width < 44 || box.height < 44).length""")
    assert small == 0, where


def wait_step(page, step):
    page.wait_for_selector(f'input[name="step"][value="{step}"]', state="attached")


def progress(page):
    return page.text_content(".ock-survey-progress").strip()


def draw_signature(page):
    box = page.locator("canvas.ock-signature-canvas").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] * 0.7)
    page.mouse.down()
    for step in range(1, 25):
        page.mouse.move(box["x"] + 20 + step * 10, box["y"] + box["height"] * (0.7 - 0.4 * ((step % 6) / 6)))
    page.mouse.up()


def test_onboarding_with_a_drawn_signature_opens_the_feed_live_and_keeps_the_consent(browser, fresh_app):
    with opened_page(browser, fresh_app + "/care") as (watcher, watcher_errors), \
            opened_page(browser, fresh_app + "/care", accept_downloads=True) as (page, errors):
        watcher.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
        # A fresh store shows only the onboarding card.
        for shown in (watcher, page):
            assert shown.locator("#care-cards > *").count() == 1
            assert shown.locator("#task-onboarding").is_visible()
            assert shown.locator("#task-ibuprofen").count() == 0
        assert_accessible(page, "care before onboarding")
        page.context.grant_permissions(["notifications"], origin="/".join(fresh_app.split("/")[:3]))

        page.click("#task-onboarding .ock-survey-start")
        expected = ["Step 1 of 6", "Step 2 of 6", "Step 3 of 6", "Step 4 of 6", "Step 5 of 6", "Step 6 of 6"]
        seen = []
        for index in range(6):
            page.wait_for_selector(".ock-survey-progress")
            seen.append(progress(page))
            assert_accessible(page, seen[-1])
            step = page.get_attribute('input[name="step"]', "value")
            if step == "before-you-join":
                assert page.locator(".ock-body-item").count() == 4
            if step == "consent-review":
                page.click(".ock-learn-more summary >> nth=0")
                assert page.locator(".ock-learn-more >> nth=0").get_attribute("open") is not None
            if step == "signature":
                page.fill("#ock-full-name", "Alex Rivera")
                assert page.locator("[data-ock-signature]").is_visible()
                draw_signature(page)
                assert page.get_attribute('input[name="signature"]', "value").startswith("data:image/png;base64,")
                page.check("#ock-agree")
            if step == "notifications":
                page.click('button[data-ock-permission="notifications"]')
                page.wait_for_selector('[data-ock-permission-status="notifications"]:has-text("Notifications are on.")', timeout=2000)
            # Going back keeps what was entered.
            if step == "notifications":
                page.click('button[value="back"]')
                wait_step(page, "signature")
                assert page.input_value("#ock-full-name") == "Alex Rivera" and page.is_checked("#ock-agree")
                assert page.get_attribute('input[name="signature"]', "value").startswith("data:image/png;base64,")
                page.click(".ock-survey-next")
                wait_step(page, "notifications")
                page.click('button[data-ock-permission="notifications"]')
                page.wait_for_selector('[data-ock-permission-status="notifications"]:has-text("Notifications are on.")', timeout=2000)
            page.click(".ock-survey-next")
        assert seen == expected

        # Back on the Care tab, with the feed; the other page got it live, without a reload.
        page.wait_for_selector("#task-ibuprofen")
        assert page.locator("#task-onboarding").count() == 0
        watcher.wait_for_selector("#task-ibuprofen", timeout=1000)
        assert watcher.locator("#task-onboarding").count() == 0
        assert watcher.evaluate("performance.getEntriesByType('navigation').length") == 1
        assert watcher.url == fresh_app + "/care"

        # The signed consent: readable, with the drawing, and downloadable.
        page.click('a[href$="/consent"]')
        page.wait_for_selector(".ock-consent")
        assert "Alex Rivera" in page.text_content(".ock-consent-record")
        assert page.evaluate("document.querySelector('.ock-consent-signature').naturalWidth") == 600
        assert_accessible(page, "consent")
        with page.expect_download() as download:
            page.click(".ock-consent a[download]")
        saved = pathlib.Path(download.value.path()).read_text()
        assert download.value.suggested_filename.startswith("consent-1.0-")
        assert "Alex Rivera" in saved and "data:image/png;base64," in saved and "Taking part is voluntary" in saved
        assert errors == [] and watcher_errors == []


def tab_to(page, selector, limit=80):
    """Presses Tab until the focused element matches `selector`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement && document.activeElement.matches(selector)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_the_whole_onboarding_works_with_the_keyboard_alone(browser, fresh_app):
    with opened_page(browser, fresh_app + "/care", viewport=DESKTOP) as (page, errors):
        tab_to(page, "#task-onboarding .ock-survey-start")
        page.keyboard.press("Enter")
        for _ in range(6):
            page.wait_for_selector(".ock-survey-progress")
            step = page.get_attribute('input[name="step"]', "value")
            assert_accessible(page, step)
            if step == "consent-review":
                tab_to(page, ".ock-learn-more summary")
                page.keyboard.press("Enter")
                assert page.locator(".ock-learn-more >> nth=0").get_attribute("open") is not None
            if step == "signature":
                tab_to(page, "#ock-full-name")
                page.keyboard.type("Alex Rivera")
                tab_to(page, "#ock-agree")
                page.keyboard.press("Space")
                assert page.is_checked("#ock-agree")
            if step == "notifications":
                tab_to(page, 'button[value="skip"]')
                page.keyboard.press("Enter")
                continue
            tab_to(page, ".ock-survey-next")
            page.keyboard.press("Enter")
        page.wait_for_selector("#task-ibuprofen")
        page.goto(fresh_app + "/consent")
        assert "Signed with the typed name." in page.text_content(".ock-consent")
        assert errors == []


def test_a_check_in_answer_appears_in_the_insights_chart_and_deleting_it_asks_first(browser, fresh_app):
    onboard(fresh_app)
    with opened_page(browser, fresh_app + "/care") as (page, errors):
        page.click("#task-check-in .ock-survey-start")
        wait_step(page, "pain")
        assert_accessible(page, "pain")
        # Out of range is refused with a message, and nothing is saved.
        page.click('label:text-is("7")')
        page.click(".ock-survey-next")
        wait_step(page, "sleep")
        assert_accessible(page, "sleep")
        page.fill("#ock-answer", "25")
        page.evaluate("document.querySelector('form.ock-survey').noValidate = true")
        page.click(".ock-survey-next")
        assert "from 0 to 24" in page.text_content("#ock-step-error")
        assert_accessible(page, "sleep with an error")
        page.fill("#ock-answer", "6.5")
        page.click(".ock-survey-next")
        wait_step(page, "exercises")
        assert_accessible(page, "exercises")
        page.click('label:text-is("Yes")')
        page.click(".ock-survey-next")
        page.wait_for_selector("#task-check-in.ock-complete")

        page.goto(fresh_app + "/insights")
        column = "#insight-pain-doses .ock-chart-column:last-child"
        assert page.get_attribute(column, "aria-label").endswith("Pain (0 to 10): 7")

        # Deleting the answers asks first; keeping them changes nothing.
        page.goto(fresh_app + "/care")
        page.click("#task-check-in .ock-survey-delete")
        assert "Delete the answers to Daily Check-in?" in page.text_content("h1")
        assert_accessible(page, "delete confirmation")
        page.click('a:text-is("Keep them")')
        page.wait_for_selector("#task-check-in.ock-complete")
        page.click("#task-check-in .ock-survey-delete")
        page.click('.ock-confirm-form button')
        page.wait_for_selector("#task-check-in .ock-survey-start")
        page.goto(fresh_app + "/insights")
        assert not page.get_attribute(column, "aria-label").endswith("Pain (0 to 10): 7")
        # The only error is the refused answer's 422.
        assert [error for error in errors if "status of 422" not in error] == []
