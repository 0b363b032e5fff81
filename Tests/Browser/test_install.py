"""The care app as an installable web app (issue 39, part 1), in Chromium on a persistent profile at the phone's
size: no installability error, the worker controls the page after one visit, the manifest's icons load and are what
they say, the app shell is kept under the server's version, and Chromium offers to install the app (the page's
button appears)."""
import signal
import struct
import tempfile
import zlib

from careapp import origin_of, record_base, serve_on, served
from test_care_app import settled
from conftest import CHROMIUM, PHONE, SESSIONS


def png_pixels(data):
    """A PNG (8-bit RGBA, unfiltered rows, as the server writes them) as (width, height, pixel(x, y)), every chunk's
    CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, []
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, kind
        chunks.append((kind, body))
        offset += 12 + length
    width, height, depth, color, _, _, _ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, color) == (8, 6)
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = width * 4 + 1
    assert len(raw) == stride * height and all(raw[row * stride] == 0 for row in range(height))

    def pixel(x, y):
        start = y * stride + 1 + x * 4
        return tuple(raw[start:start + 4])
    return width, height, pixel


def installed_app(browser, profile, url, offline=False, **options):
    """A persistent context on the profile directory `profile` (as an installed app has: the suite's Playwright, a
    browser of its own), signed in as `url`'s session, and its page; `offline` from its start (a worker may send
    what waits the moment the browser starts)."""
    origin = origin_of(url)
    context = browser.browser_type.launch_persistent_context(profile, executable_path=CHROMIUM, args=["--no-sandbox"], viewport=PHONE,
                                                             offline=offline, **options)
    context.add_cookies([{"name": "ock_session", "value": SESSIONS[origin], "url": origin}])
    page = context.pages[0] if context.pages else context.new_page()
    return context, page


def test_the_app_installs_and_its_worker_keeps_the_shell(browser):
    with tempfile.TemporaryDirectory() as data, served(data) as url, tempfile.TemporaryDirectory() as profile:
        base = record_base(url)
        origin = origin_of(url)
        context, page = installed_app(browser, profile, url)
        try:
            page.goto(base + "/care")
            # The worker installs (its shell cached) on the first visit, and controls the page from the next.
            assert settled(page, "navigator.serviceWorker.ready.then(registration => registration.active.state)") in ("activating", "activated")
            page.reload()
            assert page.evaluate("navigator.serviceWorker.controller !== null")
            assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == origin + "/service-worker.js"

            cdp = context.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"] == origin + "/manifest.webmanifest" and manifest["errors"] == []

            # Each icon of the manifest loads, is a PNG of its size, and is drawn as its purpose says.
            icons = page.evaluate("fetch('/manifest.webmanifest').then(response => response.json())")["icons"]
            assert {(icon["sizes"], icon["purpose"]) for icon in icons} == {
                ("192x192", "any"), ("192x192", "maskable"), ("512x512", "any"), ("512x512", "maskable")}
            for icon in icons:
                response = page.request.get(origin + icon["src"])
                assert response.status == 200 and response.headers["content-type"] == "image/png"
                width, height, pixel = png_pixels(response.body())
                size = int(icon["sizes"].split("x")[0])
                assert (width, height) == (size, size)
                assert pixel(size // 2, size // 2) == (255, 255, 255, 255)
                corner = pixel(0, 0)
                assert corner[3] == (255 if icon["purpose"] == "maskable" else 0), (icon, corner)

            # The shell is cached under the server's version, and every file of it is there.
            names = page.evaluate("caches.keys()")
            shells = [name for name in names if name.startswith("ock-shell-")]
            assert len(shells) == 1, names
            kept = page.evaluate("caches.open(%r).then(cache => cache.keys()).then(keys => keys.map(key => new URL(key.url).pathname))"
                                 % shells[0])
            for path in ["/assets/app.js", "/assets/opencarekit.css", "/assets/opencarekit.js", "/assets/icon-512.png"]:
                assert path in kept, kept

            # Chromium offers to install the app (its `beforeinstallprompt`), and the page then shows its button.
            page.reload()
            button = page.locator("[data-ock-install] button")
            button.wait_for(state="visible", timeout=15000)
            assert button.bounding_box()["height"] >= 44
        finally:
            context.close()


def test_a_new_version_is_offered_and_its_scripts_run_after_the_reload(browser):
    """A new server version while the installed app's page is open: its worker installs and waits, the page offers
    the reload, and after it the page runs the new version's scripts (the old shell is gone)."""
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as profile:
        process, url = serve_on(["--data", data], args=["--shell-revision-for-tests", "one"])
        port = int(url.rsplit(":", 1)[1])
        try:
            base = record_base(url)
            context, page = installed_app(browser, profile, url)
            try:
                page.goto(base + "/care")
                settled(page, "navigator.serviceWorker.ready.then(() => true)")
                page.reload()
                assert page.evaluate("navigator.serviceWorker.controller !== null")
                assert "shell revision one" in page.evaluate("fetch('/assets/app.js').then(response => response.text())")
                assert page.locator("[data-ock-update]").is_hidden()

                # The new version on the same address (the records and sessions are the same).
                process.send_signal(signal.SIGTERM)
                assert process.wait(timeout=10) == 0
                process, _ = serve_on(["--data", data], port=port, args=["--shell-revision-for-tests", "two"])
                # The browser looks for a new worker at its next navigation; the page asks now.
                page.evaluate("navigator.serviceWorker.getRegistration().then(registration => registration.update())")
                banner = page.locator("[data-ock-update]")
                banner.wait_for(state="visible", timeout=15000)
                assert banner.locator('[role="status"]').text_content() == "A new version of the app is ready."
                # The old scripts still run until the reload.
                assert "shell revision one" in page.evaluate("fetch('/assets/app.js').then(response => response.text())")
                with page.expect_navigation():
                    banner.locator("button").click()
                page.wait_for_load_state("load")
                assert "shell revision two" in page.evaluate("fetch('/assets/app.js').then(response => response.text())")
                shells = [name for name in page.evaluate("caches.keys()") if name.startswith("ock-shell-")]
                assert len(shells) == 1, shells
                assert page.locator("[data-ock-update]").is_hidden()
            finally:
                context.close()
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=10) == 0
