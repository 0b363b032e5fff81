"""The care team's triage queue end to end, in three browsers: the patient's check-in with pain 9 puts an urgent
item on her clinician's open home within a second; a second clinician sees who acknowledged it; resolved with a
note, it leaves the queue and shows in the record's activity; a note being typed survives a live refresh; the
patient and her caregiver never see the queue, and a stranger gets 404 on its addresses."""
import re
import time
import urllib.error

from careapp import DEMO_CAREGIVER, DEMO_CLINICIAN, sign_in, urlopen
from conftest import DESKTOP, PHONE, SESSIONS, opened_page
from test_accounts import accept_invitation, fresh_context, invite, team, type_password  # noqa: F401 (team is a fixture)
from test_surveys import assert_accessible, wait_step


def signed_in(browser, origin, email, password="opencarekit-demo", viewport=DESKTOP):
    context = fresh_context(browser, viewport=viewport)
    page = context.new_page()
    page.goto(origin + "/sign-in")
    type_password(page, email, password)
    page.wait_for_url(re.compile(re.escape(origin) + r"/.*"))
    return context, page


def answer_check_in(page, pain):
    page.click("#task-check-in .ock-survey-start")
    wait_step(page, "pain")
    page.click(f'label:text-is("{pain}")')
    page.click(".ock-survey-next")
    wait_step(page, "sleep")
    page.fill("#ock-answer", "7")
    page.click(".ock-survey-next")
    wait_step(page, "exercises")
    page.click('label:text-is("Yes")')
    page.click(".ock-survey-next")
    page.wait_for_selector("#task-check-in.ock-complete")


def test_a_pain_of_nine_reaches_the_clinicians_home_within_a_second_and_the_team_works_it(browser, team):
    record = team["base"].rsplit("/", 1)[1]
    link = invite(browser, team, role="clinician")
    lee_context, lee = signed_in(browser, team["origin"], DEMO_CLINICIAN)
    kim_context = fresh_context(browser, viewport=DESKTOP)
    try:
        # A second clinician joins Alex's record through the link.
        kim = kim_context.new_page()
        accept_invitation(kim, link, "Dana Kim", "dana.kim@example.org")
        kim.wait_for_url(re.compile(r".*/records/[0-9a-z]{26}/care|.*/$"))

        lee.wait_for_url(team["origin"] + "/")
        lee.wait_for_selector("html[data-ock-live=open]")
        alex = f'.ock-triage-item[data-record="{record}"]'
        assert lee.locator(alex).count() == 0
        # The demo's other patients have items already (the start-up sweep raised their missed doses and pain).
        assert lee.locator(".ock-triage-item").count() > 0
        assert lee.locator("#triage-summary").get_attribute("data-open") != "0"

        # Alex answers her check-in with a pain of 9 on her phone; Dr. Lee's open home shows the item at once.
        with opened_page(browser, team["base"] + "/care") as (page, errors):
            answer_check_in(page, 9)
            saved = time.monotonic()
            lee.wait_for_selector(alex + ".ock-urgent", timeout=3000)
            elapsed = time.monotonic() - saved
            assert errors == []
        assert elapsed <= 1.0, f"the item took {elapsed:.2f} s"
        item = lee.locator(alex)
        assert "Daily Check-in: pain 9 (alert at 7 or more)" in item.text_content()
        assert item.get_attribute("data-status") == "new"

        # Dr. Kim opens her home; Dr. Lee acknowledges; Dr. Kim's home shows who did, and when.
        kim.goto(team["origin"] + "/")
        kim.wait_for_selector("html[data-ock-live=open]")
        kim.wait_for_selector(alex)
        item.locator("button:has-text('Acknowledge')").click()
        lee.wait_for_selector(alex + '[data-status="acknowledged"]')
        kim.wait_for_selector(alex + '[data-status="acknowledged"]', timeout=3000)
        assert "Acknowledged by Dr. Jordan Lee at" in kim.locator(alex).text_content()
        assert kim.locator(alex + " button:has-text('Acknowledge')").count() == 0

        # A note being typed on Dr. Kim's home survives the live refresh that Dr. Lee's assigning it to herself brings,
        # with its focus and caret.
        note = kim.locator(alex + " textarea[name=note]")
        note.fill("Called Alex: the pain eased after rest.")
        note.evaluate("(field) => field.setSelectionRange(6, 10)")
        before = int(kim.evaluate("document.documentElement.getAttribute('data-ock-updates') || '0'"))
        lee.locator(alex + " select").select_option(label="Dr. Jordan Lee")
        lee.locator(alex + " button:has-text('Assign')").click()
        lee.wait_for_selector(alex + ":has-text('Assigned to Dr. Jordan Lee')")
        kim.wait_for_function("(before) => Number(document.documentElement.getAttribute('data-ock-updates') || '0') > before",
                              arg=before, timeout=5000)
        assert "Assigned to Dr. Jordan Lee" in kim.locator(alex).text_content()
        assert kim.locator(alex + " textarea[name=note]").input_value() == "Called Alex: the pain eased after rest."
        assert kim.evaluate("[document.activeElement.name, document.activeElement.selectionStart, document.activeElement.selectionEnd]") \
            == ["note", 6, 10]
        assert_accessible(kim, "clinician home with the triage queue")

        # Dr. Kim resolves it with the note: it leaves both homes.
        kim.locator(alex + " button:has-text('Resolve')").click()
        kim.wait_for_url(team["origin"] + "/#triage")
        assert kim.locator(alex).count() == 0
        lee.wait_for_selector(alex, state="detached", timeout=3000)
    finally:
        lee_context.close()
        kim_context.close()

    # The owner's activity page shows the team's work on the record.
    with opened_page(browser, team["base"] + "/activity") as (page, errors):
        rows = page.text_content("table")
        assert "POST /records/{record}/triage/resolve" in rows and "Dana Kim (dana.kim@example.org)" in rows
        assert "POST /records/{record}/triage/acknowledge" in rows and "Jordan Lee" in rows
        assert errors == []


