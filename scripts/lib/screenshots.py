"""Makes the README's two screenshots from the demo (run by scripts/screenshots, which documents it):
`patient.png`, Alex Rivera's care feed on a phone, and `clinician.png`, Dr. Jordan Lee's home (her list of patients) on a desktop.

    screenshots.py --binary PATH --output DIR

Starts `opencarekit serve --demo` on loopback (a free port, a temporary data directory) with its clock pinned to
`NOW` in `ZONE` (`serve --now`, the option the browser tests' runs at other dates use), pins the browser's clock,
zone and language the same way, signs each person in with the sign-in page's one-click demo sign-in, checks that
the page shows what the picture is of, and saves it. Any failure ends it with a message and exit status 1."""
import argparse
import os
import pathlib
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

# The moment the pictures are taken at: a Tuesday morning in New York (9:30 local time). The demo plan starts on
# that day and the demo clinic's other patients have the weeks of history before it (seeded: the same every run).
NOW = "2026-05-12T13:30:00Z"
ZONE = "America/New_York"
LOCALE = "en-US"
CHROMIUM = os.environ.get("OPENCAREKIT_CHROMIUM", "/usr/bin/chromium")
PATIENT = "alex@example.org"
CLINICIAN = "jordan.lee@example.org"
# The phone's picture is its viewport at device scale 2 (780×1688 pixels); the desktop's at scale 1 (1280×800).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}
# How long to wait for the server to start, and for anything on a page (milliseconds).
SERVER_START_SECONDS = 30
PAGE_TIMEOUT = 15_000


class Failure(Exception):
    """What went wrong, for the message the script ends with."""


class Server:
    """`opencarekit serve --demo` in `data`, its log (standard error) in `log_path`; `url` once it runs."""

    def __init__(self, binary, data, log_path):
        self.log_path = log_path
        env = dict(os.environ, TZ=ZONE)
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                [binary, "serve", "--demo", "--data", data, "--host", "127.0.0.1", "--port", "0",
                 "--now", NOW, "--zone", ZONE, "--log-level", "warning"],
                stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, text=True, env=env)
        # Standard output is read to its end by a thread (a pipe nobody reads fills up and stops the server).
        lines = queue.Queue()
        threading.Thread(target=self._read, args=(lines,), daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=SERVER_START_SECONDS)
            except queue.Empty:
                self.stop()
                raise Failure(f"the server did not start within {SERVER_START_SECONDS} s{self.log_tail()}")
            if line is None:
                status = self.process.wait()
                raise Failure(f"the server exited with status {status} before it started{self.log_tail()}")
            if "running at" in line:
                self.url = next(word for word in line.split() if word.startswith("http://")).rstrip("/")
                return

    def _read(self, lines):
        for line in self.process.stdout:
            lines.put(line)
        lines.put(None)

    def log_tail(self):
        text = pathlib.Path(self.log_path).read_text(errors="replace").strip() if os.path.exists(self.log_path) else ""
        return ":\n" + "\n".join(text.splitlines()[-20:]) if text else ""

    def stop(self):
        """Stops the server (SIGTERM, then after 10 s SIGKILL); returns its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def new_page(browser, options):
    """A page in a new context with the pinned zone, language and clock, collecting the page's errors."""
    context = browser.new_context(locale=LOCALE, timezone_id=ZONE, **options)
    context.set_default_timeout(PAGE_TIMEOUT)
    # The browser's Date says the server's moment too (timers keep running), so that what the page's scripts write
    # from the clock matches the server's day.
    context.clock.set_fixed_time(NOW)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return context, page, errors


def sign_in(page, url, email):
    """Signs in as `email` with the sign-in page's one-click demo sign-in (offered on loopback)."""
    page.goto(url + "/sign-in", wait_until="load")
    button = page.locator(f'form[action="/sign-in/demo"] button:text-is("Sign in as {email}")')
    if button.count() != 1:
        raise Failure(f"the sign-in page offers no one-click sign-in as {email}")
    with page.expect_navigation(wait_until="load"):
        button.click()
    if "/sign-in" in page.url:
        raise Failure(f"signing in as {email} did not work (still on {page.url})")


def onboard(page, name="Alex Rivera"):
    """Completes the demo's onboarding survey from the Care page, as the browser tests do (test_surveys): the typed
    name signs the consent, and notifications are skipped."""
    page.click("#task-onboarding .ock-survey-start")
    for _ in range(12):
        page.wait_for_selector(".ock-survey-progress")
        step = page.get_attribute('input[name="step"]', "value")
        if step == "signature":
            page.fill("#ock-full-name", name)
            page.check("#ock-agree")
        button = 'button[value="skip"]' if step == "notifications" else ".ock-survey-next"
        page.click(button)
        # The next step, or the Care page's feed once the survey is done.
        page.wait_for_selector(f'input[name="step"]:not([value="{step}"]), #care-cards #task-ibuprofen', state="attached")
        if page.locator("#care-cards #task-ibuprofen").count():
            return
    raise Failure("the onboarding survey did not end after 12 steps")


