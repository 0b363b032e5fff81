"""The care app end to end: `opencarekit serve --demo` in a real process, driven by Chromium."""
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe

from careapp import BINARY, TOOL_CLOCK, complete_event, onboard, record_base, serve, served, urlopen
from conftest import DESKTOP, PHONE, new_context, open_page, opened_page

def demo_app():
    """A fresh data directory with the demo plan, onboarded, served on a free port."""
    with tempfile.TemporaryDirectory() as directory, served(directory) as origin:
        url = record_base(origin)
        onboard(url)
        record = url.rsplit("/", 1)[1]
        yield {"url": url, "origin": origin, "store": str(pathlib.Path(directory) / "records" / f"{record}.sqlite")}


@pytest.fixture()
def app():
    """The demo app of this test alone."""
    yield from demo_app()


@pytest.fixture(scope="module")
def unchanged_app():
    """One demo app for the tests of this module that only read its pages (starting one takes two seconds)."""
    yield from demo_app()


def server_day(url):
    """The day the server's Care page shows as today (`serve --now` may put it on another day than the browser's)."""
    html = urlopen(url + "/care").read().decode()
    return re.search(r'<meta content="[^"]*/care/live\?date=([0-9-]+)" name="ock-live">', html).group(1)


def server_midnight(url):
    """The server's next local midnight, in milliseconds since 1970, as its Care page tells the script."""
    html = urlopen(url + "/care").read().decode()
    return int(re.search(r'<meta content="([0-9]+)" name="ock-next-midnight">', html).group(1))


def log_with_the_tool(task, store, url, *extra):
    """`opencarekit store log` on the day and in the zone the server shows."""
    return subprocess.run([BINARY, "store", "log", task, "--store", store, "--date", server_day(url), *TOOL_CLOCK, *extra],
                          capture_output=True, text=True)


def wait_live(page):
    page.wait_for_selector('html[data-ock-live="open"]', timeout=5000)


def today_completion(page):
    """Today's ring as a number (its label holds a percentage: "10%" contains "0%")."""
    return float(page.get_attribute(".ock-week-calendar .ock-today", "data-completion"))


TODAY_STARTED = "() => parseFloat(document.querySelector('.ock-week-calendar .ock-today').dataset.completion) > 0"


ENOXAPARIN = '#task-enoxaparin button[aria-pressed]'


def test_completing_a_task_updates_the_card_and_the_ring_in_place(browser, app):
    with opened_page(browser, app["url"] + "/care") as (page, errors):
        wait_live(page)
        assert today_completion(page) == 0
        page.click(ENOXAPARIN)
        page.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=1000)
        page.wait_for_function(TODAY_STARTED, timeout=1000)
        assert today_completion(page) > 0
        assert page.url == app["url"] + "/care"  # no navigation: updated in place
        # Un-completing works the same way.
        page.click(ENOXAPARIN)
        page.wait_for_selector(ENOXAPARIN + '[aria-pressed="false"]', timeout=1000)
        assert errors == []


def test_an_action_in_one_browser_shows_in_another_within_a_second(browser, app):
    first, page_one, errors_one = open_page(browser, app["url"] + "/care")
    second, page_two, errors_two = open_page(browser, app["url"] + "/care", viewport=DESKTOP)
    try:
        wait_live(page_one)
        wait_live(page_two)
        page_one.click("#task-ibuprofen .ock-checklist-item >> nth=1 >> button")
        page_two.wait_for_selector('#task-ibuprofen .ock-checklist-item:nth-child(2) button[aria-pressed="true"]', timeout=1000)
        page_two.wait_for_function(TODAY_STARTED, timeout=1000)
        assert errors_one == [] and errors_two == []
    finally:
        first.close()
        second.close()


def test_a_change_written_by_the_command_line_tool_shows_within_a_second(browser, app):
    with opened_page(browser, app["url"] + "/care") as (page, errors):
        wait_live(page)
        result = log_with_the_tool("omeprazole", app["store"], app["url"])
        assert result.returncode == 0, result.stderr
        page.wait_for_selector('#task-omeprazole .ock-grid-cell:nth-child(1) button[aria-pressed="true"]', timeout=1000)
        assert errors == []


