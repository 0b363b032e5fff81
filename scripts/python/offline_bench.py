"""The offline app's benchmark (issue 39), in Chromium at the phone's size on a persistent profile, the record kept
on the device:
- opening the Care page offline from the installed app, to the first task card shown (first contentful paint: the
  cards are in the page's first paint), median of N, beside the same page online from the loopback server, in the
  same run — target: at most 300 ms;
- what the record's kept pages take on the device (the 15 Care days, Insights, Contacts, the consent, and each unanswered check-in as one form) — target: at
  most 2 MB;
- replaying M changes queued offline (values logged, each its own write) once the network is back, through the
  app's own queue, beside M requests for /healthz from the same page — target: 200 in at most 5 s.

Usage: offline_bench.py BINARY [--smoke]. --smoke: N = 3, M = 10, to show the benchmark still measures what it says."""
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Browser"))
os.environ["OPENCAREKIT_BIN"] = sys.argv[1]

from playwright.sync_api import sync_playwright  # noqa: E402

from careapp import onboard, record_base, served, urlopen  # noqa: E402
from conftest import CHROMIUM, PHONE, SESSIONS  # noqa: E402
from careapp import origin_of  # noqa: E402

SMOKE = "--smoke" in sys.argv
OPENINGS = 3 if SMOKE else 20
WRITES = 10 if SMOKE else 200


def nausea_values(base):
    """How many values the record's nausea outcomes hold (their newest versions), every day's, through the JSON API."""
    import json
    stored = json.load(urlopen(base + "/api/v1/outcomes?limit=500", headers={"Accept": "application/json"}))
    tasks = {task["uuid"]: task["id"] for task in json.load(urlopen(base + "/api/v1/tasks?limit=500", headers={"Accept": "application/json"}))}
    return sum(len(outcome["values"]) for outcome in stored
               if tasks.get(outcome["taskUUID"]) == "nausea" and not outcome.get("nextVersionUUIDs"))


def first_card_paint(page, address):
    page.goto(address)
    page.wait_for_selector("#care-cards .ock-card")
    return page.evaluate("""new Promise(resolve => {
        const paint = () => performance.getEntriesByName("first-contentful-paint")[0];
        if (paint()) { resolve(paint().startTime); return; }
        new PerformanceObserver(() => { if (paint()) { resolve(paint().startTime); } }).observe({type: "paint", buffered: true});
    })""")


def main():
    with tempfile.TemporaryDirectory() as data, served(data) as url, tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        base = record_base(url)
        onboard(base)
        origin = origin_of(url)
        context = playwright.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=["--no-sandbox"], viewport=PHONE)
        context.add_cookies([{"name": "ock_session", "value": SESSIONS[origin], "url": origin}])
        page = context.pages[0] if context.pages else context.new_page()
        try:
            page.goto(base + "/care")
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.reload()
            page.wait_for_selector("html[data-ock-device-ready]", state="attached")
            page.locator("[data-ock-keep] button").click()
            page.wait_for_selector("html[data-ock-kept]", state="attached", timeout=60000)

            online = [first_card_paint(page, base + "/care") for _ in range(OPENINGS)]
            context.route("**/*", lambda route: route.abort("internetdisconnected"))
            context.set_offline(True)
            offline = [first_card_paint(page, base + "/care") for _ in range(OPENINGS)]
            assert page.locator("html").get_attribute("data-ock-offline-saved"), "the offline page did not come from the device"
            context.unroute("**/*")
            context.set_offline(False)
            print(f"Care page to the first task card, median of {OPENINGS}: offline from the installed app "
                  f"{statistics.median(offline):.0f} ms, online from the loopback server {statistics.median(online):.0f} ms "
                  f"(target offline <= 300 ms)")

            kept = page.evaluate("""caches.open("ock-pages").then(cache => cache.keys().then(keys =>
                Promise.all(keys.map(key => cache.match(key).then(response => response.blob()).then(blob => blob.size)))
                  .then(sizes => ({pages: keys.length, bytes: sizes.reduce((a, b) => a + b, 0)}))))""")
            print(f"Kept on the device: {kept['pages']} pages, {kept['bytes'] / 1024:.0f} kB (15 Care days, Insights, Contacts, "
                  f"consent, check-in forms; target <= 2048 kB)")

            # M changes queued while the network is gone (the queue as the Care page fills it: one log each, its own
            # moment), then sent through the app's own queue once it is back.
            page.goto(base + "/care")
            page.wait_for_selector("html[data-ock-device-ready]", state="attached")
            context.route("**/care/events/**", lambda route: route.abort("internetdisconnected"))
            page.evaluate("""([count]) => {
                const form = document.querySelector("#task-nausea form");
                const field = name => form.querySelector(`input[name="${name}"]`).value;
                const account = /ock_account=([0-9a-f]{16})/.exec(document.cookie)[1];
                const record = document.querySelector('meta[name="ock-record"]').content;
                const start = Date.now() - count;
                let chain = Promise.resolve();
                for (let index = 0; index < count; index += 1) {
                    chain = chain.then(() => OpenCareKitOutbox.add({account, record, action: "/care/events/log",
                        fields: {task: field("task"), occurrence: field("occurrence"), date: field("date"), acted: String(start + index)},
                        label: "Track Nausea", state: "waiting", queuedAt: Date.now()}));
                }
                return chain;
            }""", [WRITES])
            context.unroute("**/care/events/**")
            before = nausea_values(base)
            timing = page.evaluate("""([count]) => {
                const account = /ock_account=([0-9a-f]{16})/.exec(document.cookie)[1];
                const token = document.querySelector('meta[name="ock-csrf"]').content;
                const began = performance.now();
                return OpenCareKitOutbox.flush(account, () => token).then(async result => {
                    const replay = performance.now() - began;
                    const reference = performance.now();
                    for (let index = 0; index < count; index += 1) { await fetch("/healthz", {cache: "no-store"}); }
                    return {result, replay, reference: performance.now() - reference};
                });
            }""", [WRITES])
            logged = nausea_values(base) - before
            assert timing["result"] == "done" and logged == WRITES, (timing, logged)
            print(f"Replay of {WRITES} queued changes after reconnecting: {timing['replay'] / 1000:.2f} s "
                  f"({timing['replay'] / WRITES:.1f} ms each; {WRITES} requests for /healthz from the page: "
                  f"{timing['reference'] / 1000:.2f} s), each stored once (target 200 in <= 5 s)")
        finally:
            context.close()


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"({time.monotonic() - started:.0f} s)")
