"""Secure messages end to end, in three browsers (the patient on her phone, her caregiver, her clinician): the patient
writes, the clinician's home counts it live; the clinician reads it and the patient's open page says "Seen"; the
reply reaches the patient's page live and the caregiver's list counts it; a team note never reaches the patient's or
the caregiver's pages, live channels or API; a stranger gets 404 on every address; no axe violation at either size."""
import re
import urllib.error

from careapp import DEMO_CAREGIVER, DEMO_CLINICIAN, sign_in, urlopen
from conftest import DESKTOP, PHONE, SESSIONS
from test_accounts import fresh_context, team  # noqa: F401 (team is a fixture)
from test_surveys import assert_accessible
from test_triage import signed_in, statuses_as_stranger

SECRET = "TEAM-ONLY-halve-the-dose"

def collecting(context):
    """The address of every request `context` makes."""
    seen = []
    context.on("request", lambda request: seen.append((request.method, request.url)))
    return seen


def listen_to(page, addresses):
    """Opens an EventSource on each address in the page, keeping every `changed` event's data."""
    page.evaluate("""(addresses) => {
        window.__ockEvents = [];
        for (const address of addresses) {
            const source = new EventSource(address);
            source.addEventListener("changed", (event) => window.__ockEvents.push(event.data));
        }
    }""", addresses)