def test_without_javascript_a_task_can_still_be_completed(browser, app):
    with opened_page(browser, app["url"] + "/care", java_script_enabled=False) as (page, _):
        page.click(ENOXAPARIN)
        page.wait_for_url("**/care?date=*#task-enoxaparin")
        assert page.get_attribute(ENOXAPARIN, "aria-pressed") == "true"
        assert today_completion(page) > 0
        page.fill("#task-hydration input[name=value]", "5")
        page.click("#task-hydration .ock-value-save")
        page.wait_for_selector('#task-hydration meter[value="5.0"]')


def test_keyboard_focus_stays_on_the_control_after_an_update(browser, app):
    with opened_page(browser, app["url"] + "/care") as (page, _):
        wait_live(page)
        button = page.locator("#task-ibuprofen .ock-checklist-item >> nth=0 >> button")
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector('#task-ibuprofen .ock-checklist-item:nth-child(1) button[aria-pressed="true"]', timeout=1000)
        focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        assert focused is not None and focused.startswith("Mark Ibuprofen")


def test_bad_input_in_place_shows_the_error_on_the_card(browser, app):
    with opened_page(browser, app["url"] + "/care") as (page, errors):
        wait_live(page)
        # The first live update must have come: it would otherwise restore the card this test changes.
        page.wait_for_selector("html[data-ock-updates]", timeout=5000)
        page.evaluate("() => document.querySelector('#task-hydration input[name=value]').removeAttribute('max')")
        page.fill("#task-hydration input[name=value]", "500")
        page.click("#task-hydration .ock-value-save")
        page.wait_for_selector("#task-hydration .ock-form-error[role=alert]", timeout=1000)
        assert "value" in page.text_content("#task-hydration .ock-form-error")


