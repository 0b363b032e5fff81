"""Operating the app: a whole session's log, at the trace level in JSON lines, holds one line per request naming
the route's pattern and the record's pseudonym, and nothing a person wrote or is; `/metrics` counts what happened
and answers only the operator."""
import datetime
import hashlib
import http.cookiejar
import json
import os
import re
import sqlite3
import subprocess
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest

from careapp import BINARY, CAREKIT_EPOCH, complete_event, onboard, record_base, serve, serve_on, urlopen
from conftest import opened_page, patient_data_in, psql
from test_care_app import server_day

TOKEN = "operator-token-for-the-tests"
# What this test writes: a name that signs the consent, a value, a note, and an email that fails to sign in.
WRITTEN = ["Zelda Quixote", "Quixote", "7373.25", "kneecap grinding at night", "nobody-qq@example.org"]


def test_a_whole_session_logs_every_request_by_route_and_no_patient_data(browser):
    with tempfile.TemporaryDirectory() as directory:
        process, url = serve(directory, args=["--log-level", "trace", "--log-format", "json", "--metrics-token", TOKEN])
        try:
            base = record_base(url)
            record = base.rsplit("/", 1)[1]
            onboard(base, name="Zelda Quixote")
            events = json.load(urlopen(base + "/api/v1/events?taskID=hydration", headers={"Accept": "application/json"}))
            now = datetime.datetime.now(datetime.timezone.utc).timestamp() - CAREKIT_EPOCH
            complete_event(base, events[0], values=[{"type": "double", "createdDate": now, "value": 7373.25, "units": "mL"}],
                           notes=[{"author": "Zelda", "title": "Knee", "content": "kneecap grinding at night",
                                   "uuid": "5E2A54E4-8C1B-4C33-9E5B-4E0B6F3F0A11", "createdDate": now}])
            # The pages a person opens, with their scripts and live streams; an export and a report.
            for path in ["/care", "/insights", "/contacts", "/reports"]:
                with opened_page(browser, base + path) as (page, errors):
                    assert not errors, errors
            assert urlopen(base + "/fhir/export").status == 200
            assert b"7373.25" in urlopen(base + "/reports/report.csv").read()
            # A wrong password for an email nobody has.
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            token = re.search(r'name="csrf" type="hidden" value="([0-9a-f]{64})"', opener.open(url + "/sign-in").read().decode()).group(1)
            with pytest.raises(urllib.error.HTTPError) as refused:
                opener.open(url + "/sign-in", urllib.parse.urlencode({"csrf": token, "email": "nobody-qq@example.org",
                                                                      "password": "not the password"}).encode())
            assert refused.value.code == 401

            # The operator's metrics: with the token (from here too), and they count what happened.
            metrics = urlopen(url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).read().decode()
            assert 'opencarekit_http_requests_total{route="/records/{record}/api/v1/outcomes",method="POST",status="201"} 1' in metrics
            assert 'opencarekit_store_call_duration_seconds_count{kind="write"}' in metrics
            assert "opencarekit_sign_in_failures_total 1" in metrics
            assert record not in metrics
        finally:
            process.terminate()
            assert process.wait(timeout=10) == 0

        lines = [json.loads(line) for line in open(process.log_path) if line.startswith("{")]
        requests = [line for line in lines if line["message"] == "request"]
        routes = {line["route"] for line in requests}
        assert {"/records/{record}/care", "/records/{record}/insights", "/records/{record}/api/v1/outcomes",
                "/records/{record}/fhir/export", "/records/{record}/reports/report.csv", "/sign-in"} <= routes, routes
        assert all(line["hb.request.id"] and line["status"].isdigit() and float(line["duration_ms"]) >= 0 for line in requests)
        # The record appears by its pseudonym, the same on every line, never by its id.
        pseudonyms = {line.get("record") for line in requests if "{record}" in line["route"]}
        assert len(pseudonyms) == 1 and None not in pseudonyms
        assert not patient_data_in(process.log_path, extra=[*WRITTEN, record])


