"""Reminders in the browser: a person turns them on for a task and for the device (notification permission granted
in the test's browser context), and sees the reminder in the open page at the due minute of the app's clock."""
import datetime
import tempfile
import zoneinfo

import pytest

from careapp import ZONE, record_base, served
from conftest import DESKTOP, PHONE, opened_page
from test_surveys import assert_accessible

# Headless Chromium has no push service of its own (subscribing asks Google's servers, out of reach here): the page
# gets a subscription as a browser's would look — a real P-256 key, an endpoint of Chrome's push service — and the
# server's handling of it is what is tested. Sending and encryption are tested against a push-service stub in
# ReminderServiceTests.
FAKE_PUSH_SERVICE = """
(() => {
  if (!window.PushManager) { return; }
  const b64 = bytes => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  PushManager.prototype.getSubscription = async function () { return null; };
  PushManager.prototype.subscribe = async function (options) {
    if (!options || !options.userVisibleOnly || !(options.applicationServerKey instanceof Uint8Array)
        || options.applicationServerKey.length !== 65) { throw new DOMException('bad options', 'InvalidAccessError'); }
    window.__applicationServerKey = b64(options.applicationServerKey);
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const raw = await crypto.subtle.exportKey('raw', pair.publicKey);
    const json = { endpoint: 'https://fcm.googleapis.com/fcm/send/playwright', keys: { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) } };
    return { endpoint: json.endpoint, toJSON: () => json };
  };
})();
"""


@pytest.fixture()
def app_before_nine():
    """The demo app whose clock starts at 08:59:30 today in the record's zone: its enoxaparin is due at 9:00."""
    zone = ZONE or "America/New_York"
    local = datetime.datetime.now(zoneinfo.ZoneInfo(zone)).replace(hour=8, minute=59, second=30, microsecond=0)
    start = local.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    args = ["--now", start] + ([] if ZONE else ["--zone", zone])
    with tempfile.TemporaryDirectory() as directory, served(directory, args=args) as origin:
        yield {"origin": origin, "base": record_base(origin)}


def test_turning_reminders_on_for_a_task_and_the_device_then_seeing_one_in_the_page(browser, app_before_nine):
    base = app_before_nine["base"]
    with opened_page(browser, base + "/reminders", permissions=["notifications"]) as (page, errors):
        page.add_init_script(FAKE_PUSH_SERVICE)
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
        assert errors == []
    with opened_page(browser, base + "/reminders", viewport=DESKTOP, locale="ko-KR",
                     extra_http_headers={"Accept-Language": "ko"}) as (page, errors):
        assert page.is_checked("input[value=enoxaparin]")
        assert "알림" in page.title()
        assert_accessible(page, "reminders desktop")
        assert errors == []
