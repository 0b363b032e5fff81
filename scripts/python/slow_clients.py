"""Slow and idle clients against `opencarekit serve`, as an attacker would hold them: connections that send
nothing, half a request head, or a body a byte at a time, and live streams. The tests use it at small sizes
(Tests/Browser/test_hostile_http.py); run it on its own to hold many:

    python scripts/python/slow_clients.py http://127.0.0.1:8080 --each 300

It prints how long /healthz takes while they are held and how long the server takes to close each kind."""
import argparse
import socket
import time


def address(url):
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host.strip("[]"), int(port)


def connect(url, source="127.0.0.1"):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect(address(url))
    return sock


def idle(url):
    """A connection that never sends a byte."""
    return connect(url)


def half_head(url):
    """A request whose head never ends."""
    sock = connect(url)
    sock.sendall(b"GET /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


def slow_body(url):
    """A sign-in form that promises 1,000 bytes of body and sends one (the route reads its body: anyone may post it)."""
    sock = connect(url)
    sock.sendall(b"POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                 b"Content-Length: 1000\r\n\r\ne")
    return sock


def kept_alive(url):
    """A connection that made one request, read its answer, and then waits."""
    sock = connect(url)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    read_response(sock)
    return sock


def request(url, raw, source="127.0.0.1", timeout=5):
    """Sends `raw` and returns everything the server answers until it closes or `timeout` passes quietly."""
    sock = connect(url, source)
    sock.sendall(raw)
    return read_until_closed(sock, timeout)[0]


def read_response(sock, timeout=5):
    """Reads one response with a Content-Length; returns its bytes."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def read_until_closed(sock, timeout):
    """Reads until the server closes the connection; returns (bytes, seconds waited, closed)."""
    sock.settimeout(timeout)
    start = time.monotonic()
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return data, time.monotonic() - start, True
            data += chunk
    except socket.timeout:
        return data, time.monotonic() - start, False
    except ConnectionResetError:
        return data, time.monotonic() - start, True
    finally:
        sock.close()


def healthz_seconds(url):
    start = time.monotonic()
    answer = request(url, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200"), answer[:100]
    return time.monotonic() - start


KINDS = {"idle": idle, "half head": half_head, "slow body": slow_body, "kept alive": kept_alive}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--each", type=int, default=100, help="connections of each kind")
    parser.add_argument("--wait", type=float, default=120, help="seconds to wait for the server to close them")
    arguments = parser.parse_args()
    held = {kind: [make(arguments.url) for _ in range(arguments.each)] for kind, make in KINDS.items()}
    print(f"holding {arguments.each} connections of each kind; /healthz took {healthz_seconds(arguments.url) * 1000:.1f} ms")
    for kind, sockets in held.items():
        results = [read_until_closed(sock, arguments.wait) for sock in sockets]
        closed = [seconds for _, seconds, was_closed in results if was_closed]
        print(f"{kind:12s} closed by the server: {len(closed)}/{len(sockets)}, "
              f"after at most {max(closed, default=0):.1f} s")


if __name__ == "__main__":
    main()