def test_the_patient_and_her_care_team_talk_live_with_receipts_and_a_team_note_stays_with_the_team(browser, team):
    origin, base = team["origin"], team["base"]
    record = base.rsplit("/", 1)[1]
    messages = base + "/messages"
    alex_context, alex = signed_in(browser, origin, "alex@example.org", viewport=PHONE)
    sam_context, sam = signed_in(browser, origin, DEMO_CAREGIVER, viewport=PHONE)
    lee_context, lee = signed_in(browser, origin, DEMO_CLINICIAN)
    alex_seen, sam_seen = collecting(alex_context), collecting(sam_context)
    try:
        lee.wait_for_url(origin + "/")
        lee.wait_for_selector("html[data-ock-live=open]")
        row = f'.ock-patient[data-record="{record}"]'
        assert lee.locator(row + " .ock-unread-link").count() == 0
        # The demo's conversation is there for the family; Dr. Lee's team note of the demo is not.
        alex.goto(messages)
        assert "Swelling after the walk" in alex.text_content("main") and "ultrasound" not in alex.content()
        sam.goto(messages)
        sam.wait_for_selector("html[data-ock-live=open]")
        assert_accessible(alex, "the messages list on a phone")

        # Alex writes; Dr. Lee's open home counts it at once.
        alex.fill("#thread-subject", "Knee feels hot")
        alex.fill("#thread-body", "My knee feels hot tonight. Should I worry? See https://example.org/knee.")
        alex.click(".ock-message-form button:has-text('Send')")
        alex.wait_for_url(re.compile(re.escape(messages) + r"/[0-9a-z]{26}#latest"))
        thread = alex.url.split("/")[-1].split("#")[0]
        alex.wait_for_selector("html[data-ock-live=open]")
        lee.wait_for_selector(row + ' .ock-unread-link[data-unread="1"]', timeout=3000)
        # The caregiver's open list shows the new thread, unread.
        sam.wait_for_selector(f'.ock-thread[data-thread="{thread}"] .ock-badge-unread', timeout=3000)
        assert alex.get_attribute(".ock-message-link", "href") == "https://example.org/knee"
        assert alex.get_attribute(".ock-message-link", "rel") == "noopener noreferrer nofollow"
        assert_accessible(alex, "a thread on a phone")

        # Dr. Lee opens it from her badge: Alex's open page says he has seen it.
        lee.click(row + " .ock-unread-link")
        lee.click(f'.ock-thread[data-thread="{thread}"] a')
        lee.wait_for_selector(".ock-message:has-text('My knee feels hot')")
        alex.wait_for_selector("#seen:has-text('Seen by Dr. Jordan Lee at')", timeout=3000)
        assert_accessible(lee, "a thread on a desktop")

        # The reply reaches Alex's open page live, and Sam's list counts it.
        lee.fill("#reply-body", "Rest it tonight with ice; I will look at it tomorrow morning.")
        lee.click(".ock-message-form button:has-text('Send')")
        lee.wait_for_selector(".ock-message-mine:has-text('Rest it tonight')")
        alex.wait_for_selector(".ock-message:has-text('Rest it tonight')", timeout=3000)
        sam.wait_for_selector(f'.ock-thread[data-thread="{thread}"] .ock-badge-unread[data-unread="2"]', timeout=3000)
        lee.wait_for_selector("#seen:has-text('Seen by Alex Rivera at')", timeout=3000)

        # Alex and Sam follow the record's live channels; Dr. Lee writes a team note.
        alex.goto(messages)
        sam.goto(base + "/care")
        # Sam's record pages count what she has not read, beside their Messages link.
        sam.wait_for_selector("[data-ock-unread]:not([hidden])")
        assert re.fullmatch(r"\d+ unread", sam.text_content("[data-ock-unread]")), sam.text_content("[data-ock-unread]")
        for page in (alex, sam):
            listen_to(page, [messages + "/live", base + "/live/changes"])
        lee.goto(messages)
        assert_accessible(lee, "the messages list with the team note's choice")
        lee.check("#audience-care-team")
        lee.fill("#thread-subject", "Dose review")
        lee.fill("#thread-body", SECRET)
        lee.click(".ock-message-form button:has-text('Send')")
        lee.wait_for_selector(f".ock-message:has-text('{SECRET}')")
        note = lee.url.split("/")[-1].split("#")[0]
        # A message Alex may see after it, so that her channels have carried everything before it.
        lee.goto(f"{messages}/{thread}")
        lee.fill("#reply-body", "One more thing: keep the leg raised.")
        lee.click(".ock-message-form button:has-text('Send')")
        alex.wait_for_function(f"() => window.__ockEvents.some((data) => data.includes('{thread}'))", timeout=3000)
        for page in (alex, sam):
            events = page.evaluate("window.__ockEvents")
            assert not any(note in data or SECRET in data for data in events), events
    finally:
        alex_context.close()
        sam_context.close()
        lee_context.close()

    # Every address either of them loaded, asked again as them, carries nothing of the note; the note's own address,
    # and the record's API, answer them without it.
    for email, seen in (("alex@example.org", alex_seen), (DEMO_CAREGIVER, sam_seen)):
        sign_in(origin, email)
        addresses = {url.split("#")[0] for method, url in seen if method == "GET" and url.startswith(origin) and "/live" not in url}
        # Each looked at the messages as the test went: Alex at her thread, Sam at the list of threads.
        assert (f"{messages}/{thread}" if email != DEMO_CAREGIVER else messages) in addresses, addresses
        for url in sorted(addresses | {messages, base + "/care", base + "/fhir/export", origin + "/"}):
            try:
                text = urlopen(url).read().decode(errors="replace")
            except urllib.error.HTTPError as error:
                text = error.read().decode(errors="replace")
            assert SECRET not in text and "Dose review" not in text and note not in text, (email, url)
        try:
            urlopen(f"{messages}/{note}")
            raise AssertionError("not refused")
        except urllib.error.HTTPError as error:
            assert error.code == 404 and SECRET not in error.read().decode(), email
    # The owner's activity page shows who read the threads, and who wrote (the refusals too).
    sign_in(origin, "alex@example.org")
    activity = urlopen(base + "/activity").read().decode()
    assert "GET /records/{record}/messages/{id}" in activity and "POST /records/{record}/messages/{id}" in activity
    assert "Jordan Lee (jordan.lee@example.org)" in activity
    SESSIONS.pop(origin, None)

    # A stranger (another patient of the clinic) gets 404 on every message address of the record.
    requests = [(messages, "GET"), (messages, "POST"), (f"{messages}/{thread}", "GET"), (f"{messages}/{thread}", "POST"),
                (f"{messages}/{note}", "GET"), (messages + "/live", "GET")]
    assert statuses_as_stranger(browser, origin, requests, {"subject": "x", "body": "x"}) == [404] * len(requests)