def outcome_for(event, value):
    now = datetime.datetime.now(datetime.timezone.utc).timestamp() - CAREKIT_EPOCH
    return {"id": str(uuid.uuid4()), "uuid": str(uuid.uuid4()), "previousVersionUUIDs": [], "nextVersionUUIDs": [],
            "taskUUID": event["task"]["uuid"], "taskOccurrenceIndex": event["scheduleEvent"]["occurrence"],
            "values": [{"type": "double", "createdDate": now, "value": value}],
            "effectiveDate": now, "createdDate": now, "timezone": {"identifier": "UTC"}}


def open_events(base, days):
    """Events of the record at `base` without an outcome, over the `days` days to today (later ones take none)."""
    today = datetime.date.fromisoformat(server_day(base))
    found = []
    for offset in range(days):
        day = (today - datetime.timedelta(days=offset)).isoformat()
        found += [event for event in json.load(urlopen(f"{base}/api/v1/events?date={day}", headers={"Accept": "application/json"}))
                  if not event.get("outcome") and event["task"]["id"] not in ("onboarding", "check-in")]
    return found


def stored_outcomes(base):
    """The uuids and values of every outcome of the record at `base`, through the JSON API."""
    found, offset = {}, 0
    while True:
        page = json.load(urlopen(f"{base}/api/v1/outcomes?limit=500&offset={offset}", headers={"Accept": "application/json"}))
        found.update({outcome["uuid"]: outcome["values"] for outcome in page})
        if len(page) < 500:
            return found
        offset += 500


