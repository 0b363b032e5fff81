"""Shared fixtures for the browser tests: Debian's Chromium through Playwright, and a gallery written by the
`opencarekit` executable and served over HTTP from a temporary directory."""
import contextlib
import functools
import glob
import http.server
import os
import pathlib
import subprocess
import tempfile
import threading
import uuid

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Where screenshots go (git-ignored); the runs at other dates put theirs elsewhere (scripts/test-dates).
SCREENSHOTS = pathlib.Path(os.environ.get("OPENCAREKIT_SCREENSHOTS", str(ROOT / ".screenshots")))
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CHROMIUM = os.environ.get("OPENCAREKIT_CHROMIUM", "/usr/bin/chromium")
# The session signed in on each served app, by origin (`careapp.sign_in`): every page opened on it is signed in.
SESSIONS = {}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "clock_free: the test's outcome cannot depend on the server's date or zone (what it checks reads no "
        "date); scripts/test-dates leaves it out of its runs at other moments")


@pytest.fixture(scope="session")
def gallery_url():
    binary = os.environ.get("OPENCAREKIT_BIN", str(ROOT / ".build" / "debug" / "opencarekit"))
    with tempfile.TemporaryDirectory() as directory:
        subprocess.run([binary, "gallery", "--output", directory], check=True, capture_output=True)
        handler = functools.partial(QuietHandler, directory=directory)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


# What the demo holds that is a person's, and that no log line may carry: the demo people's names and email
# addresses, the clinic's patients' family names, the care plan's tasks (a medication says a condition).
PATIENT_DATA = ["Alex Rivera", "Sam Rivera", "Jordan Lee", "alex@example.org", "sam@example.org", "jordan.lee@example.org",
                "Santos", "Becker", "Williams", "Haddad", "Okafor", "Ibuprofen", "Enoxaparin", "Omeprazole", "Knee Exercises",
                "Track Nausea", "Weekly Weigh-in", "Knee Recovery"]


def patient_data_in(path, extra=()):
    """The lines of the log at `path` holding any of `PATIENT_DATA` or `extra`, with what they hold."""
    found = []
    with open(path, errors="replace") as log:
        for line in log:
            found += [(word, line.strip()[:300]) for word in [*PATIENT_DATA, *extra] if word in line]
    return found


@pytest.fixture(scope="session", autouse=True)
def logs_hold_no_patient_data():
    """After every test, the logs of every app the suite served (at the debug level): none holds patient data."""
    yield
    import careapp
    findings = [(path, *finding) for path in careapp.LOGS if os.path.exists(path) for finding in patient_data_in(path)]
    for path in careapp.LOGS:
        if os.path.exists(path):
            os.remove(path)
    assert not findings, f"patient data in the logs: {findings[:5]}"


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture()
def phone_page(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()


def new_context(browser, url, **options):
    """A browser context signed in as the session of `url`'s server, if `careapp.sign_in` made one."""
    context = browser.new_context(**options)
    origin = "/".join(url.split("/")[:3])
    if origin in SESSIONS:
        context.add_cookies([{"name": "ock_session", "value": SESSIONS[origin], "url": origin}])
    return context


def open_page(browser, url, viewport=PHONE, failed_requests=False, **options):
    """A page in a new browser context, collecting console errors and page errors (and, if asked, failed requests)."""
    context = new_context(browser, url, viewport=viewport, **options)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(f"{message.text} {message.location.get('url', '')}")
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    if failed_requests:
        page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
    page.goto(url, wait_until="load")
    return context, page, errors


@contextlib.contextmanager
def opened_page(browser, url, viewport=PHONE, failed_requests=False, **options):
    """`open_page` whose context closes when the block ends."""
    context, page, errors = open_page(browser, url, viewport, failed_requests, **options)
    try:
        yield page, errors
    finally:
        context.close()


def psql():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))
    assert found, "PostgreSQL's psql was not found (install Debian's postgresql-15)"
    return found[-1]


@pytest.fixture()
def database_url():
    """A new database on the test run's cluster ($OPENCAREKIT_TEST_DATABASE_URL, which scripts/test starts), or on a
    cluster of its own when run alone."""
    url = os.environ.get("OPENCAREKIT_TEST_DATABASE_URL")
    cluster = None
    if not url:
        lines = subprocess.run([str(ROOT / "scripts" / "pg-test-cluster"), "start"], check=True, capture_output=True,
                               text=True).stdout.split()
        cluster, url = lines[0], lines[-1]
    name = "browser_" + uuid.uuid4().hex
    subprocess.run([psql(), url, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {name}"], check=True)
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        if cluster:
            subprocess.run([str(ROOT / "scripts" / "pg-test-cluster"), "stop", cluster], check=True)
