"""CareKit's remote sync end to end: store files synchronize with `serve` through the HTTP remote
(`opencarekit sync`), and an open page of the record shows what a device pushed, live."""
import os
import re
import subprocess
import tempfile
import urllib.parse

from careapp import BINARY, TOOL_CLOCK, opener_for
from conftest import open_page
from test_care_app import ENOXAPARIN, app, server_day, wait_live  # noqa: F401 (the fixture)


def make_token(url, scope="patient/*.cruds"):
    """An access token for the record at `url` (its base address), made in the account page as a person would."""
    opener, _ = opener_for(url)
    origin = url.split("/records/")[0]
    record = url.rsplit("/", 1)[1]
    page = opener.open(origin + "/account/tokens").read().decode()
    csrf = re.search(r'name="csrf" type="hidden" value="([0-9a-f]{64})"', page).group(1)
    body = urllib.parse.urlencode({"csrf": csrf, "label": "sync test", "scope": scope, "record": record}).encode()
    answer = opener.open(origin + "/account/tokens", body).read().decode()
    field = re.search(r'<input[^>]*id="token-value"[^>]*>', answer).group(0)
    return re.search(r'value="([^"]+)"', field).group(1)


def sync(store, url, token):
    origin, record = url.split("/records/")
    return subprocess.run([BINARY, "sync", "--store", store, "--server", origin, "--record", record],
                          capture_output=True, text=True, env={**os.environ, "OPENCAREKIT_TOKEN": token}, timeout=60)


def test_two_device_stores_sync_through_serve_and_an_open_page_shows_a_push_live(browser, app):
    url = app["url"]
    token = make_token(url)
    zone = TOOL_CLOCK
    with tempfile.TemporaryDirectory() as directory:
        phone, tablet = os.path.join(directory, "phone.sqlite"), os.path.join(directory, "tablet.sqlite")
        # Both devices start empty and get the record.
        for device in (phone, tablet):
            done = sync(device, url, token)
            assert done.returncode == 0, done.stderr
            assert "Synchronized" in done.stdout
        context, page, errors = open_page(browser, url + "/care")
        try:
            wait_live(page)
            assert page.get_attribute(ENOXAPARIN, "aria-pressed") == "false"
            # The phone records today's dose and pushes it: the open page shows it within a second.
            logged = subprocess.run([BINARY, "store", "log", "enoxaparin", "--store", phone, "--date", server_day(url), *zone],
                                    capture_output=True, text=True)
            assert logged.returncode == 0, logged.stderr
            pushed = sync(phone, url, token)
            assert pushed.returncode == 0, pushed.stderr
            page.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=1000)
            # The tablet gets it with its next sync.
            fetched = sync(tablet, url, token)
            assert fetched.returncode == 0, fetched.stderr
            events = subprocess.run([BINARY, "store", "events", "--store", tablet, "--date", server_day(url), *zone],
                                    capture_output=True, text=True)
            assert events.returncode == 0, events.stderr
            line = next(line for line in events.stdout.splitlines() if "enoxaparin" in line.lower())
            assert "done" in line.lower() or "✓" in line or "[x]" in line.lower(), events.stdout
            assert errors == []
        finally:
            context.close()


def test_sync_refuses_a_bad_token_and_a_token_that_cannot_write(app):
    url = app["url"]
    with tempfile.TemporaryDirectory() as directory:
        store = os.path.join(directory, "device.sqlite")
        refused = sync(store, url, "not-a-token")
        assert refused.returncode != 0
        assert "401" in refused.stderr, refused.stderr
        reader = make_token(url, scope="patient/*.rs")
        # A read-only token pulls, but a device with something to push is refused, and says why.
        assert sync(store, url, reader).returncode == 0
        logged = subprocess.run([BINARY, "store", "log", "enoxaparin", "--store", store, "--date", server_day(url), *TOOL_CLOCK],
                                capture_output=True, text=True)
        assert logged.returncode == 0, logged.stderr
        refused = sync(store, url, reader)
        assert refused.returncode != 0
        assert "403" in refused.stderr and "scope" in refused.stderr, refused.stderr
