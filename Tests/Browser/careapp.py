"""Running `opencarekit serve --demo` for the browser tests, and walking its onboarding over plain HTTP for tests
that are about the care feed rather than about onboarding."""
import contextlib
import http.cookiejar
import os
import re
import signal
import subprocess
import urllib.parse
import urllib.request

from conftest import ROOT

BINARY = os.environ.get("OPENCAREKIT_BIN", str(ROOT / ".build" / "debug" / "opencarekit"))


# The moment the app's clock starts at (`serve --now`), when set: the suite can run as on another day, for example
# OPENCAREKIT_TEST_NOW=2027-03-14T09:30:00Z (a Sunday, on the day clocks change in New York).
NOW = os.environ.get("OPENCAREKIT_TEST_NOW")
ZONE = os.environ.get("OPENCAREKIT_TEST_ZONE")


def serve(directory, port=0, args=()):
    """Starts the demo app on `port` (0: a free one); returns the process and its URL."""
    clock = (["--now", NOW] if NOW else []) + (["--zone", ZONE] if ZONE else [])
    process = subprocess.Popen([BINARY, "serve", "--demo", "--data", directory, "--port", str(port), *clock, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in process.stdout:
        if "running at" in line:
            return process, next(word for word in line.split() if word.startswith("http://")).rstrip("/")
    raise AssertionError(process.stderr.read())


@contextlib.contextmanager
def served(directory, args=(), log=None):
    """`serve` whose process is stopped (and must exit cleanly) when the block ends; its standard error is appended
    to the list `log`, when given."""
    process, url = serve(directory, args=args)
    try:
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        if log is not None:
            log.append(process.stderr.read())


def hidden_fields(form):
    return dict(re.findall(r'<input name="([^"]+)" type="hidden" value="([^"]*)"', form))


def onboard(url, name="Alex Rivera"):
    """Completes the demo onboarding as a browser without JavaScript would: the typed name signs."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    care = opener.open(url + "/care").read().decode()
    start = re.search(r'<form action="/surveys/start"[^>]*>(.*?)</form>', care, re.S)
    assert start, "the onboarding card has no Start survey form"
    response = opener.open(url + "/surveys/start", urllib.parse.urlencode(hidden_fields(start.group(1))).encode())
    survey = response.geturl()
    answers = {"consent-review": {"version": "1.0"}, "signature": {"fullName": name, "agree": "true"}}
    while "/surveys/" in survey:
        page = response.read().decode()
        fields = hidden_fields(page)
        step = fields["step"]
        fields.update(answers.get(step, {}))
        fields["action"] = "skip" if 'value="skip"' in page else "next"
        response = opener.open(survey, urllib.parse.urlencode(fields).encode())
        assert response.status == 200
        survey = response.geturl()
    assert "/care" in survey