def test_the_patient_and_caregiver_never_see_the_queue_and_a_stranger_gets_404(browser, team):
    origin = team["origin"]
    record_path = "/records/" + team["base"].rsplit("/", 1)[1]
    # The patient's and the caregiver's pages carry no queue.
    for email in ("alex@example.org", DEMO_CAREGIVER):
        landed = sign_in(origin, email)
        for url in {landed, origin + "/", team["base"] + "/care"}:
            try:
                html = urlopen(url).read().decode()
            except urllib.error.HTTPError as error:
                html = error.read().decode()
            assert "ock-triage" not in html and "Triage queue" not in html, (email, url)
        for action in ("acknowledge", "assign", "resolve"):
            try:
                urlopen(origin + record_path + "/triage/" + action, data=b"item=x",
                        headers={"Content-Type": "application/json"})
                raise AssertionError("not refused")
            except urllib.error.HTTPError as error:
                assert error.code == 403, (email, action, error.code)
    # Someone with an account but no place in the record gets 404 on every triage address.
    requests = [(origin + record_path + "/triage/" + action, "POST") for action in ("acknowledge", "assign", "resolve")]
    assert statuses_as_stranger(browser, origin, requests, {"item": "x", "note": "x"}) == [404] * 3
    SESSIONS.pop(origin, None)


def statuses_as_stranger(browser, origin, requests, form):
    """The statuses another patient of the clinic (Maria, signed in in a browser of her own) gets for each (url, method);
    a POST sends `form` with her page's CSRF token."""
    context = fresh_context(browser)
    try:
        page = context.new_page()
        page.goto(origin + "/sign-in")
        type_password(page, "maria.santos@example.org", "opencarekit-demo")
        page.wait_for_url(re.compile(r".*/records/[0-9a-z]{26}/care"))
        return [page.evaluate("""async ([url, method, form]) => {
            const token = document.querySelector('meta[name="ock-csrf"]').content;
            const options = method === "POST" ? { method, body: new URLSearchParams({ csrf: token, ...form }) } : {};
            return (await fetch(url, options)).status;
        }""", [url, method, form]) for url, method in requests]
    finally:
        context.close()
