"""The deployment in `deploy/`: Debian's nginx with the repository's TLS configuration in front of `serve` on
loopback, with a self-signed certificate. The app works through it in Chromium over https, its cookies are Secure,
the answers carry HSTS, live updates pass unbuffered, plain http redirects, /metrics and oversized bodies stop at
nginx."""
import http.client
import os
import socket
import ssl
import subprocess
import tempfile
import urllib.error
import urllib.request

import pytest

from careapp import DEMO_PATIENT, onboard, record_base, serve
from conftest import DESKTOP, PHONE, ROOT
from test_care_app import wait_live

DEPLOY = ROOT / "deploy"
PASSWORD = "opencarekit-demo"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rendered(conf, https_port, http_port, app_port, cert, key):
    """deploy/nginx-opencarekit.conf for this machine: loopback ports, the test's certificate, localhost. Each change
    must apply, so that a change to the deployed file cannot leave this test testing something else."""
    for old, new in [
        ("/etc/letsencrypt/live/care.example.org/fullchain.pem", cert),
        ("/etc/letsencrypt/live/care.example.org/privkey.pem", key),
        ("server_name care.example.org;", "server_name localhost;"),
        ("server 127.0.0.1:8080;", f"server 127.0.0.1:{app_port};"),
        ("    listen [::]:80;\n", ""),
        ("    listen [::]:443 ssl http2;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        ("return 301 https://$host$request_uri;", f"return 301 https://$host:{https_port}$request_uri;"),
    ]:
        assert old in conf, f"deploy/nginx-opencarekit.conf no longer has {old!r}"
        conf = conf.replace(old, new)
    return conf


@pytest.fixture()
def deployed():
    """serve on loopback behind nginx with TLS, as deploy/ describes; yields the https origin."""
    with tempfile.TemporaryDirectory() as directory:
        cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                        "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
        https_port, http_port, app_port = free_port(), free_port(), free_port()
        site = rendered((DEPLOY / "nginx-opencarekit.conf").read_text(), https_port, http_port, app_port, cert, key)
        with open(os.path.join(directory, "nginx.conf"), "w") as main:
            main.write(f"""worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
daemon on;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
{site}
}}
""")
        nginx = subprocess.run(["nginx", "-c", os.path.join(directory, "nginx.conf"), "-p", directory, "-e",
                                os.path.join(directory, "error.log")], capture_output=True, text=True)
        assert nginx.returncode == 0, nginx.stderr
        # By address: Python's cookie jar keeps no cookie for a host named "localhost".
        origin = f"https://127.0.0.1:{https_port}"
        process, _ = serve(os.path.join(directory, "data"), port=app_port, args=["--public-url", origin])
        try:
            yield {"origin": origin, "http": f"127.0.0.1:{http_port}"}
        finally:
            process.terminate()
            assert process.wait(timeout=10) == 0
            with open(os.path.join(directory, "nginx.pid")) as pid:
                os.kill(int(pid.read()), 15)


@pytest.fixture()
def trusting(monkeypatch):
    """urllib trusts the test's self-signed certificate (and nothing is sent elsewhere)."""
    monkeypatch.setattr(ssl, "_create_default_https_context", ssl._create_unverified_context)


def test_through_nginx_with_tls_the_app_works_with_secure_cookies_and_live_updates(browser, deployed, trusting):
    origin = deployed["origin"]
    onboard(record_base(origin))
    context = browser.new_context(ignore_https_errors=True, viewport=PHONE)
    try:
        page = context.new_page()
        answer = page.goto(origin + "/sign-in")
        assert answer.status == 200
        assert answer.headers["strict-transport-security"] == "max-age=63072000; includeSubDomains"
        page.fill("#email", DEMO_PATIENT)
        page.fill("#password", PASSWORD)
        page.click("button:has-text('Sign in')")
        page.wait_for_url("**/care**")
        cookies = {cookie["name"]: cookie for cookie in context.cookies()}
        assert cookies["ock_session"]["secure"] and cookies["ock_session"]["httpOnly"]
        assert cookies["ock_csrf"]["secure"]
        # A second page of the same person sees the first's change at once: the live stream is not buffered.
        other = context.new_page()
        other.set_viewport_size(DESKTOP)
        other.goto(page.url)
        wait_live(page)
        wait_live(other)
        page.click("#task-ibuprofen .ock-checklist-item >> nth=1 >> button")
        other.wait_for_selector('#task-ibuprofen .ock-checklist-item:nth-child(2) button[aria-pressed="true"]', timeout=2000)
    finally:
        context.close()


def test_nginx_redirects_http_and_stops_metrics_and_oversized_bodies(deployed, trusting):
    origin = deployed["origin"]
    plain = http.client.HTTPConnection(deployed["http"])
    plain.request("GET", "/sign-in")
    redirect = plain.getresponse()
    assert redirect.status == 301 and redirect.getheader("Location") == origin + "/sign-in"
    with pytest.raises(urllib.error.HTTPError) as metrics:
        urllib.request.urlopen(origin + "/metrics")
    assert metrics.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as large:
        urllib.request.urlopen(urllib.request.Request(origin + "/records/import", data=b"x" * (34 << 20),
                                                      headers={"Content-Type": "application/fhir+json"}))
    assert large.value.code == 413