def test_a_backup_while_the_server_writes_restores_every_acknowledged_write():
    with tempfile.TemporaryDirectory() as directory:
        data, backup, restored = (os.path.join(directory, name) for name in ("data", "backup", "restored"))
        # The demo plan starts on the first day; three weeks later its past events take outcomes.
        start = datetime.datetime.now(datetime.timezone.utc).replace(hour=12, minute=0, second=0, microsecond=0)
        process, url = serve(data, args=["--now", start.strftime("%Y-%m-%dT%H:%M:%SZ")])
        try:
            onboard(record_base(url))
        finally:
            process.terminate()
            assert process.wait(timeout=10) == 0
        later = start + datetime.timedelta(days=21)
        process, url = serve(data, args=["--now", later.strftime("%Y-%m-%dT%H:%M:%SZ")])
        try:
            base = record_base(url)
            events = open_events(base, 21)
            assert len(events) >= 100, len(events)
            acknowledged, started = [], threading.Event()

            def write():
                # One outcome after another, each acknowledged (201) before the next; the backup begins after 20.
                for index, event in enumerate(events):
                    outcome = outcome_for(event, index)
                    with urlopen(base + "/api/v1/outcomes", data=json.dumps(outcome).encode(),
                                 headers={"Content-Type": "application/json"}) as response:
                        assert response.status == 201
                        # The store gives each version its own uuid.
                        acknowledged.append(json.load(response)["uuid"])
                    if len(acknowledged) == 20:
                        started.set()

            writer = threading.Thread(target=write)
            writer.start()
            assert started.wait(timeout=60)
            before = list(acknowledged)
            result = subprocess.run([BINARY, "backup", "--data", data, "--to", backup], capture_output=True, text=True, timeout=120)
            during = len(acknowledged) - len(before)
            writer.join(timeout=120)
            assert result.returncode == 0, result.stderr
            assert result.stdout.startswith("Backed up ")
            assert len(acknowledged) == len(events)
        finally:
            process.terminate()
            assert process.wait(timeout=10) == 0
        print(f"{len(before)} writes acknowledged before the backup began, {during} while it ran")

        manifest = json.load(open(os.path.join(backup, "manifest.json")))
        assert manifest["format"] == "opencarekit-backup" and manifest["files"][0]["path"] == "directory.sqlite"
        for entry in manifest["files"]:
            path = os.path.join(backup, entry["path"])
            assert hashlib.sha256(open(path, "rb").read()).hexdigest() == entry["sha256"]
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]

        restore = subprocess.run([BINARY, "restore", "--from", backup, "--data", restored], capture_output=True, text=True, timeout=120)
        assert restore.returncode == 0, restore.stderr
        # Restoring again over what is there now is refused, in one line.
        again = subprocess.run([BINARY, "restore", "--from", backup, "--data", restored], capture_output=True, text=True, timeout=120)
        assert again.returncode != 0 and again.stderr.count("\n") == 1 and "is not empty" in again.stderr, again.stderr

        # A backup holds no secrets key: without the original's, the restored directory's sealed secrets do not
        # open, and serve refuses to start, saying so in one line; with it, it serves.
        refused = subprocess.run([BINARY, "serve", "--data", restored, "--port", "0"], capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0 and "secrets key does not open" in refused.stderr, refused.stderr
        os.remove(os.path.join(restored, "secrets.key"))
        process, url = serve(restored, args=["--secrets-key-file", os.path.join(data, "secrets.key")])
        try:
            restored_base = record_base(url)
            assert restored_base.rsplit("/", 1)[1] == base.rsplit("/", 1)[1]
            kept = stored_outcomes(restored_base)
        finally:
            process.terminate()
            assert process.wait(timeout=10) == 0
        missing = [uuid for uuid in before if uuid not in kept]
        assert not missing, f"{len(missing)} acknowledged writes lost"


def test_a_postgresql_dump_restores_into_a_new_database(database_url):
    """The documented pg_dump / pg_restore round trip (the OpenCareKitServer documentation's article Run a clinic server,
    "Backups and restore"), run while the server writes."""
    tools = os.path.dirname(psql())
    superuser = re.sub(r"^postgres://[^@]+@", "postgres://ock@", database_url)
    process, url = serve_on(["--database", database_url], args=["--demo-patients", "2"])
    try:
        base = record_base(url)
        onboard(base)
        for index, event in enumerate(open_events(base, 2)[:10]):
            with urlopen(base + "/api/v1/outcomes", data=json.dumps(outcome_for(event, index)).encode(),
                         headers={"Content-Type": "application/json"}) as response:
                assert response.status == 201
        before = stored_outcomes(base)
        with tempfile.TemporaryDirectory() as directory:
            dump = os.path.join(directory, "care.dump")
            # As the backup role of Run a clinic server (RunAClinicServer.md), which bypasses row-level security and can
            # only read (the app's own role, bound by its tables' policies, could dump nothing).
            role = "care_backup_" + uuid.uuid4().hex[:8]
            subprocess.run([psql(), superuser, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE ROLE {role} LOGIN BYPASSRLS",
                            "-c", f"GRANT pg_read_all_data TO {role}"], check=True)
            backup_url = re.sub(r"^postgres://[^@]+@", f"postgres://{role}@", database_url)
            subprocess.run([os.path.join(tools, "pg_dump"), "--format=custom", "--file", dump, backup_url], check=True, timeout=120)
            copy = "restored_" + uuid.uuid4().hex[:12]
            subprocess.run([psql(), superuser, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {copy} OWNER opencarekit"], check=True)
            subprocess.run([os.path.join(tools, "pg_restore"), "--exit-on-error", "--dbname", superuser.rsplit("/", 1)[0] + "/" + copy, dump],
                           check=True, timeout=120)
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0
    restored_url = database_url.rsplit("/", 1)[0] + "/" + copy
    verified = subprocess.run([BINARY, "audit", "verify", "--database", restored_url], capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0 and "intact" in verified.stdout, verified.stderr
    process, url = serve_on(["--database", restored_url], args=["--demo-patients", "2"])
    try:
        restored_base = record_base(url)
        assert restored_base.rsplit("/", 1)[1] == base.rsplit("/", 1)[1]
        assert stored_outcomes(restored_base) == before
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0
