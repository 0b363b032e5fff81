"""Records, accounts and the care team end to end: an invitation by link, a caregiver whose action reaches the
patient's open page live, a stranger who gets 404 on every address of the record, the idle sign-out, the activity
page, and accessibility of every new page."""
import datetime
import re
import subprocess
import tempfile
import urllib.error
import urllib.parse

import pytest

from careapp import BINARY, DEMO_CLINICIAN, onboard, origin_of, record_base, served, sign_in, urlopen
from conftest import DESKTOP, PHONE, SESSIONS, opened_page
from test_surveys import assert_accessible

ENOXAPARIN = '#task-enoxaparin button[aria-pressed]'


@pytest.fixture()
def team():
    """The demo, onboarded, with the patient signed in; the data directory for the command line tool."""
    with tempfile.TemporaryDirectory() as directory, served(directory) as origin:
        base = record_base(origin)
        onboard(base)
        yield {"origin": origin, "base": base, "data": directory, "patient": SESSIONS[origin]}


def invite(browser, team, role="caregiver"):
    """The patient makes an invitation link on the sharing page; returns the link."""
    with opened_page(browser, team["base"] + "/sharing") as (page, errors):
        page.select_option("#invite-role", role)
        page.click("text=Create invitation link")
        link = page.input_value("#invitation-link")
        assert errors == []
    assert re.fullmatch(re.escape(team["origin"]) + r"/invitations/[0-9a-z]{52}", link), link
    return link


def type_password(page, email, password):
    """Signs in on the sign-in page the browser is at, as a person would."""
    page.fill("#email", email)
    page.fill("#password", password)
    page.click("button:has-text('Sign in')")


def accept_invitation(page, link, name, email, password="a long enough password"):
    """Opens an invitation link and accepts it with a new account, as the invitee would."""
    page.goto(link)
    page.fill("#name", name)
    page.fill("#email", email)
    page.fill("#password", password)
    page.click("button:has-text('Create an account')")


def fresh_context(browser, **options):
    """A browser context with nobody signed in."""
    return browser.new_context(**{"viewport": PHONE, **options})


def test_an_invited_caregiver_completes_a_task_and_the_patients_page_updates_live(browser, team):
    link = invite(browser, team)
    with opened_page(browser, team["base"] + "/care") as (patient, patient_errors):
        patient.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
        context = fresh_context(browser)
        try:
            sam = context.new_page()
            sam.goto(link)
            assert "invites you to the care record of Alex Rivera as Caregiver" in sam.text_content("main")
            sam.fill("#name", "Samira Rivera")
            sam.fill("#email", "samira@example.org")
            sam.fill("#password", "a long enough password")
            sam.click("button:has-text('Create an account')")
            sam.wait_for_url(team["base"] + "/care")
            sam.wait_for_selector('html[data-ock-live="open"]', timeout=5000)
            sam.click(ENOXAPARIN)
            patient.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=2000)
            # The link worked once.
            other = fresh_context(browser)
            try:
                again = other.new_page()
                response = again.goto(link)
                assert response.status == 410
            finally:
                other.close()
        finally:
            context.close()
        assert patient_errors == []
    # The owner sees the caregiver's visit.
    with opened_page(browser, team["base"] + "/activity") as (page, _):
        rows = page.text_content("table")
        assert "Samira Rivera (samira@example.org)" in rows and "GET /records/{record}/care" in rows
    # Its export is a valid FHIR R4 Bundle of AuditEvents (fhir.resources' R4B models, structurally R4's).
    from fhir.resources.R4B.bundle import Bundle
    text = urlopen(team["base"] + "/activity/fhir").read().decode()
    bundle = Bundle.model_validate_json(text)
    events = [entry.resource for entry in bundle.entry]
    assert events and all(event.get_resource_type() == "AuditEvent" for event in events)
    assert any(event.outcome == "0" and event.action == "R" for event in events)
    assert "Samira" not in text and "Alex" not in text, "names in the audit export"


