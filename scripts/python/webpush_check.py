"""Reads Web Push messages the way a browser and a push service do, for OpenCareKit's tests of its Web Push code.

Input (JSON on standard input): {"messages": [{"body": base64, "browser_key": base64url (the browser's raw P-256
private key), "auth": base64url, "authorization": "vapid t=..., k=...", "endpoint": url, "now": unix seconds}]}.
Output (JSON): {"results": [{"plaintext": text or null, "claims": {...} or null, "errors": [text]}]}
  - the body decrypted with http-ece (aes128gcm, RFC 8291) with the browser's key and auth secret;
  - the VAPID token verified with py-vapid against the key in k, and its claims checked (RFC 8292): aud is the
    endpoint's origin, exp is after now and at most 24 hours ahead, sub is a mailto: or https: contact.
"""
import base64
import json
import sys
import urllib.parse

import http_ece
import py_vapid.jwt
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decrypt(body, key, auth):
    """The plaintext of an aes128gcm body for the browser's private key and auth secret (http-ece, RFC 8291)."""
    return http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm").decode("utf-8")


def verify_vapid(authorization, endpoint_url, now):
    """The VAPID token's claims (verified with py-vapid against the key in k) and the problems found with them."""
    errors = []
    scheme, _, parameters = authorization.partition(" ")
    if scheme != "vapid":
        raise ValueError("scheme " + scheme)
    fields = dict(part.strip().split("=", 1) for part in parameters.split(","))
    claims = py_vapid.jwt.decode(fields["t"], fields["k"])
    endpoint = urllib.parse.urlsplit(endpoint_url)
    if claims.get("aud") != endpoint.scheme + "://" + endpoint.netloc:
        errors.append("aud %r" % (claims.get("aud"),))
    if not (now < claims.get("exp", 0) <= now + 86400):
        errors.append("exp %r" % (claims.get("exp"),))
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        errors.append("sub %r" % (claims.get("sub"),))
    return claims, errors


def main():
    results = []
    for message in json.load(sys.stdin)["messages"]:
        errors = []
        plaintext = None
        claims = None
        try:
            key = ec.derive_private_key(int.from_bytes(b64url(message["browser_key"]), "big"), ec.SECP256R1())
            plaintext = decrypt(base64.b64decode(message["body"]), key, b64url(message["auth"]))
        except Exception as error:  # reported, not raised: the test names what failed
            errors.append("decrypt: %r" % (error,))
        try:
            claims, problems = verify_vapid(message["authorization"], message["endpoint"], message["now"])
            errors += problems
        except Exception as error:
            errors.append("vapid: %r" % (error,))
        results.append({"plaintext": plaintext, "claims": claims, "errors": errors})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
