"""Running `opencarekit serve --demo` for the browser tests, and walking its onboarding over plain HTTP for tests
that are about the care feed rather than about onboarding."""
import contextlib
import http.cookiejar
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import urllib.parse
import urllib.request

from conftest import ROOT, SESSIONS

BINARY = os.environ.get("OPENCAREKIT_BIN", str(ROOT / ".build" / "debug" / "opencarekit"))


# The moment the app's clock starts at (`serve --now`), when set: the suite can run as on another day, for example
# OPENCAREKIT_TEST_NOW=2027-03-14T09:30:00Z (a Sunday, on the day clocks change in New York).
NOW = os.environ.get("OPENCAREKIT_TEST_NOW")
ZONE = os.environ.get("OPENCAREKIT_TEST_ZONE")
# What `opencarekit store` is given so that its today, and the events still to come, are the server's.
TOOL_CLOCK = (["--now", NOW] if NOW else []) + (["--zone", ZONE] if ZONE else [])


def serve(directory, port=0, args=()):
    """Starts the demo app on `port` (0: a free one); returns the process and its URL."""
    return serve_on(["--data", directory], port, args)


# The log (standard error) of every app the tests served, in JSON lines at the debug level unless a test says
# otherwise: the suite's end scans them all for patient data (conftest's `logs_hold_no_patient_data`).
LOGS = []


def serve_on(data, port=0, args=()):
    """Starts the demo app on `port` (0: a free one) with its records where `data` says (`--data DIR` or
    `--database URL`); returns the process (its log's path in `log_path`) and its URL."""
    clock = (["--now", NOW] if NOW and "--now" not in args else []) + (["--zone", ZONE] if ZONE else [])
    logging = [] if "--log-level" in args else ["--log-level", "debug", "--log-format", "json"]
    # A file, not a pipe: a pipe nobody reads fills up and stops the server mid-request.
    log = tempfile.NamedTemporaryFile(prefix="opencarekit-serve-", suffix=".log", delete=False)
    LOGS.append(log.name)
    process = subprocess.Popen([BINARY, "serve", "--demo", *data, "--port", str(port), *clock, *logging, *args],
                               stdout=subprocess.PIPE, stderr=log, text=True)
    log.close()
    process.log_path = log.name
    for line in process.stdout:
        if "running at" in line:
            return process, next(word for word in line.split() if word.startswith("http://")).rstrip("/")
    process.wait(timeout=10)
    raise AssertionError(pathlib.Path(log.name).read_text())


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
            log.append(pathlib.Path(process.log_path).read_text())


DEMO_PATIENT = "alex@example.org"
DEMO_CAREGIVER = "sam@example.org"
DEMO_CLINICIAN = "jordan.lee@example.org"


def origin_of(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def cookie(name, value, origin):
    host = urllib.parse.urlsplit(origin).hostname
    return http.cookiejar.Cookie(0, name, value, None, False, host, False, False, "/", True, False, None, False, None, None, {})


def opener_for(url):
    """A urllib opener with a cookie jar holding the session signed in on `url`'s server (if any)."""
    jar = http.cookiejar.CookieJar()
    origin = origin_of(url)
    if origin in SESSIONS:
        jar.set_cookie(cookie("ock_session", SESSIONS[origin], origin))
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)), jar


def urlopen(url, data=None, headers=None):
    """urllib's urlopen, signed in as the session of `url`'s server. A body that is not a form goes with a CSRF token
    in the `X-CSRF-Token` header and the matching cookie, as the app's own scripts send it (a record's routes ask for
    it on every write with a session)."""
    import secrets
    opener, jar = opener_for(url)
    headers = dict(headers or {})
    if data is not None and headers.get("Content-Type", "") != "application/x-www-form-urlencoded" and "X-CSRF-Token" not in headers:
        token = secrets.token_hex(32)
        jar.set_cookie(cookie("ock_csrf", token, origin_of(url)))
        headers["X-CSRF-Token"] = token
    return opener.open(urllib.request.Request(url, data=data, headers=headers))


def sign_in(url, email=DEMO_PATIENT, then="/"):
    """Signs in on the server at `url` in one click as a demo person (as the sign-in page offers on loopback); the
    session is then used by every page `conftest.open_page` opens and every `urlopen` on that server. Returns the
    address the person lands on (the patient's record's Care page for the demo patient)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(url + "/sign-in").read().decode()
    token = re.search(r'name="csrf" type="hidden" value="([0-9a-f]{64})"', page).group(1)
    response = opener.open(url + "/sign-in/demo", urllib.parse.urlencode({"csrf": token, "email": email, "next": then}).encode())
    SESSIONS[origin_of(url)] = next(c.value for c in jar if c.name == "ock_session")
    return response.geturl()


def record_base(url, email=DEMO_PATIENT):
    """Signs in as the demo patient and returns her record's base address (…/records/ID)."""
    landed = sign_in(url, email)
    assert "/records/" in landed, landed
    return landed.rsplit("/care", 1)[0]


def hidden_fields(form):
    return dict(re.findall(r'<input name="([^"]+)" type="hidden" value="([^"]*)"', form))


def onboard(url, name="Alex Rivera"):
    """Completes the demo onboarding of the record at `url` (its base address), signed in, as a browser without
    JavaScript would: the typed name signs."""
    opener, _ = opener_for(url)
    care = opener.open(url + "/care").read().decode()
    start = re.search(r'<form action="[^"]*/surveys/start"[^>]*>(.*?)</form>', care, re.S)
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


# CareKit's JSON dates count seconds from 2001-01-01.
CAREKIT_EPOCH = 978307200


def complete_event(base, event, values=None, notes=None):
    """Records `event` (as the JSON API lists it) done through the JSON API of the record at `base`, as a phone app
    would: with `values` (CareKit's outcome values; by default one `true`) and `notes` (CareKit's notes), if given."""
    import datetime
    import json
    import uuid
    now = datetime.datetime.now(datetime.timezone.utc).timestamp() - CAREKIT_EPOCH
    outcome = {"id": str(uuid.uuid4()), "uuid": str(uuid.uuid4()), "previousVersionUUIDs": [], "nextVersionUUIDs": [],
               "taskUUID": event["task"]["uuid"], "taskOccurrenceIndex": event["scheduleEvent"]["occurrence"],
               "values": values or [{"type": "boolean", "createdDate": now, "value": True}],
               "effectiveDate": now, "createdDate": now, "timezone": {"identifier": "UTC"}}
    if notes:
        outcome["notes"] = notes
    with urlopen(base + "/api/v1/outcomes", data=json.dumps(outcome).encode(), headers={"Content-Type": "application/json"}) as response:
        assert response.status == 201