def test_a_stranger_gets_404_on_every_address_of_the_record(browser, team):
    link = invite(browser, team)
    # The caregiver's pages, forms, live channels and API: every address of the record she meets.
    context = fresh_context(browser)
    addresses = set()
    try:
        sam = context.new_page()
        accept_invitation(sam, link, "Sam Lee", "sam.lee@example.org")
        sam.wait_for_url(team["base"] + "/care")
        for path in ["/care", "/insights", "/contacts", "/sharing", "/consent"]:
            sam.goto(team["base"] + path)
            addresses.update(map(tuple, sam.evaluate("""() => [
                ...Array.from(document.querySelectorAll("a[href]"), a => ["get", a.getAttribute("href")]),
                ...Array.from(document.querySelectorAll("form[action]"), f => [f.method, f.getAttribute("action")]),
                ...Array.from(document.querySelectorAll('meta[name="ock-live"], meta[name="ock-changes"]'),
                              m => ["get", m.getAttribute("content")])]""")))
        addresses.update({("get", "/api/v1/tasks"), ("get", "/api/v1/events"), ("post", "/api/v1/outcomes")})
    finally:
        context.close()
    record_path = urllib.parse.urlsplit(team["base"]).path
    owned = sorted({(method, path if path.startswith("/records/") else record_path + path)
                    for method, path in addresses if path.startswith(record_path) or path.startswith("/api/")})
    assert len(owned) >= 15, owned
    # A stranger with an account of her own, signed in.
    subprocess.run([BINARY, "account", "add", "eve@example.org", "--name", "Eve", "--data", team["data"]],
                   input="eve's own password\n", text=True, check=True, capture_output=True)
    context = fresh_context(browser)
    try:
        eve = context.new_page()
        eve.goto(team["origin"] + "/sign-in")
        type_password(eve, "eve@example.org", "eve's own password")
        eve.wait_for_url(team["origin"] + "/")
        token = eve.get_attribute('meta[name="ock-csrf"]', "content")
        for method, path in owned:
            url = team["origin"] + path.split("#")[0]
            if method == "get":
                status = eve.request.get(url, headers={"Accept": "text/html"}).status
            else:
                status = eve.request.post(url, form={"csrf": token}).status
            assert status == 404, (method, path, status)
    finally:
        context.close()


def test_the_idle_sign_out_warns_then_signs_out(browser, team):
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "ock_session", "value": team["patient"], "url": team["origin"]}])
    page = context.new_page()
    try:
        # The page also reloads at the patient's midnight: the fake clock starts at noon, whatever the real time.
        page.goto(team["base"] + "/care")
        midnight = int(page.get_attribute('meta[name="ock-next-midnight"]', "content"))
        page.clock.install(time=datetime.datetime.fromtimestamp(midnight / 1000 - 12 * 3600, tz=datetime.timezone.utc))
        page.goto(team["base"] + "/care")
        page.clock.run_for(13 * 60_000 + 30_000)
        assert page.locator(".ock-idle-warning").count() == 0
        page.clock.run_for(60_000)
        warning = page.locator(".ock-idle-warning[role=alert]")
        assert warning.is_visible() and "signed out in one minute" in warning.text_content()
        # Staying signed in puts the warning away and starts the time again.
        page.click("text=Stay signed in")
        assert page.locator(".ock-idle-warning").count() == 0
        page.clock.run_for(14 * 60_000 + 30_000)
        assert page.locator(".ock-idle-warning").is_visible()
        with page.expect_navigation():
            page.clock.run_for(60_000)
        page.wait_for_url(re.compile(r".*/sign-in\?.*"))
        assert "signed out after a while without activity" in page.text_content("main")
        # The session really ended: the record's page asks to sign in again.
        page.goto(team["base"] + "/care")
        assert "/sign-in" in page.url
    finally:
        context.close()


def test_every_new_page_is_accessible_at_phone_and_desktop_sizes(browser, team):
    link = invite(browser, team, role="clinician")
    clinician_origin_session = None
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.goto(team["origin"] + "/sign-in")
            assert_accessible(page, f"sign-in {size}")
            page.goto(link)
            assert_accessible(page, f"invitation {size}")
        finally:
            context.close()
        for path in ("/sharing", "/activity", "/care"):
            with opened_page(browser, team["base"] + path, viewport=viewport) as (page, errors):
                assert_accessible(page, f"{path} {size}")
                assert errors == []
        for path in ("/account", "/account/tokens", "/account/two-step"):
            with opened_page(browser, team["origin"] + path, viewport=viewport) as (page, errors):
                assert_accessible(page, f"{path} {size}")
                assert errors == []
    # The clinician's home: her patients at a glance.
    landed = sign_in(team["origin"], DEMO_CLINICIAN)
    assert landed == team["origin"] + "/"
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        with opened_page(browser, team["origin"] + "/", viewport=viewport) as (page, errors):
            assert page.locator(".ock-patient").count() == 13
            assert_accessible(page, f"clinician home {size}")
            assert errors == []