@pytest.mark.parametrize("path", ["/care", "/care?date=2099-01-01", "/care?date=2000-01-01", "/care?date=not-a-day",
                                  "/insights", "/insights?period=month", "/insights?period=year", "/contacts",
                                  "/contacts/dr-okafor", "/contacts/nobody"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_page_passes_axe(browser, unchanged_app, path, size):
    with opened_page(browser, unchanged_app["url"] + path, viewport=PHONE if size == "phone" else DESKTOP) as (page, _):
        violations = [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in Axe().run(page).response["violations"]]
        assert violations == []
        small = page.evaluate("""() => Array.from(document.querySelectorAll('button, a[href], input:not([type=hidden])'))
            .filter(element => element.getClientRects().length > 0 && !element.classList.contains('ock-skip-link'))
            .map(element => element.getBoundingClientRect())
            .filter(box => box.width < 44 || box.height < 44).length""")
        assert small == 0


def test_insights_follow_the_store_and_read_with_the_keyboard(browser, app):
    with opened_page(browser, app["url"] + "/insights") as (page, errors):
        wait_live(page)
        chart = "#insight-hydration"
        before = page.get_attribute(chart + " .ock-chart-column:last-child", "aria-label")
        result = log_with_the_tool("hydration", app["store"], app["url"], "--value", "6", "--units", "glasses")
        assert result.returncode == 0, result.stderr
        page.wait_for_function("(before) => document.querySelector('#insight-hydration .ock-chart-column:last-child').getAttribute('aria-label') !== before",
                               arg=before, timeout=1000)
        assert page.get_attribute(chart + " .ock-chart-column:last-child", "aria-label").endswith(": 6 glasses")
        page.focus(chart + " .ock-chart-column:first-child")
        page.keyboard.press("End")
        assert page.text_content(chart + " .ock-chart-readout").endswith(": 6 glasses")
        assert errors == []


def test_a_live_update_keeps_the_selected_column_of_each_chart(browser, app):
    """Insights draws its charts anew after any change to the record; the column a person selected stays selected,
    with its readout, and keeps focus."""
    with opened_page(browser, app["url"] + "/insights") as (page, errors):
        wait_live(page)
        chart = "#insight-hydration"
        page.focus(chart + " .ock-chart-column:first-child")
        page.keyboard.press("ArrowRight")
        selected = page.get_attribute(chart + " .ock-chart-column.ock-chart-selected", "aria-label")
        before = page.get_attribute(chart + " .ock-chart-column:last-child", "aria-label")
        result = log_with_the_tool("hydration", app["store"], app["url"], "--value", "3", "--units", "glasses")
        assert result.returncode == 0, result.stderr
        # Drawn anew: today's column says the new total.
        page.wait_for_selector(chart + f" .ock-chart-column:last-child:not([aria-label='{before}'])", state="attached", timeout=5000)
        columns = page.eval_on_selector_all(chart + " .ock-chart-column", "columns => columns.map(c => c.classList.contains('ock-chart-selected'))")
        assert columns.index(True) == 1 and columns.count(True) == 1, columns
        assert page.get_attribute(chart + " .ock-chart-column.ock-chart-selected", "aria-label") == selected
        assert page.text_content(chart + " .ock-chart-readout") == selected
        assert page.evaluate("document.activeElement.classList.contains('ock-chart-selected')")
        assert errors == []


def settled(page, promise, seconds=15):
    """Waits for the page's `promise` (an expression) to settle, failing after `seconds` rather than hanging."""
    return page.evaluate(f"Promise.race([{promise}, new Promise((_, reject) => "
                         f"setTimeout(() => reject(new Error('not settled in {seconds} s')), {seconds * 1000}))])")


def insights_chart_on_a_phone(browser, app, chart="#insight-hydration"):
    """A touch phone's context and page at the Insights tab, scrolled to `chart`."""
    context = new_context(browser, app["url"], viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(app["url"] + "/insights")
    page.wait_for_selector(chart + " svg[data-ock-chart]")
    page.locator(chart).scroll_into_view_if_needed()
    return context, page


def test_on_a_phone_a_touch_anywhere_on_a_chart_selects_the_nearest_column_and_a_drag_moves_it(browser, app):
    """Columns are narrower than a finger (34–39 px on a 390 px phone): as with Swift Charts' selection, the plot is
    the target. A touch between two columns selects the nearer; a drag across selects each column it passes."""
    chart = "#insight-hydration"
    context, page = insights_chart_on_a_phone(browser, app, chart)
    try:
        boxes = page.eval_on_selector_all(chart + " .ock-chart-column", """columns => columns.map(column => {
            const box = column.getBoundingClientRect();
            return {left: box.left, right: box.right, top: box.top, bottom: box.bottom, label: column.getAttribute('aria-label')};
        })""")
        assert len(boxes) == 7 and all(box["right"] - box["left"] < 44 for box in boxes), boxes
        touch = context.new_cdp_session(page)
        middle = (boxes[0]["top"] + boxes[0]["bottom"]) / 2

        def readout():
            return page.text_content(chart + " .ock-chart-readout")

        def send(kind, x):
            points = [] if kind == "touchEnd" else [{"x": x, "y": middle}]
            touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        # Between the third and fourth columns, nearer the fourth.
        gap = boxes[2]["right"] + 0.7 * (boxes[3]["left"] - boxes[2]["right"]) + 0.4 * (boxes[3]["right"] - boxes[3]["left"])
        send("touchStart", gap)
        send("touchEnd", gap)
        page.wait_for_function("(label) => document.querySelector('#insight-hydration .ock-chart-readout').textContent === label",
                               arg=boxes[3]["label"], timeout=2000)
        # A drag from the first column to past the last: each on the way, and the last at the end, is selected (the
        # browser delivers moves with its frames: each is waited for).
        def selected(label):
            page.wait_for_function("(label) => document.querySelector('#insight-hydration .ock-chart-readout').textContent === label",
                                   arg=label, timeout=2000)

        send("touchStart", boxes[0]["left"] + 1)
        selected(boxes[0]["label"])
        for box in boxes[1:]:
            send("touchMove", (box["left"] + box["right"]) / 2)
            selected(box["label"])
        send("touchMove", boxes[-1]["right"] + 6)
        send("touchEnd", 0)
        selected(boxes[-1]["label"])
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == boxes[-1]["label"]
        # The keyboard still moves the selection.
        page.keyboard.press("Home")
        assert readout() == boxes[0]["label"]
    finally:
        context.close()


@pytest.mark.clock_free
def test_app_screenshots(browser, app):
    from conftest import SCREENSHOTS
    SCREENSHOTS.mkdir(exist_ok=True)
    for name in ("care", "insights", "contacts"):
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            with opened_page(browser, app["url"] + "/" + name, viewport=viewport) as (page, _):
                page.screenshot(path=str(SCREENSHOTS / f"app-{name}-{size}.png"), full_page=True)


def test_a_change_through_the_json_api_shows_within_a_second(browser, app):
    import json
    import urllib.request
    with opened_page(browser, app["url"] + "/care") as (page, errors):
        wait_live(page)
        with urlopen(app["url"] + "/api/v1/events?taskID=enoxaparin") as response:
            event = json.load(response)[0]
        complete_event(app["url"], event)
        page.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=1000)
        assert errors == []


def test_a_swipe_moves_to_the_next_and_previous_day(browser, app):
    with opened_page(browser, app["url"] + "/care?date=2026-03-10", has_touch=True) as (page, _):
        def swipe(dx):
            page.evaluate("""(dx) => {
                const touch = (x) => new Touch({identifier: 1, target: document.body, clientX: x, clientY: 300});
                document.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(200)], changedTouches: [touch(200)], bubbles: true}));
                document.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [touch(200 + dx)], bubbles: true}));
            }""", dx)
        with page.expect_navigation():
            swipe(-120)
        assert page.url.endswith("/care?date=2026-03-11")
        with page.expect_navigation():
            swipe(120)
        assert page.url.endswith("/care?date=2026-03-10")


def test_the_page_moves_to_the_new_day_at_local_midnight(browser, app):
    context = new_context(browser, app["url"], viewport=PHONE)
    page = context.new_page()
    try:
        # The server's next midnight, whatever day the server believes it is (serve --now), is at most a day away.
        midnight = server_midnight(app["url"])
        # A browser whose clock is an hour before that midnight moves to the new day when it comes.
        page.clock.install(time=(midnight - 3_600_000) / 1000)
        page.goto(app["url"] + "/care")
        now = page.evaluate("() => Date.now()")
        assert 0 < midnight - now <= 86_400_000
        # Someone uses the page now and then: an hour without activity would sign out first (after 15 minutes).
        remaining = midnight - now + 1500
        while remaining > 600_000:
            page.keyboard.press("Shift")
            page.clock.run_for(600_000)
            remaining -= 600_000
        page.keyboard.press("Shift")
        with page.expect_navigation():
            page.clock.run_for(remaining)
        page.wait_for_load_state()
        assert page.url.startswith(app["url"] + "/care"), page.url  # the new day, still signed in
    finally:
        context.close()


@pytest.mark.parametrize("skew_days", [-40, 2])
def test_a_browser_clock_far_from_the_servers_does_not_reload_in_a_loop(browser, app, skew_days):
    """A browser 40 days behind the server (a timer that long fires at once) or 2 days ahead (midnight is past)."""
    context = new_context(browser, app["url"], viewport=PHONE)
    page = context.new_page()
    try:
        midnight = server_midnight(app["url"])
        page.clock.install(time=(midnight + skew_days * 86_400_000) / 1000)
        loads = []
        page.on("load", lambda _: loads.append(1))
        page.goto(app["url"] + "/care")
        page.clock.run_for(50_000)
        assert len(loads) == 1
    finally:
        context.close()


def test_pages_reconnect_after_a_server_restart_and_catch_up(browser):
    with tempfile.TemporaryDirectory() as directory:
        server, origin = serve(directory)
        try:
            url = record_base(origin)
            onboard(url)
            with opened_page(browser, url + "/care") as (page, _):
                wait_live(page)
                day = server_day(url)
                server.send_signal(signal.SIGTERM)
                assert server.wait(timeout=10) == 0
                page.wait_for_selector('html[data-ock-live="reconnecting"]', timeout=5000)
                store = str(pathlib.Path(directory) / "records" / (url.rsplit("/", 1)[1] + ".sqlite"))
                zone = TOOL_CLOCK
                result = subprocess.run([BINARY, "store", "log", "enoxaparin", "--store", store, "--date", day, *zone],
                                        capture_output=True, text=True)
                assert result.returncode == 0, result.stderr
                # The session is in the directory: the page stays signed in across the restart.
                server, _ = serve(directory, origin.rsplit(":", 1)[1])
                page.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=5000)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)


