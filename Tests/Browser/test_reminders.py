"""Reminders in the browser: a person turns them on for a task and for the device (notification permission granted
in the test's browser context), and sees the reminder in the open page at the due minute of the app's clock."""
import datetime
import json
import subprocess
import sys
import tempfile
import urllib.request
import zoneinfo

import pytest

from careapp import ZONE, record_base, served
from conftest import DESKTOP, PHONE, ROOT, opened_page
from test_surveys import assert_accessible

# Headless Chromium has no push service of its own (subscribing asks Google's servers, out of reach here): the page's
# PushManager hands out a subscription of a local push service instead (scripts/python/push_stub.py, which holds the
# browser's keys), with the key the page gave it checked; the app is told to send to that service alone. At 9:00 the
# stub receives the message, checks its VAPID token and decrypts it, as the browser's push service and the browser
# would.
FAKE_PUSH_MANAGER = """
(() => {
  if (!window.PushManager) { return; }
  const subscription = %s;
  const b64 = bytes => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  PushManager.prototype.getSubscription = async function () { return null; };
  PushManager.prototype.subscribe = async function (options) {
    if (!options || !options.userVisibleOnly || !(options.applicationServerKey instanceof Uint8Array)
        || options.applicationServerKey.length !== 65) { throw new DOMException('bad options', 'InvalidAccessError'); }
    window.__applicationServerKey = b64(options.applicationServerKey);
    const json = { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } };
    return { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => true };
  };
})();
"""


@pytest.fixture()
def app_before_nine():
    """The demo app whose clock starts at 08:59:30 today in the record's zone (its enoxaparin is due at 9:00), sending
    reminders to a local push service whose clock is the app's."""
    zone = ZONE or "America/New_York"
    local = datetime.datetime.now(zoneinfo.ZoneInfo(zone)).replace(hour=8, minute=59, second=30, microsecond=0)
    start = local.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    stub = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "python" / "push_stub.py"), "--now", str(local.timestamp()),
                             "--browsers", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready = json.loads(stub.stdout.readline())
        args = ["--now", start, "--push-service-for-tests", "127.0.0.1"] + ([] if ZONE else ["--zone", zone])
        with tempfile.TemporaryDirectory() as directory, served(directory, args=args) as origin:
            yield {"origin": origin, "base": record_base(origin), "subscription": ready["subscriptions"][0],
                   "stub": ready["subscriptions"][0]["endpoint"].split("/push/")[0]}
    finally:
        stub.stdin.close()
        stub.wait(timeout=10)


def test_turning_reminders_on_for_a_task_and_the_device_then_seeing_one_in_the_page(browser, app_before_nine):
    base = app_before_nine["base"]
    with opened_page(browser, base + "/reminders", permissions=["notifications"]) as (page, errors):
        page.add_init_script(FAKE_PUSH_MANAGER % json.dumps(app_before_nine["subscription"]))
        page.reload()
        assert_accessible(page, "reminders phone")
        page.check("#" + page.get_attribute("input[value=enoxaparin]", "id"))
        page.select_option("#follow-up", "30")
        page.click("text=Save reminders")
        page.wait_for_selector("text=Your reminders are saved.")
        assert page.is_checked("input[value=enoxaparin]")
        # This device: permission is granted, the service worker registers, the subscription reaches the server.
        page.click("text=Turn on notifications on this device")
        page.wait_for_selector("text=Notifications are on for this device.")
        assert page.evaluate("window.__applicationServerKey") == page.get_attribute("[data-vapid-key]", "data-vapid-key")
        assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => !!r && r.active !== null)")
        # At 9:00 on the app's clock, the reminder shows in the open page, with a link to its day.
        notice = page.wait_for_selector(".ock-reminder-notice", timeout=90_000)
        assert "Reminder: Enoxaparin (09:00)" in notice.inner_text()
        assert "/care?date=" in page.get_attribute(".ock-reminder-notice a", "href")
        page.click(".ock-reminder-notice button")
        assert page.locator(".ock-reminder-notice").count() == 0
        # The device got it too: the push service verified the VAPID token and the browser's key decrypts it.
        received = json.load(urllib.request.urlopen(app_before_nine["stub"] + "/received?count=1", timeout=90))["messages"]
        assert len(received) == 1 and received[0]["errors"] == [], received
        message = json.loads(received[0]["plaintext"])
        assert message["title"] == "Enoxaparin" and message["kind"] == "reminder" and message["time"] == "09:00"
        assert errors == []
    with opened_page(browser, base + "/reminders", viewport=DESKTOP, locale="ko-KR",
                     extra_http_headers={"Accept-Language": "ko"}) as (page, errors):
        assert page.is_checked("input[value=enoxaparin]")
        assert "알림" in page.title()
        assert_accessible(page, "reminders desktop")
        assert errors == []