def in_korean(browser, origin, email, viewport):
    """A browser context that reads Korean, signed in as `email` through the sign-in form; its page."""
    context = fresh_context(browser, viewport=viewport, locale="ko-KR")
    page = context.new_page()
    page.goto(origin + "/sign-in")
    page.fill("#email", email)
    page.fill("#password", "opencarekit-demo")
    page.press("#password", "Enter")
    page.wait_for_url(lambda url: "/sign-in" not in url)
    return context, page


def test_the_messages_pages_are_accessible_in_korean_at_both_sizes(browser, team):
    for viewport in (PHONE, DESKTOP):
        context, page = in_korean(browser, team["origin"], DEMO_CAREGIVER, viewport)
        try:
            page.goto(team["base"] + "/messages", wait_until="load")
            assert "새 대화" in page.text_content("main")
            assert_accessible(page, f"the messages list at {viewport}")
            page.click(".ock-thread a")
            page.wait_for_selector(".ock-message")
            assert "답장" in page.text_content("main")
            assert_accessible(page, f"a thread at {viewport}")
        finally:
            context.close()
        # The clinician's home, with its triage queue (each item's forms, the reply to the patient among them) and
        # unread counts; and the whole queue.
        context, page = in_korean(browser, team["origin"], DEMO_CLINICIAN, viewport)
        try:
            page.wait_for_selector(".ock-triage-item")
            assert page.locator(".ock-unread-link").count() > 0 and "분류 대기열" in page.text_content("main")
            assert_accessible(page, f"the clinician's home at {viewport}")
            page.goto(team["origin"] + "/triage")
            page.wait_for_selector("h1#triage-title")
            assert_accessible(page, f"the whole triage queue at {viewport}")
        finally:
            context.close()


def test_the_care_teams_work_exports_as_valid_fhir_and_imports_into_a_new_record(team):
    """Grace O'Neill's record, as her clinician exports it: the alerts the start-up sweep raised as Flags, their triage
    as Tasks, her question as Communications; each validates with fhir.resources' R4B models, every reference
    resolves, and the Bundle imports into a new record whose messages read as hers."""
    import json

    from fhir.resources.R4B import get_fhir_model_class
    from test_fhir import post_bundle

    origin = team["origin"]
    sign_in(origin, DEMO_CLINICIAN)
    home = urlopen(origin + "/").read().decode()
    record = re.search(r'class="ock-patient-name" href="/records/([0-9a-z]{26})/care">Grace O&#39;Neill<', home).group(1)
    exported = urlopen(f"{origin}/records/{record}/fhir/export").read()
    bundle = json.loads(exported)
    get_fhir_model_class("Bundle").model_validate(bundle)
    resources = [entry["resource"] for entry in bundle["entry"]]
    for resource in resources:
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)
    kinds = [resource["resourceType"] for resource in resources]
    assert kinds.count("Flag") > 0 and kinds.count("Flag") == kinds.count("Task"), kinds
    assert kinds.count("Communication") == 2, kinds
    present = {f"{r['resourceType']}/{r['id']}" for r in resources}
    references = re.findall(r'"reference": "([A-Za-z]+/[^"]+)"', json.dumps(bundle))
    assert set(references) <= present
    # The read API answers the same resources, as a searchset.
    flags = json.load(urlopen(f"{origin}/fhir/R4/Flag?patient={record}"))
    get_fhir_model_class("Bundle").model_validate(flags)
    assert flags["total"] == kinds.count("Flag")

    status, headers, answer = post_bundle(origin, exported, role="caregiver")
    assert status == 201, answer
    new_id = re.fullmatch(r"/records/([0-9a-z]+)/care", headers["Location"]).group(1)
    page = urlopen(f"{origin}/records/{new_id}/messages").read().decode()
    assert "Pain at night" in page
    thread = re.search(rf'href="/records/{new_id}/messages/([0-9a-z]{{26}})#latest"', page).group(1)
    conversation = urlopen(f"{origin}/records/{new_id}/messages/{thread}").read().decode()
    assert "The pain keeps me awake at night" in conversation and "Grace O&#39;Neill" in conversation
    SESSIONS.pop(origin, None)