@pytest.mark.clock_free
def test_a_form_posted_from_another_site_is_refused(browser, app):
    import json
    import urllib.request
    context, page, _ = open_page(browser, app["url"] + "/care")
    try:
        # The browser holds the app's cookie; a page elsewhere copies a real form, token included.
        form = page.eval_on_selector(ENOXAPARIN, "button => button.closest('form').outerHTML")
        token = page.get_attribute('meta[name="ock-csrf"]', "content")
        other = context.new_page()
        other.set_content("<!DOCTYPE html><html><body>" + form.replace('action="/', 'action="' + app["origin"] + '/') + "</body></html>")
        assert token in form
        with other.expect_navigation():
            other.click("button")
        assert "403" in other.title() or other.locator("text=refused").count() > 0 or "other sites" in other.content()
        with urlopen(app["url"] + "/api/v1/events?taskID=enoxaparin") as response:
            assert json.load(response)[0].get("outcome") is None
    finally:
        context.close()


def test_the_json_api_never_answers_generated_input_with_a_server_error(app):
    """Schemathesis generates requests from /api/openapi.json (valid and invalid ones) and checks none gets a 5xx."""
    import sys
    st = str(pathlib.Path(sys.executable).parent / "st")  # installed beside the interpreter running the tests
    import json
    from conftest import SESSIONS
    # The document describes every record's API; the run targets the demo record, signed in as its patient.
    record = app["url"].rsplit("/", 1)[1]
    document = json.load(urlopen(app["origin"] + "/api/openapi.json"))
    document["paths"] = {path.replace("{record}", record): {method: {**operation, "parameters": [
        p for p in operation["parameters"] if p["name"] != "record"]} for method, operation in item.items()}
        for path, item in document["paths"].items()}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as schema:
        json.dump(document, schema)
        schema.flush()
        result = subprocess.run([st, "run", schema.name, "--url", app["origin"], "--checks", "not_a_server_error",
                                 # As the app's scripts write with a session: the CSRF token in a cookie and the header.
                                 "-H", f"Cookie: ock_session={SESSIONS[app['origin']]}; ock_csrf={'ab' * 32}",
                                 "-H", f"X-CSRF-Token: {'ab' * 32}",
                                 "--max-examples", "25", "--seed", "20261122"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    # Every operation of the document was exercised (the sync endpoints made it 15).
    operations = sum(len(item) for item in document["paths"].values())
    assert operations >= 15
    assert " passed" in result.stdout and f"{operations}/{operations}" in result.stdout, result.stdout[-3000:]


def test_a_tapped_column_keeps_its_highlight_and_buttons_step_through_the_columns(browser, app):
    """A tap on the bare plot selects the nearest column, and the tap's compatibility mouse events do not take focus
    from it (its highlight stayed only while focused); Previous and Next beside the readout, 44 px each, step through
    the columns however narrow they are (issue 39, part 7)."""
    chart = "#insight-hydration"
    context, page = insights_chart_on_a_phone(browser, app, chart)
    try:
        labels = page.eval_on_selector_all(chart + " .ock-chart-column", "columns => columns.map(c => c.getAttribute('aria-label'))")
        boxes = page.eval_on_selector_all(chart + " .ock-chart-column", """columns => columns.map(column => {
            const box = column.getBoundingClientRect();
            return {left: box.left, right: box.right, top: box.top, bottom: box.bottom};
        })""")
        # A tap on the bare plot, left of the first column (over the axis); its click is waited for (it comes after
        # the mouse events a tap makes, which went to the plot and took focus from the column).
        page.evaluate("""() => { window.ockClicked = new Promise(resolve =>
            document.querySelector("#insight-hydration svg[data-ock-chart]").addEventListener('click', resolve, { once: true })); }""")
        plot = page.locator(chart + " svg[data-ock-chart]").bounding_box()
        touch = context.new_cdp_session(page)
        x = (plot["x"] + boxes[0]["left"]) / 2
        y = (boxes[0]["top"] + boxes[0]["bottom"]) / 2
        assert plot["x"] < x < boxes[0]["left"]
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        settled(page, "window.ockClicked")
        assert page.text_content(chart + " .ock-chart-readout") == labels[0]
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == labels[0]
        assert page.eval_on_selector_all(chart + " .ock-chart-selected", "nodes => nodes.map(n => n.getAttribute('aria-label'))") == [labels[0]]

        previous, following = page.locator(chart + ' [data-ock-step="-1"]'), page.locator(chart + ' [data-ock-step="1"]')
        for button in (previous, following):
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
        # At the first column Previous says it can go no further, and keeps focus when pressed.
        assert previous.get_attribute("aria-disabled") == "true" and following.get_attribute("aria-disabled") == "false"
        previous.focus()
        page.keyboard.press("Enter")
        assert page.text_content(chart + " .ock-chart-readout") == labels[0]
        assert page.evaluate("document.activeElement.getAttribute('data-ock-step')") == "-1"
        following.click()
        following.click()
        assert page.text_content(chart + " .ock-chart-readout") == labels[2]
        # The highlight follows the selection while focus stays on the button.
        assert page.eval_on_selector_all(chart + " .ock-chart-selected", "nodes => nodes.map(n => n.getAttribute('aria-label'))") == [labels[2]]
        previous.click()
        assert page.text_content(chart + " .ock-chart-readout") == labels[1]
    finally:
        context.close()
