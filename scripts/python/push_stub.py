"""A Web Push service for OpenCareKit's reminder tests: it holds browsers' keys, and checks and decrypts every message
posted to them the way a push service and a browser do (VAPID with py-vapid, aes128gcm with http-ece).

Usage: push_stub.py --now UNIX_SECONDS [--browsers N]
Prints one JSON line when listening: {"subscriptions": [{"endpoint", "p256dh", "auth"}], "gone": {…}} — N browsers
that accept messages (201) and one whose subscription has expired (410). Then:
  POST /push/ID   a message: checked (headers, VAPID token against the clock given, decryption), kept, answered.
  GET /received   {"messages": [{"browser": ID, "plaintext", "errors", "ttl", "urgency", "topic"}]}, in arrival order;
                  with ?count=N, once N have arrived (or after 60 s).
  PUT /now        sets the clock the tokens' expiry is checked against (the test's fixed clock).
Runs until its standard input closes (the test ends), so it never outlives the test.
"""
import argparse
import base64
import http.server
import json
import os
import sys
import threading

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from webpush_check import decrypt, verify_vapid


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


parser = argparse.ArgumentParser()
parser.add_argument("--now", type=float, required=True)
parser.add_argument("--browsers", type=int, default=2)
options = parser.parse_args()

browsers = {}
for name in [str(index) for index in range(options.browsers)] + ["gone"]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    browsers[name] = {"key": key, "auth": os.urandom(16), "public": public}
received = []
lock = threading.Lock()
arrived = threading.Condition(lock)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path != "/received":
            return self.answer(404)
        # ?count=N waits (at most 60 s) until N messages have arrived: a test waits for the event, not for a time.
        wanted = int(query.removeprefix("count=")) if query.startswith("count=") else 0
        with arrived:
            arrived.wait_for(lambda: len(received) >= wanted, timeout=60)
            body = json.dumps({"messages": received}).encode()
        self.answer(200, body)

    def do_PUT(self):
        if self.path != "/now":
            return self.answer(404)
        options.now = float(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        self.answer(204)

    def do_POST(self):
        name = self.path.removeprefix("/push/")
        length = int(self.headers.get("Content-Length", "0"))
        if name not in browsers or length > 4096:
            return self.answer(404 if name not in browsers else 413)
        body = self.rfile.read(length)
        if name == "gone":
            return self.answer(410)
        browser = browsers[name]
        errors, plaintext = [], None
        if self.headers.get("Content-Encoding") != "aes128gcm":
            errors.append("content-encoding %r" % self.headers.get("Content-Encoding"))
        try:
            plaintext = decrypt(body, browser["key"], browser["auth"])
        except Exception as error:
            errors.append("decrypt: %r" % (error,))
        try:
            _, problems = verify_vapid(self.headers.get("Authorization", ""), endpoint(name), options.now)
            errors += problems
        except Exception as error:
            errors.append("vapid: %r" % (error,))
        with arrived:
            received.append({"browser": name, "plaintext": plaintext, "errors": errors, "ttl": self.headers.get("TTL"),
                             "urgency": self.headers.get("Urgency"), "topic": self.headers.get("Topic")})
            arrived.notify_all()
        self.answer(201)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)


def endpoint(name):
    return "http://127.0.0.1:%d/push/%s" % (server.server_address[1], name)


def subscription(name):
    return {"endpoint": endpoint(name), "p256dh": b64url(browsers[name]["public"]), "auth": b64url(browsers[name]["auth"])}


threading.Thread(target=server.serve_forever, daemon=True).start()
print(json.dumps({"subscriptions": [subscription(name) for name in browsers if name != "gone"], "gone": subscription("gone")}),
      flush=True)
sys.stdin.read()
server.shutdown()