def settle(page):
    """Waits until the page is as a person would see it: loaded, its live connection open, its fonts and images in,
    no pointer over it."""
    page.wait_for_load_state("load")
    page.wait_for_selector('html[data-ock-live="open"]')
    page.wait_for_function("""() => document.fonts.status === 'loaded'
        && Array.from(document.images).every(image => image.complete)""")
    page.mouse.move(0, 0)


def patient_picture(browser, url, path):
    context, page, errors = new_page(browser, PHONE)
    try:
        sign_in(page, url, PATIENT)
        if "/records/" not in page.url:
            raise Failure(f"the demo patient landed on {page.url}, not on her record")
        care = page.url.split("/care")[0] + "/care"
        page.wait_for_selector("#care-cards")
        if page.locator("#task-onboarding").count():
            onboard(page)
        page.goto(care, wait_until="load")
        settle(page)
        cards = page.locator("#care-cards > *")
        if page.locator("#task-onboarding").count() or cards.count() < 5 or not page.locator("#task-ibuprofen").is_visible():
            raise Failure(f"the patient's Care page does not show the demo plan's cards ({cards.count()} cards)")
        page.screenshot(path=str(path), animations="disabled")
        if errors:
            raise Failure("the patient's pages reported errors: " + "; ".join(errors[:5]))
    finally:
        context.close()


def clinician_picture(browser, url, path):
    context, page, errors = new_page(browser, DESKTOP)
    try:
        sign_in(page, url, CLINICIAN)
        if page.url != url + "/":
            raise Failure(f"the demo clinician landed on {page.url}, not on her home")
        settle(page)
        patients = page.locator(".ock-patient")
        names = [patients.nth(index).locator(".ock-patient-name").text_content() for index in range(patients.count())]
        if len(names) < 2 or "Alex Rivera" not in names:
            raise Failure(f"the clinician's home does not list the demo's patients (it lists {names})")
        # The triage queue comes first on the home; the picture is of the list of patients below it, scrolled to the
        # top of the window.
        page.evaluate("""() => window.scrollTo(0, document.querySelector('#patients-summary').getBoundingClientRect().top
            + window.scrollY - 16)""")
        page.wait_for_function("""() => Math.abs(document.querySelector('#patients-summary').getBoundingClientRect().top - 16) < 1
            || window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1""")
        if not patients.first.is_visible() or patients.first.bounding_box()["y"] > DESKTOP["viewport"]["height"] - 50:
            raise Failure("the clinician's list of patients is not in the window")
        page.screenshot(path=str(path), animations="disabled")
        if errors:
            raise Failure("the clinician's pages reported errors: " + "; ".join(errors[:5]))
    finally:
        context.close()


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--binary", required=True, help="the opencarekit executable")
    arguments.add_argument("--output", required=True, help="the directory the two PNGs go to")
    options = arguments.parse_args()
    output = pathlib.Path(options.output)
    if not os.access(options.binary, os.X_OK):
        raise Failure(f"{options.binary} is not an executable")
    if not os.access(CHROMIUM, os.X_OK):
        raise Failure(f"{CHROMIUM} is not an executable (install Debian's chromium)")
    output.mkdir(parents=True, exist_ok=True)
    directory = tempfile.mkdtemp(prefix="opencarekit-screenshots-")
    # Written under temporary names and moved into place once both are made: a failed run leaves the old ones.
    made = {name: output / f".{name}.partial.png" for name in ("patient", "clinician")}
    server = None
    try:
        server = Server(options.binary, os.path.join(directory, "data"), os.path.join(directory, "serve.log"))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                patient_picture(browser, server.url, made["patient"])
                clinician_picture(browser, server.url, made["clinician"])
            finally:
                browser.close()
        if server.process.poll() is not None:
            raise Failure(f"the server stopped with status {server.process.returncode}{server.log_tail()}")
        status = server.stop()
        if status != 0:
            raise Failure(f"the server exited with status {status} when stopped{server.log_tail()}")
        for name, path in made.items():
            path.replace(output / f"{name}.png")
            print(output / f"{name}.png")
    except PlaywrightError as error:
        raise Failure(f"the browser: {error.message}{server.log_tail() if server else ''}") from error
    finally:
        if server:
            server.stop()
        for path in made.values():
            path.unlink(missing_ok=True)
        shutil.rmtree(directory, ignore_errors=True)

if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        print(f"scripts/screenshots: {failure}", file=sys.stderr)
        sys.exit(1)
