"""Operating the app: a whole session's log, at the trace level in JSON lines, holds one line per request naming
the route's pattern and the record's pseudonym, and nothing a person wrote or is; `/metrics` counts what happened
and answers only the operator."""
import datetime
import http.cookiejar
import json
import re
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pytest

from careapp import CAREKIT_EPOCH, complete_event, onboard, record_base, serve, sign_in, urlopen
from conftest import opened_page, patient_data_in

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
