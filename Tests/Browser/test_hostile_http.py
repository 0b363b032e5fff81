"""What the hostile probe of `serve` found at the socket level, against the real process: slow and idle clients are
timed out while normal requests are still served, a connection cap answers 503, live streams are bounded per client
and freed as soon as the client goes, the request line and Host are checked, HEAD answers like GET, and off
loopback a public URL is required and announced."""
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

from careapp import BINARY, record_base, served
from conftest import ROOT, SESSIONS

sys.path.insert(0, str(ROOT / "scripts" / "python"))
import slow_clients  # noqa: E402

LIMITS = ["--max-connections", "24", "--header-timeout", "1", "--body-timeout", "1", "--idle-timeout", "1"]


def status(answer):
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None


def test_slow_and_idle_clients_are_closed_while_others_are_served():
    log = []
    with tempfile.TemporaryDirectory() as directory, served(directory, LIMITS, log) as url:
        held = {kind: [make(url) for _ in range(4)] for kind, make in slow_clients.KINDS.items()}
        # Held connections do not slow anyone else down.
        assert slow_clients.healthz_seconds(url) < 0.5
        for kind, sockets in held.items():
            for sock in sockets:
                data, seconds, closed = slow_clients.read_until_closed(sock, timeout=5)
                assert closed, f"{kind}: still open after 5 s"
                assert seconds < 3, f"{kind}: closed after {seconds:.1f} s"
                if kind in ("half head", "slow body"):
                    assert status(data) == 408, (kind, data[:80])
        assert slow_clients.healthz_seconds(url) < 0.5
        # A request answered before its body ended, whose body then ends: the connection is idle from then on.
        sock = slow_clients.connect(url)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n\r\n")
        assert status(slow_clients.read_response(sock)) == 200
        sock.sendall(b"x")
        data, seconds, closed = slow_clients.read_until_closed(sock, timeout=5)
        assert closed and seconds < 3 and data == b"", (data[:80], seconds)
        # A client that leaves in the middle of its body is no server error.
        sock = slow_clients.slow_body(url)
        sock.close()
        assert slow_clients.healthz_seconds(url) < 0.5
    assert " error " not in log[0] and "error=" not in log[0], log[0]


