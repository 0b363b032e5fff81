"""The care plan editor end to end: Dr. Lee (a clinician) builds and changes Alex's plan in the browser and Alex's
open Care page follows live; a change keeps yesterday's completed event; ending, resuming, deleting and re-adding a
task; templates applied, imported and exported (validated against the published JSON Schema); the editor by keyboard
alone; and axe-core on every editor page at phone and desktop sizes."""
import datetime
import json
import re
import tempfile
import urllib.error
import urllib.parse
import zoneinfo

import jsonschema
import pytest

from careapp import CAREKIT_EPOCH, DEMO_CLINICIAN, complete_event, onboard, record_base, served, urlopen
from conftest import DESKTOP, PHONE, SCREENSHOTS, SESSIONS, opened_page
from test_accounts import team  # noqa: F401 (the fixture: the demo, onboarded, Alex signed in)
from test_surveys import assert_accessible

PASSWORD = "opencarekit-demo"


def clinician(browser, team, viewport=PHONE):
    """A browser context signed in as Dr. Lee, by typing her password."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(team["origin"] + "/sign-in")
    page.fill("#email", DEMO_CLINICIAN)
    page.fill("#password", PASSWORD)
    page.click("button:has-text('Sign in')")
    page.wait_for_url(team["origin"] + "/")
    page.close()
    return context


def carekit_weekday(day):
    """CareKit's weekday number (1 is Sunday) of a `datetime.date`."""
    return day.isoweekday() % 7 + 1


def today_of(page):
    """The server's today in the record's zone: the default start of a new task."""
    return datetime.date.fromisoformat(page.input_value("#start"))


def wait_preview(page, text):
    page.wait_for_function("(text) => document.querySelector('#preview-rule') && "
                           "document.querySelector('#preview-rule').textContent.includes(text)", arg=text, timeout=5000)


def save(page):
    page.click("button[name=intent][value=save]")
    page.wait_for_url(re.compile(r".*\?saved=1$"))


def events(team, task, day):
    with urlopen(f"{team['base']}/api/v1/events?taskID={task}&date={day.isoformat()}") as response:
        return json.load(response)


def events_today(team, task):
    with urlopen(f"{team['base']}/api/v1/events?taskID={task}") as response:
        return json.load(response)


def test_a_clinician_builds_a_three_task_plan_and_the_patients_open_page_shows_each_live(browser, team):
    with opened_page(browser, team["base"] + "/care") as (patient, patient_errors):
        patient.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
        context = clinician(browser, team)
        try:
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            # 1. Every day at two times, with a dose target. The preview follows the typing.
            page.goto(team["base"] + "/plan/tasks/new")
            today = today_of(page)
            page.fill("#title", "Vitamin D")
            page.fill("#instructions", "One tablet with breakfast and one with dinner.")
            page.fill("#time-1", "07:15")
            wait_preview(page, "7:15")
            page.click("button[name=intent][value=add-time]")
            page.fill("#time-2", "19:15")
            page.fill("#target-value-1", "1000")
            page.fill("#target-units-1", "IU")
            page.select_option("#target-kind-1", "dose")
            wait_preview(page, "7:15")
            wait_preview(page, "7:15\u202fPM")
            assert page.locator("#plan-preview li").count() == 14
            save(page)
            patient.wait_for_selector("#task-vitamin-d", timeout=3000)

            # 2. Weekly, on today's weekday and the next, all day.
            page.goto(team["base"] + "/plan/tasks/new")
            page.fill("#title", "Blood pressure check")
            page.check("#repeat-weeks")
            for day in (today, today + datetime.timedelta(days=1)):
                page.check(f"#weekday-{carekit_weekday(day)}")
            page.check("#timing-all-day")
            page.fill("#all-day-label", "Any time today")
            wait_preview(page, "all day")
            save(page)
            patient.wait_for_selector("#task-blood-pressure-check", timeout=3000)

            # 3. Every 2 days at one time for 20 minutes, ending in a week, with a card style.
            page.goto(team["base"] + "/plan/tasks/new")
            page.fill("#title", "Stretching")
            page.fill("#every", "2")
            page.fill("#time-1", "18:30")
            page.fill("#duration", "20")
            page.fill("#end", (today + datetime.timedelta(days=6)).isoformat())
            page.select_option("#style", "instructions")
            wait_preview(page, "Every 2 days")
            page.screenshot(path=str(SCREENSHOTS / "plan-editor-phone.png"), full_page=True)
            save(page)
            patient.wait_for_selector("#task-stretching", timeout=3000)

            # The plan lists the three, each with its rule in words.
            page.goto(team["base"] + "/plan")
            text = page.text_content("main")
            for words in ["Vitamin D", "Every day at 7:15\u202fAM and 7:15\u202fPM", "Blood pressure check", "Every 2 days at 6:30\u202fPM"]:
                assert words in text, words
            assert errors == []
        finally:
            context.close()
        assert patient_errors == []