def test_the_clinicians_home_shows_patients_by_need_and_follows_them_live(browser, team):
    clinician = fresh_context(browser, viewport=DESKTOP)
    patient = fresh_context(browser)
    try:
        home = clinician.new_page()
        home.goto(team["origin"] + "/sign-in")
        type_password(home, DEMO_CLINICIAN, "opencarekit-demo")
        home.wait_for_url(team["origin"] + "/")
        home.wait_for_selector("html[data-ock-live=open]")
        rows = home.locator(".ock-patient")
        assert rows.count() == 13
        # Those with open triage items first (the start-up sweep raised them), then the rest by name.
        opened = [int(rows.nth(index).get_attribute("data-open")) for index in range(rows.count())]
        needing = len([count for count in opened if count > 0])
        assert needing > 0 and all(count > 0 for count in opened[:needing]) and opened[-1] == 0, opened
        rest = [rows.nth(index).locator(".ock-patient-name").text_content() for index in range(needing, rows.count())]
        assert rest == sorted(rest), rest
        assert home.locator(".ock-flag", has_text="Missed doses on").count() > 0
        assert home.locator(".ock-flag", has_text="Pain ").count() > 0
        maria = home.locator(".ock-patient", has=home.locator("a", has_text="Maria Santos"))
        before = maria.inner_html()

        # Maria, on her own phone, marks a dose; Dr. Lee's open home follows.
        page = patient.new_page()
        page.goto(team["origin"] + "/sign-in")
        type_password(page, "maria.santos@example.org", "opencarekit-demo")
        page.wait_for_url(re.compile(r".*/records/[0-9a-z]{26}/care"))
        page.wait_for_selector("html[data-ock-live=open]")
        button = page.locator(ENOXAPARIN).first
        pressed = button.get_attribute("aria-pressed")
        button.click()
        page.wait_for_function("([selector, was]) => document.querySelector(selector).getAttribute('aria-pressed') !== was",
                               arg=[ENOXAPARIN, pressed])
        home.wait_for_function("(before) => { const row = [...document.querySelectorAll('.ock-patient')]"
                               ".find((item) => item.textContent.includes('Maria Santos')); return row && row.innerHTML !== before; }",
                               arg=before)
        # Each patient opens the record.
        maria.locator("a").click()
        home.wait_for_url(re.compile(r".*/records/[0-9a-z]{26}/care"))
        assert home.locator("#task-enoxaparin").count() == 1
    finally:
        clinician.close()
        patient.close()


def totp(key, moment=None):
    """RFC 6238's code (6 digits, 30 s, SHA-1) for a base-32 key, as an authenticator app computes it."""
    import base64
    import hashlib
    import hmac
    import struct
    import time
    secret = base64.b32decode(key.replace(" ", "") + "=" * (-len(key.replace(" ", "")) % 8))
    digest = hmac.new(secret, struct.pack(">Q", int((moment or time.time()) // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def test_two_step_sign_in_with_the_qr_code_an_app_reads(browser, team, tmp_path):
    import zxingcpp
    from PIL import Image
    with opened_page(browser, team["origin"] + "/account/two-step", viewport=DESKTOP) as (page, errors):
        key = page.text_content("#two-step-key")
        page.locator("svg.ock-qr-code").screenshot(path=str(tmp_path / "qr.png"))
        codes = zxingcpp.read_barcodes(Image.open(tmp_path / "qr.png"))
        assert [code.format.name for code in codes] == ["QRCode"]
        address = codes[0].text
        assert urllib.parse.unquote(address).startswith("otpauth://totp/OpenCareKit:alex@example.org?secret=") and "issuer=OpenCareKit" in address
        assert urllib.parse.parse_qs(urllib.parse.urlsplit(address).query)["secret"] == [key.replace(" ", "")]
        assert_accessible(page, "two-step setup")
        setup_code = totp(key)
        page.fill("#code", setup_code)
        page.click("button:has-text('Turn on')")
        assert page.locator(".ock-recovery-codes li").count() == 10
        assert errors == []
    context = fresh_context(browser)
    try:
        page = context.new_page()
        page.goto(team["base"] + "/care")
        type_password(page, "alex@example.org", "opencarekit-demo")
        page.wait_for_url(re.compile(r".*/sign-in/two-step.*"))
        assert_accessible(page, "second step")
        page.fill("#code", "000000" if totp(key) != "000000" else "111111")
        page.click("button:has-text('Sign in')")
        assert "That code is not right." in page.text_content("main")
        # A code is taken once: the one that turned two-step on does not sign in; the app's next one does.
        page.fill("#code", setup_code)
        page.click("button:has-text('Sign in')")
        assert "That code is not right." in page.text_content("main")
        import time
        page.fill("#code", totp(key, time.time() + 30))
        page.click("button:has-text('Sign in')")
        page.wait_for_url(team["base"] + "/care")
    finally:
        context.close()