def test_connections_over_the_cap_are_refused_with_503_and_a_retry_time():
    with tempfile.TemporaryDirectory() as directory, served(directory, LIMITS) as url:
        held = [slow_clients.idle(url) for _ in range(24)]
        try:
            # Wait until the server has taken all 24 (accepting is asynchronous), then one more is refused.
            deadline = time.monotonic() + 5
            while True:
                answer = slow_clients.request(url, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if status(answer) == 503 or time.monotonic() > deadline:
                    break
            assert status(answer) == 503, answer[:100]
            assert b"Retry-After: 5" in answer and b"too many open connections" in answer
        finally:
            for sock in held:
                sock.close()
        # Freed slots serve again.
        deadline = time.monotonic() + 5
        while status(slow_clients.request(url, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")) != 200:
            assert time.monotonic() < deadline


def signed_in(url):
    """The demo record's path and the patient's session cookie."""
    base = record_base(url)
    return urllib.parse.urlsplit(base).path, f"ock_session={SESSIONS[url]}"


def open_stream(url, day, record, source="127.0.0.1"):
    path, session = record
    sock = slow_clients.connect(url, source)
    sock.sendall(f"GET {path}/care/live?date=2020-01-{day:02d} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {session}\r\n\r\n".encode())
    sock.settimeout(5)
    return sock, status(sock.recv(65536))


def test_live_streams_are_bounded_per_client_and_per_person_and_freed_when_they_leave():
    with tempfile.TemporaryDirectory() as directory, served(directory) as url:
        record = signed_in(url)
        streams = [open_stream(url, day, record) for day in range(1, 17)]
        assert [answer for _, answer in streams] == [200] * 16
        sock, answer = open_stream(url, 17, record)
        assert answer == 429
        sock.close()
        # Another client is not starved (127.0.0.2 is another address on the loopback interface).
        other, answer = open_stream(url, 18, record, source="127.0.0.2")
        assert answer == 200
        other.close()
        # A stream closed by its client frees its slot at once, not at the next 15-second keep-alive.
        streams[0][0].close()
        start = time.monotonic()
        while True:
            sock, answer = open_stream(url, 19, record)
            sock.close()
            if answer == 200:
                break
            assert time.monotonic() - start < 2, "the closed stream still holds its slot"
        # One person over several addresses (a phone, a laptop, a tablet): 32 in all (15 are open from the first),
        # then refused from anywhere.
        more = [open_stream(url, day, record, source="127.0.0.2") for day in range(1, 17)]
        more.append(open_stream(url, 20, record, source="127.0.0.3"))
        assert [answer for _, answer in more] == [200] * 17
        sock, answer = open_stream(url, 21, record, source="127.0.0.3")
        assert answer == 429
        sock.close()
        for sock, _ in streams[1:] + more:
            sock.close()


def test_the_request_line_and_host_are_checked_and_head_answers_like_get():
    with tempfile.TemporaryDirectory() as directory, served(directory) as url:
        port = url.rsplit(":", 1)[1]
        absolute = slow_clients.request(url, b"GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert status(absolute) == 421  # served as evil.example before the fix
        own = slow_clients.request(url, f"GET http://127.0.0.1:{port}/healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        assert status(own) == 200
        two_hosts = slow_clients.request(url, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        assert status(two_hosts) == 400
        path, session = signed_in(url)
        get = slow_clients.request(url, f"GET {path}/care HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {session}\r\nConnection: close\r\n\r\n".encode())
        head = slow_clients.request(url, f"HEAD {path}/care HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {session}\r\nConnection: close\r\n\r\n".encode())
        assert status(head) == 200 and head.endswith(b"\r\n\r\n")
        get_head, _, get_body = get.partition(b"\r\n\r\n")
        length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
        assert length and int(length[0].split(b":")[1]) == len(get_body)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.2", 0))
        return sock.getsockname()[1]


def test_off_loopback_a_public_url_is_required_and_is_the_only_host_and_origin():
    with tempfile.TemporaryDirectory() as directory:
        refused = subprocess.run([BINARY, "serve", "--demo", "--data", directory, "--host", "127.0.0.2", "--port", "0"],
                                 capture_output=True, text=True, timeout=30)
        assert refused.returncode != 0 and "--public-url" in refused.stderr
        port = free_port()
        log = []
        public = f"http://care.test:{port}"
        with served(directory, ["--host", "127.0.0.2", "--port", str(port), "--public-url", public], log) as url:
            assert url == f"http://127.0.0.2:{port}"
            get = lambda host: slow_clients.request(url, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            assert status(get(f"care.test:{port}")) == 200
            assert status(get("evil.example")) == 421  # accepted before the fix: DNS rebinding
            assert status(get("127.0.0.2")) == 421
            post = lambda origin: slow_clients.request(url, (
                f"POST /records/00000000000000000000000000/api/v1/outcomes HTTP/1.1\r\nHost: care.test:{port}\r\nOrigin: {origin}\r\n"
                "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}").encode())
            assert status(post("http://evil.example")) == 403
            assert status(post(f"https://care.test:{port}")) == 403  # same host, another scheme
            assert status(post(public)) == 401  # past the origin check: nobody signed in
        warning = [line for line in log[0].splitlines() if line.startswith("warning:")]
        assert warning == [f"warning: {public} is plain http: passwords and sessions cross the network unencrypted (serve behind an https proxy and give its https address)"]


def test_with_few_files_allowed_the_connection_cap_shrinks_and_says_so():
    with tempfile.TemporaryDirectory() as directory:
        process = subprocess.Popen([BINARY, "serve", "--demo", "--data", directory, "--port", "0"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (400, 400)))
        try:
            url = next(word for line in process.stdout if "running at" in line
                       for word in line.split() if word.startswith("http://")).rstrip("/")
            assert slow_clients.healthz_seconds(url) < 1
        finally:
            process.terminate()
            process.wait(timeout=10)
        assert "at most 248 connections are served" in process.stderr.read()