def local(event, zone):
    return datetime.datetime.fromtimestamp(event["scheduleEvent"]["start"] + CAREKIT_EPOCH, zone)


def test_changing_a_time_keeps_yesterdays_completed_event_as_it_was(browser):
    with tempfile.TemporaryDirectory() as directory:
        # Today Alex takes her enoxaparin (09:00) …
        with served(directory) as origin:
            team = {"origin": origin, "base": record_base(origin)}
            onboard(team["base"])
            event = events_today(team, "enoxaparin")[0]
            complete_event(team["base"], event)
            zone = zoneinfo.ZoneInfo(event["task"]["timezone"]["identifier"])
            day = local(event, zone).date()
        # … and the app runs on: tomorrow at noon, Dr. Lee moves it to 10:30.
        noon = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(12), zone)
        with served(directory, args=["--now", noon.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")]) as origin:
            team = {"origin": origin, "base": record_base(origin)}
            before = events(team, "enoxaparin", day)
            assert before[0]["outcome"] is not None
            context = clinician(browser, team, DESKTOP)
            try:
                page = context.new_page()
                page.goto(team["base"] + "/plan/tasks/enoxaparin")
                page.fill("#time-1", "10:30")
                wait_preview(page, "10:30")
                # The page says from when the change applies, and that recorded events stay.
                assert page.is_checked("#effective-next")
                assert "From the next event not yet done" in page.text_content("#effective")
                save(page)
                assert "time 9:00\u202fAM Morning → 10:30\u202fAM Morning" in page.text_content("main")
            finally:
                context.close()
            after = events(team, "enoxaparin", day)
            # Yesterday's event keeps its version (which now has a newer one), its time and its outcome.
            assert after[0]["task"]["uuid"] == before[0]["task"]["uuid"]
            assert after[0]["task"]["nextVersionUUIDs"] != before[0]["task"]["nextVersionUUIDs"]
            assert (after[0]["scheduleEvent"], after[0]["outcome"]) == (before[0]["scheduleEvent"], before[0]["outcome"])
            later = events(team, "enoxaparin", day + datetime.timedelta(days=2))[0]
            assert local(later, zone).strftime("%H:%M") == "10:30"


def test_ending_resuming_deleting_and_re_adding_a_task(browser, team):
    context = clinician(browser, team)
    try:
        page = context.new_page()
        page.goto(team["base"] + "/plan/tasks/nausea")
        tomorrow = today_of_plan(page) + datetime.timedelta(days=1)
        page.click("#end-heading ~ form button[type=submit]")
        page.wait_for_url(re.compile(r".*/plan\?done=ended$"))
        assert "ended" in page.text_content("main")
        assert events(team, "nausea", tomorrow) == []
        # Resumed with a new schedule from tomorrow (an ending the builder cannot show is replaced as a whole).
        page.goto(team["base"] + "/plan/tasks/nausea")
        if page.locator("button[name=intent][value=replace-schedule]").count():
            page.click("button[name=intent][value=replace-schedule]")
        page.fill("#end", "")
        page.check("#timing-all-day")
        page.fill("#start", tomorrow.isoformat())
        wait_preview(page, "all day")
        save(page)
        assert len(events(team, "nausea", tomorrow)) == 1
        # A task without outcomes is deleted, and its id used again.
        page.goto(team["base"] + "/plan/tasks/new")
        page.fill("#title", "Ice pack")
        page.fill("#task-id", "ice-pack")
        save(page)
        page.click("#delete-heading ~ form button[type=submit]")
        page.wait_for_url(re.compile(r".*/plan\?done=deleted$"))
        page.goto(team["base"] + "/plan/tasks/new")
        page.fill("#title", "Ice the knee")
        page.fill("#task-id", "ice-pack")
        page.fill("#time-1", "21:00")
        save(page)
        assert "Ice the knee" in page.text_content("h1")
    finally:
        context.close()


def today_of_plan(page):
    """The server's today, from the end form's default day."""
    return datetime.date.fromisoformat(page.input_value("#end-effective-date"))


def test_applying_a_template_and_importing_one(browser, team, tmp_path):
    with opened_page(browser, team["base"] + "/care") as (patient, _):
        patient.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
        context = clinician(browser, team, DESKTOP)
        try:
            page = context.new_page()
            page.goto(team["base"] + "/plan/templates")
            page.select_option("#template", "hypertension-follow-up")
            # The record's own zone unless another is typed.
            assert page.input_value("#time-zone") == events_today(team, "enoxaparin")[0]["task"]["timezone"]["identifier"]
            page.click("button[name=intent][value=save]")
            page.wait_for_url(re.compile(r".*/plan\?done=template$"))
            patient.wait_for_selector("#task-amlodipine", timeout=3000)
            # An imported file that breaks the format: each problem by path, nothing applied.
            broken = json.loads(urlopen(team["origin"] + "/templates/wound-care.json").read())
            broken["tasks"][0]["schedule"]["every"] = 0
            broken["tasks"][1]["colour"] = "red"
            path = tmp_path / "broken.json"
            path.write_text(json.dumps(broken))
            page.goto(team["base"] + "/plan/templates")
            page.set_input_files("#template-file", str(path))
            page.wait_for_function("() => document.querySelector('#template').value === 'json' && "
                                   "document.querySelector('#template-json').value.length > 100")
            page.click("button[name=intent][value=save]")
            problems = page.text_content("#template-problems")
            assert "tasks[1].colour: This field is not part of a template." in problems
            assert page.get_attribute("#template-json", "aria-invalid") == "true"
            assert page.input_value("#template-json") == path.read_text(), "the pasted JSON stays as it was"
            assert patient.locator("#task-cefalexin").count() == 0
        finally:
            context.close()


@pytest.mark.clock_free
def test_the_schema_accepts_built_in_and_exported_templates_and_refuses_what_the_server_refuses(team):
    schema = json.loads(urlopen(team["origin"] + "/schemas/care-plan-template-1.json").read())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    templates = [json.loads(urlopen(f"{team['origin']}/templates/{name}.json").read())
                 for name in ["knee-recovery", "hypertension-follow-up", "wound-care"]]
    # Dr. Lee exports Alex's plan: it follows the schema too.
    opener_cookie = SESSIONS[team["origin"]]
    SESSIONS[team["origin"]] = clinician_session(team)
    try:
        exported = json.loads(urlopen(team["base"] + "/plan/template.json").read())
        # A null adherence is the default for both.
        relaxed = json.loads(json.dumps(templates[2]))
        relaxed["tasks"][0]["countsTowardAdherence"] = None
        for template in templates + [exported, relaxed]:
            assert list(validator.iter_errors(template)) == [], template["id"]
        from careapp import opener_for
        opener, _ = opener_for(team["base"])
        page = opener.open(team["base"] + "/plan/templates").read().decode()
        token = re.search(r'name="csrf" type="hidden" value="([0-9a-f]{64})"', page).group(1)
        good = templates[2]
        broken = []
        for change in [lambda t: t.update(formatVersion=2), lambda t: t.update(extra=1),
                       lambda t: t["tasks"][0]["schedule"].update(every=0), lambda t: t["tasks"][0]["schedule"].update(every="1"),
                       lambda t: t["tasks"][0]["schedule"].update(startDay=-1), lambda t: t["tasks"][0].update(card="survey"),
                       lambda t: t["tasks"][0]["schedule"]["times"][0].update(time="24:00"), lambda t: t["tasks"][0].update(title=" "),
                       lambda t: t["contacts"][0].update(category="rivals"), lambda t: t["tasks"][0]["schedule"].update(repeat="weeks"),
                       lambda t: t["tasks"][0]["schedule"].update(targets=[{"value": "four"}]),
                       lambda t: t["tasks"][0]["schedule"].update(weekdays=[9]),
                       lambda t: t["tasks"][0]["schedule"]["times"][0].update(time="+8:00"),
                       lambda t: t["tasks"][0].update(id="dressing\n"),
                       lambda t: t["tasks"][0].update(title="e\u0301" * 150)]:
            template = json.loads(json.dumps(good))
            change(template)
            broken.append(template)
        for template in broken:
            assert list(validator.iter_errors(template)) != [], template
            body = urllib.parse.urlencode({"csrf": token, "template": "json", "template-json": json.dumps(template),
                                           "start": "2026-12-01", "time-zone": "Asia/Seoul"}).encode()
            with pytest.raises(urllib.error.HTTPError) as refused:
                opener.open(team["base"] + "/plan/templates/apply", data=body)
            assert refused.value.code == 422, template
    finally:
        SESSIONS[team["origin"]] = opener_cookie


def clinician_session(team):
    from careapp import sign_in
    sign_in(team["origin"], DEMO_CLINICIAN)
    return SESSIONS[team["origin"]]


def tab_to(page, selector, limit=120):
    """Presses Tab until `selector` has the focus (and fails after `limit` presses)."""
    for _ in range(limit):
        if page.evaluate("(selector) => document.activeElement && document.activeElement.matches(selector)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_the_whole_editor_by_keyboard(browser, team):
    with opened_page(browser, team["base"] + "/care") as (patient, _), opened_page(browser, team["base"] + "/contacts") as (contacts, _):
        patient.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
        contacts.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
        assert "Ana" not in contacts.text_content("main")
        context = clinician(browser, team, DESKTOP)
        try:
            page = context.new_page()
            page.goto(team["base"] + "/plan")
            tab_to(page, "a[href$='/plan/tasks/new']")
            page.keyboard.press("Enter")
            page.wait_for_url(re.compile(r".*/plan/tasks/new$"))
            tab_to(page, "#title")
            page.keyboard.type("Breathing exercises")
            # A radio group is one Tab stop; the arrow keys choose within it.
            tab_to(page, "#repeat-days")
            page.keyboard.press("ArrowDown")
            assert page.is_checked("#repeat-weeks")
            today = today_of(page)
            tab_to(page, f"#weekday-{carekit_weekday(today)}")
            page.keyboard.press("Space")
            tab_to(page, "#time-1")
            page.keyboard.type("1130AM")
            wait_preview(page, "11:30")
            tab_to(page, "button[name=intent][value=save]")
            page.keyboard.press("Enter")
            page.wait_for_url(re.compile(r".*\?saved=1$"))
            patient.wait_for_selector("#task-breathing-exercises", timeout=3000)
            # End it by keyboard too.
            tab_to(page, "#end-heading ~ form button[type=submit]")
            page.keyboard.press("Enter")
            page.wait_for_url(re.compile(r".*/plan\?done=ended$"))
            # A contact and a note, by keyboard.
            tab_to(page, "a[href$='/plan/contacts/new']")
            page.keyboard.press("Enter")
            page.wait_for_url(re.compile(r".*/plan/contacts/new$"))
            tab_to(page, "#given-name")
            page.keyboard.type("Ana")
            tab_to(page, "#family-name")
            page.keyboard.type("Costa")
            tab_to(page, "button[name=intent][value=save]")
            page.keyboard.press("Enter")
            page.wait_for_url(re.compile(r".*/plan/contacts/ana-costa\?saved=1$"))
            # Alex's open Contacts page follows.
            contacts.wait_for_function("() => document.querySelector('main').textContent.includes('Ana')", timeout=3000)
            page.goto(team["base"] + "/plan")
            tab_to(page, "#note-content")
            page.keyboard.type("Call if the breathing gets harder.")
            tab_to(page, "#plan-notes ~ form button, form[action$='/plan/notes'] button")
            page.keyboard.press("Enter")
            page.wait_for_url(re.compile(r".*/plan\?done=note"))
            assert "By Dr. Jordan Lee" in page.text_content("#plan-notes ~ ul, .ock-note-list")
        finally:
            context.close()


def test_every_editor_page_is_accessible_at_phone_and_desktop(browser, team):
    context = clinician(browser, team, PHONE)
    token = None
    try:
        for size, viewport in [("phone", PHONE), ("desktop", DESKTOP)]:
            page = context.new_page()
            page.set_viewport_size(viewport)
            pages = ["/plan", "/plan/tasks/new", "/plan/tasks/enoxaparin", "/plan/tasks/ibuprofen", "/plan/contacts/new",
                     "/plan/contacts/dr-okafor", "/plan/templates"]
            for path in pages:
                page.goto(team["base"] + path)
                assert_accessible(page, f"{path} {size}")
            # Pages with problems beside their fields.
            for path, fill, problem in [("/plan/tasks/new", {"#title": "", "#every": "0"}, "#every-error"),
                                        ("/plan/templates", {"#template": "json", "#template-json": '{"tasks": 1}'}, "#template-problems")]:
                page.goto(team["base"] + path)
                for selector, value in fill.items():
                    if selector == "#template":
                        page.select_option(selector, value)
                    else:
                        page.fill(selector, value)
                page.click("button[name=intent][value=save]")
                page.wait_for_selector(problem)
                assert_accessible(page, f"{path} with problems {size}")
            page.goto(team["base"] + "/plan/tasks/new")
            page.screenshot(path=str(SCREENSHOTS / f"plan-editor-{size}-new.png"), full_page=True)
            page.close()
    finally:
        context.close()
    # The owner's sharing page, with the setting of who changes the plan.
    with opened_page(browser, team["base"] + "/sharing") as (page, errors):
        assert page.is_checked("#plan-editing-on")
        assert_accessible(page, "sharing with the plan setting")
        assert errors == []
