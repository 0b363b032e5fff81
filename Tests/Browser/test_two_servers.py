"""Two app servers on one PostgreSQL database behind nginx (scripts/nginx-front), driven by Chromium: one is killed
while pages are open, and the pages carry on through the other."""
import glob
import os
import subprocess
import time
import urllib.request
import uuid

import pytest

from careapp import BINARY, TOOL_CLOCK, onboard, record_base, serve_on
from conftest import ROOT, open_page, psql
from test_care_app import ENOXAPARIN, server_day, wait_live


def live_streams(port):
    """How many connections are open to the app server on `port`: with nginx keeping no idle connections
    (NGINX_FRONT_KEEPALIVE=0), once pages have loaded these are their live streams."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    count += 1
    return count


def settled_streams(ports, pages):
    """The open connections to each app server once their total is the number of pages: a page's other requests (its
    icon, say) can still be in flight when its stream is live, and would be counted as a stream."""
    deadline = time.monotonic() + 5
    while True:
        counts = [live_streams(port) for port in ports]
        if sum(counts) == pages:
            return counts
        assert time.monotonic() < deadline, f"{counts} connections open for {pages} pages"


def test_pages_on_a_killed_app_server_reconnect_through_the_other_and_catch_up(browser, database_url):
    # The first seeds the demo; the second finds it there.
    first, first_url = serve_on(["--database", database_url], args=["--demo-patients", "0"])
    second, second_url = serve_on(["--database", database_url], args=["--demo-patients", "0"])
    ports = [int(url.rsplit(":", 1)[1]) for url in (first_url, second_url)]
    lines = subprocess.run([str(ROOT / "scripts" / "nginx-front"), "start", *map(str, ports)], check=True, capture_output=True,
                           text=True, env={**os.environ, "NGINX_FRONT_KEEPALIVE": "0", "NGINX_FRONT_ACCESS_LOG": "1"}).stdout.split()
    nginx, front = lines[0], lines[-1]
    contexts = []
    try:
        # Onboarding through nginx: its steps go to both servers in turn, and the survey carries on (it is kept in
        # the database, not by the server that started it).
        onboard(record_base(front))
        with open(os.path.join(nginx, "access.log")) as log:
            steps = [line.split() for line in log if "/surveys/" in line]
        # (A step's post and the page it leads to go to different servers.)
        answered_by = {fields[3].rsplit(":", 1)[1] for fields in steps if fields[2] in ("200", "303")}
        assert answered_by == {str(port) for port in ports}, steps
        url = record_base(front)
        record = url.rsplit("/", 1)[1]
        # nginx sends each request to the next server: pages are opened until the first server holds live streams
        # (and the second too, so both kinds of page are tested).
        pages = []
        for _ in range(12):
            context, page, _ = open_page(browser, url + "/care")
            contexts.append(context)
            wait_live(page)
            pages.append(page)
            if all(settled_streams(ports, len(pages))):
                break
            # A page makes the same number of requests each time: one more moves the next page's stream along.
            urllib.request.urlopen(front + "/healthz").read()
        assert all(settled_streams(ports, len(pages)))
        # A dose marked on one page reaches every page, those of the other server through LISTEN/NOTIFY.
        pages[0].click(ENOXAPARIN)
        for page in pages:
            page.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=5000)

        first.kill()
        first.wait(timeout=10)
        # Undone at once, through nginx (to the remaining server), while the killed server's pages are cut off:
        # those reconnect through nginx to the other server and catch up.
        pages[0].click(ENOXAPARIN)
        for page in pages:
            page.wait_for_selector(ENOXAPARIN + '[aria-pressed="false"]', timeout=10000)
            wait_live(page)
        assert settled_streams(ports[1:], len(pages)) == [len(pages)]

        # Logged by the command line on the database: every page shows it live.
        zone = TOOL_CLOCK
        logged = subprocess.run([BINARY, "store", "log", "enoxaparin", "--record", record, "--database", database_url,
                                 "--date", server_day(url), *zone], capture_output=True, text=True)
        assert logged.returncode == 0, logged.stderr
        for page in pages:
            page.wait_for_selector(ENOXAPARIN + '[aria-pressed="true"]', timeout=5000)
    finally:
        for context in contexts:
            context.close()
        subprocess.run([str(ROOT / "scripts" / "nginx-front"), "stop", nginx], check=True)
        for process in (first, second):
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
