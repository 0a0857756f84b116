"""A Web Push service on loopback for the tests, playing the browser's push service and the browser itself.

Each ``Browser`` is a subscription as a browser makes it (a P-256 key pair and a 16-byte auth secret, RFC 8291)
with an endpoint on this receiver. Every POST is checked as a push service would: the VAPID ``Authorization``
header (RFC 8292: ``vapid t=<JWT>, k=<key>``) must carry an ES256 JWT that verifies against the server's public
key, for this receiver's origin, not expired; the body is then decrypted with ``http_ece`` (aes128gcm) as the
browser would. Written independently of ``pywebpush`` / ``py_vapid`` (only ``cryptography`` and ``http_ece``).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes
    status: int = 201  # what the push service answers (410: the subscription is gone)

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it."""
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}


@dataclass
class Delivery:
    browser: str
    status: int
    payload: dict[str, Any] | None = None
    claims: dict[str, Any] | None = None
    problem: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)  # when it arrived


class PushReceiver:
    """Start with ``start()``; ``server_key`` (base64url) must be set before pushes arrive."""

    def __init__(self) -> None:
        self.browsers: dict[str, Browser] = {}
        self.deliveries: list[Delivery] = []
        self.server_key = ""
        self.cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                delivery = receiver.receive(self.path, dict(self.headers.items()), body)
                self.send_response(delivery.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> PushReceiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def browser(self, name: str) -> Browser:
        browser = Browser(name, f"{self.origin}/push/{name}", ec.generate_private_key(ec.SECP256R1()),
                          os.urandom(16))
        self.browsers[name] = browser
        return browser

    # -- checks --------------------------------------------------------------------------------------------
    def verify_vapid(self, authorization: str) -> dict[str, Any]:
        """The JWT's claims if the header is a valid VAPID signature by ``server_key`` for this origin."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme.lower() == "vapid", f"not a vapid header: {authorization[:40]}"
        parts = dict(p.strip().split("=", 1) for p in rest.split(","))
        assert parts["k"] == self.server_key, "the header's key is not the server's public key"
        header_b64, claims_b64, signature_b64 = parts["t"].split(".")
        header = json.loads(unb64url(header_b64))
        assert header == {"typ": "JWT", "alg": "ES256"}, header
        signature = unb64url(signature_b64)
        assert len(signature) == 64
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(self.server_key))
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
        claims: dict[str, Any] = json.loads(unb64url(claims_b64))
        assert claims["aud"] == self.origin, claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
        assert str(claims["sub"]).startswith(("mailto:", "https:")), claims
        return claims

    def receive(self, path: str, headers: dict[str, str], body: bytes) -> Delivery:
        name = path.rsplit("/", 1)[-1]
        browser = self.browsers.get(name)
        delivery = Delivery(name, 404 if browser is None else browser.status, headers=headers)
        try:
            assert browser is not None, f"unknown endpoint {path}"
            lower = {k.lower(): v for k, v in headers.items()}
            assert lower.get("content-encoding") == "aes128gcm", lower
            assert int(lower["ttl"]) > 0
            delivery.claims = self.verify_vapid(lower["authorization"])
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
            delivery.payload = json.loads(plain)
        except Exception as err:  # recorded: the test asserts none happened
            delivery.problem = repr(err)
            delivery.status = 400 if browser is not None else 404
        with self.cond:
            self.deliveries.append(delivery)
            self.cond.notify_all()
        return delivery

    def wait(self, count: int, timeout: float = 30.0) -> list[Delivery]:
        """At least ``count`` deliveries (all of them), or an AssertionError after ``timeout`` (roomy: a process's
        first push loads the VAPID key and the push libraries, seconds on a loaded machine)."""
        end = time.monotonic() + timeout
        with self.cond:
            while len(self.deliveries) < count:
                left = end - time.monotonic()
                assert left > 0, f"{len(self.deliveries)} pushes arrived, expected {count}: {self.deliveries}"
                self.cond.wait(left)
            return list(self.deliveries)
