"""Push endpoints cannot make the server send a request where it must not (server-side request forgery).

A listener on loopback counts every connection made to it. The resolver is stubbed at ``socket.getaddrinfo``:
``push.example.com`` names loopback, ``rebind.example.net`` names a public address until the test changes it to
loopback (DNS changed between storing and sending), and every loopback answer for port 443 is sent to the
listener's port, as if it listened there. Every address form must be refused when stored, and a push to one
stored anyway (before these checks, or DNS changed since) must connect nowhere: zero connections."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app import metrics
from app.main import create_app
from app.persistence.models import Seat
from app.persistence.push import PushSubscription
from app.services.push import PushService
from app.services.push_endpoints import EndpointRefused, PushEndpoints, is_public
from app.settings import Settings
from tests.server_helpers import bearer, new_table, server_game
from tests.services.push_receiver import PushReceiver

KEYS = PushReceiver().browser("keys").subscription()["keys"]  # valid keys: only the endpoint is wrong


class CountingListener:
    """Accepts and closes every connection on 127.0.0.1 (and ::1 when the machine has it), counting them."""

    def __init__(self) -> None:
        self.attempts = 0
        self._lock = threading.Lock()
        self.servers = [socket.create_server(("127.0.0.1", 0))]
        self.port = self.servers[0].getsockname()[1]
        with contextlib.suppress(OSError):
            self.servers.append(socket.create_server(("::1", self.port), family=socket.AF_INET6))
        for server in self.servers:
            threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with self._lock:
                self.attempts += 1
            conn.close()

    def close(self) -> None:
        for server in self.servers:
            server.close()


@pytest.fixture()
def listener() -> Iterator[CountingListener]:
    found = CountingListener()
    yield found
    found.close()


@pytest.fixture()
def names(monkeypatch: pytest.MonkeyPatch, listener: CountingListener) -> dict[str, str]:
    """The resolver stub: these names answer these addresses; loopback answers for port 443 lead to the
    listener (only push requests ask for 443 here)."""
    names = {"push.example.com": "127.0.0.1", "rebind.example.net": "93.184.216.34"}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        if isinstance(host, bytes):
            host = host.decode()
        if host in names:
            found = [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (names[host], int(port or 0)))]
        else:
            found = real(host, port, *args, **kwargs)
        out = []
        for family, kind, proto, canon, sockaddr in found:
            if str(port) == "443" and ipaddress.ip_address(sockaddr[0]).is_loopback:
                sockaddr = (sockaddr[0], listener.port, *sockaddr[2:])
            out.append((family, kind, proto, canon, sockaddr))
        return out

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return names


def forms(port: int) -> list[str]:
    """Every address form that reached loopback or the private network, and a public name that resolves to
    loopback."""
    return [
        f"https://127.0.0.1:{port}/push/a", "https://localhost/push/b", f"https://localhost:{port}/push/c",
        "https://169.254.169.254/latest/meta-data/", "https://10.0.0.1/", "https://[::1]/push/d",
        f"https://[::1]:{port}/push/e", "https://2130706433/push/f", f"https://fcm.googleapis.com@127.0.0.1:{port}/g",
        "https://fcm.googleapis.com@127.0.0.1/h", "https://push.example.com/push/i", f"http://127.0.0.1:{port}/j",
        "https://[::ffff:127.0.0.1]/k", "https://100.64.0.1/l", "https://0.0.0.0/m",
    ]


def test_push_endpoints_at_private_addresses_are_refused(settings: Settings, names: dict[str, str],
                                                                     listener: CountingListener) -> None:
    """Each form answers 422 invalid_subscription on ``endpoint`` and stores nothing; no connection is made."""
    with TestClient(create_app(settings)) as client:
        table = new_table(client, players=2)
        for endpoint in forms(listener.port):
            r = client.put(f"/api/tables/{table.id}/push", json={"endpoint": endpoint, "keys": KEYS},
                           headers=bearer(table.tokens[0]))
            assert r.status_code == 422, (endpoint, r.text)
            assert r.json()["error"]["code"] == "invalid_subscription" and r.json()["error"]["field"] == "endpoint"
        with client.app.state.service.db.read() as s:  # type: ignore[attr-defined]
            # this table's seats only: the database is shared with other tests, which store such rows on purpose
            mine = select(PushSubscription.endpoint).join(Seat, Seat.id == PushSubscription.seat_id) \
                .where(Seat.table_id == table.id)
            assert list(s.scalars(mine)) == []
    assert listener.attempts == 0


def test_no_push_connects_to_a_private_address_even_if_stored(settings: Settings, names: dict[str, str],
                                                                   listener: CountingListener) -> None:
    """Subscriptions stored before these checks, and one whose name resolved to a public address when it was
    stored and to loopback when the turn came: the pushes are refused before any connection (zero at the
    listener); a wrong form is deleted, a name that resolves elsewhere now is kept."""
    with TestClient(create_app(settings)) as client:
        table = new_table(client, players=2, start=True)
        ruleset, state, game = server_game(client, table.id)
        [seat] = ruleset.awaited(state)
        seat_id = game.seats[seat]["seat_id"]
        r = client.put(f"/api/tables/{table.id}/push", headers=bearer(table.tokens[seat]),
                       json={"endpoint": "https://rebind.example.net/push/z", "keys": KEYS})
        assert r.status_code == 200, r.text  # public when stored
        names["rebind.example.net"] = "127.0.0.1"  # loopback when sent
        service = client.app.state.service  # type: ignore[attr-defined]
        stored = [e for e in forms(listener.port) if "169.254" not in e and "10.0.0.1" not in e
                  and "100.64" not in e]  # these would not reach the listener: their refusal is checked above
        with service.db.write() as s:
            for endpoint in stored:
                s.add(PushSubscription(seat_id=seat_id, endpoint=endpoint, p256dh=KEYS["p256dh"], auth=KEYS["auth"]))
        refused = metrics.PUSH_FAILED.labels("refused")._value.get()
        PushService(service, settings).check(table.id)  # not started: sends at once, in this thread
        assert listener.attempts == 0
        assert metrics.PUSH_FAILED.labels("refused")._value.get() == refused + len(stored) + 1
        with service.db.read() as s:
            kept = set(s.scalars(select(PushSubscription.endpoint).where(PushSubscription.seat_id == seat_id)))
        assert kept == {"https://rebind.example.net/push/z", "https://push.example.com/push/i",
                        "https://localhost/push/b", "https://2130706433/push/f"}  # names: DNS may change back


class Redirect(BaseHTTPRequestHandler):
    location = ""

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(307)
        self.send_header("Location", self.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_a_redirect_is_never_followed(settings: Settings, listener: CountingListener) -> None:
    """The tests' loopback receiver is allowed (``push_allow_http``); it answers 307 to another loopback port:
    the push counts as failed with 307 and nothing connects to where it pointed."""
    Redirect.location = f"http://127.0.0.1:{listener.port}/push/other"
    redirect = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=redirect.serve_forever, daemon=True).start()
    try:
        loose = settings.model_copy(update={"push_allow_http": True})
        with TestClient(create_app(loose)) as client:
            table = new_table(client, players=2, start=True)
            ruleset, state, _ = server_game(client, table.id)
            [seat] = ruleset.awaited(state)
            endpoint = f"http://127.0.0.1:{redirect.server_address[1]}/push/r"
            r = client.put(f"/api/tables/{table.id}/push", json={"endpoint": endpoint, "keys": KEYS},
                           headers=bearer(table.tokens[seat]))
            assert r.status_code == 200, r.text
            answered = metrics.PUSH_FAILED.labels("307")._value.get()
            PushService(client.app.state.service, loose).check(table.id)  # type: ignore[attr-defined]
            assert metrics.PUSH_FAILED.labels("307")._value.get() == answered + 1
    finally:
        redirect.shutdown()
        redirect.server_close()
    assert listener.attempts == 0


def test_the_test_setting_opens_only_http_at_a_loopback_address(settings: Settings) -> None:
    loose = PushEndpoints(settings.model_copy(update={"push_allow_http": True}))
    assert loose.check("http://127.0.0.1:8080/push/x").trusted
    for endpoint in ("http://localhost:8080/x", "http://10.0.0.1/x", "https://127.0.0.1:8080/x",
                     "http://2130706433:8080/x"):
        with pytest.raises(EndpointRefused):
            loose.check(endpoint)
    with pytest.raises(EndpointRefused):
        PushEndpoints(settings).check("http://127.0.0.1:8080/push/x")


def test_known_push_services_are_taken_without_a_lookup(settings: Settings) -> None:
    """Known push services (``PHASE10_PUSH_SERVICE_HOSTS``) need no lookup; look-alike hosts are not them."""
    def no_lookup(host: str, port: int) -> list[tuple[str, int]]:
        raise AssertionError(f"looked up {host}")

    endpoints = PushEndpoints(settings, resolver=no_lookup)
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc", "https://web.push.apple.com/QO",
                     "https://wns2-par02p.notify.windows.com/w/?token=x",
                     "https://updates.push.services.mozilla.com/wpush/v2/x"):
        assert endpoints.check(endpoint).known
    for endpoint in ("https://fcm.googleapis.com.evil.example/x", "https://evilnotify.windows.com/x",
                     "https://push.apple.com.evil.example/x"):
        with pytest.raises(AssertionError, match="looked up"):
            endpoints.check(endpoint)
    for endpoint in ("https://fcm.googleapis.com:8443/x", "http://fcm.googleapis.com/x",
                     "https://u:p@fcm.googleapis.com/x"):
        with pytest.raises(EndpointRefused):
            endpoints.check(endpoint)


def test_a_name_with_one_private_address_among_others_is_refused(settings: Settings) -> None:
    connected: list[tuple[str, int]] = []

    def connector(address: tuple[str, int], timeout: float) -> socket.socket:
        connected.append(address)
        raise OSError("not in this test")

    endpoints = PushEndpoints(settings, resolver=lambda host, port: [("93.184.216.34", port), ("10.0.0.7", port)],
                              connector=connector)
    with pytest.raises(EndpointRefused):
        endpoints.post("https://mixed.example/x", lambda endpoint: (b"body", {}))
    assert connected == []
    public = PushEndpoints(settings, resolver=lambda host, port: [("93.184.216.34", port)], connector=connector)
    with pytest.raises(OSError, match="not in this test"):
        public.post("https://public.example/x", lambda endpoint: (b"body", {}))
    assert connected == [("93.184.216.34", 443)]  # the checked address, connected to with the name kept for TLS


@pytest.mark.parametrize("address, public", [
    ("8.8.8.8", True), ("2606:4700::1", True), ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False),
    ("192.168.1.1", False), ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False),
    ("224.0.0.1", False), ("255.255.255.255", False), ("::1", False), ("fe80::1", False), ("fc00::1", False),
    ("fec0::1", False), ("ff02::1", False), ("::ffff:127.0.0.1", False), ("2002:7f00:1::", False),
    ("2002:808:808::", True), ("2001:db8::1", False),
])
def test_public_unicast_addresses_only(address: str, public: bool) -> None:
    assert is_public(ipaddress.ip_address(address)) is public


def test_https_goes_to_the_checked_address_by_its_tls_name(settings: Settings,
                                                                         tmp_path: Any) -> None:
    """The connection is made to the address the check resolved, and TLS verifies the certificate of the
    endpoint's name (SNI), whose ``Host`` the request carries. A push service answering 201 is a 201."""
    import datetime
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push.example.com")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("push.example.com")]), critical=False)
            .sign(key, hashes.SHA256()))
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                         serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption()))
    seen: list[dict[str, str]] = []

    class Created(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append({"host": self.headers["Host"], "path": self.path, "ttl": self.headers["TTL"]})
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Created)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        connected: list[tuple[str, int]] = []

        def connector(address: tuple[str, int], timeout: float) -> socket.socket:
            connected.append(address)  # the checked public address, reached here at the loopback server
            return socket.create_connection(("127.0.0.1", port), timeout=timeout)

        public = [("93.184.216.34", 443)]
        endpoints = PushEndpoints(settings, resolver=lambda host, _port: public, connector=connector)
        endpoints._tls = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        status = endpoints.post("https://push.example.com/send/abc?x=1",
                                lambda endpoint: (b"secret", {"TTL": "60"}))
        assert status == 201 and seen == [{"host": "push.example.com", "path": "/send/abc?x=1", "ttl": "60"}]
        assert connected == public
        wrong = PushEndpoints(settings, resolver=lambda host, _port: public, connector=connector)
        wrong._tls = endpoints._tls
        with pytest.raises(ssl.SSLCertVerificationError):  # the certificate must be the name's
            wrong.post("https://other.example.com/x", lambda endpoint: (b"x", {}))
    finally:
        server.shutdown()
        server.server_close()


def test_known_push_services_are_checked_at_send_time(settings: Settings, names: dict[str, str],
                                                      listener: CountingListener) -> None:
    """A known push service is stored without a lookup, but a send resolves it like any host: when its name
    names loopback, ``::1`` or a private address now, the push is refused before any connection (zero at the
    listener) and the subscription kept (DNS may change back)."""
    with TestClient(create_app(settings)) as client:
        table = new_table(client, players=2, start=True)
        ruleset, state, game = server_game(client, table.id)
        [seat] = ruleset.awaited(state)
        seat_id = game.seats[seat]["seat_id"]
        service = client.app.state.service  # type: ignore[attr-defined]
        stored = ["https://fcm.googleapis.com/fcm/send/a", "https://updates.push.services.mozilla.com/wpush/v2/b",
                  "https://wns2-par02p.notify.windows.com/w/?token=c"]
        for endpoint in stored:
            r = client.put(f"/api/tables/{table.id}/push", headers=bearer(table.tokens[seat]),
                           json={"endpoint": endpoint, "keys": KEYS})
            assert r.status_code == 200, r.text
        for address in ("127.0.0.1", "::1", "10.9.9.9"):
            names.update({"fcm.googleapis.com": address, "updates.push.services.mozilla.com": address,
                          "wns2-par02p.notify.windows.com": address})
            refused = metrics.PUSH_FAILED.labels("refused")._value.get()
            with service.db.write() as s:  # alert again: forget which turn was alerted
                s.execute(PushSubscription.__table__.update().where(PushSubscription.seat_id == seat_id)
                          .values(turn_key=None))
            PushService(service, settings).check(table.id)
            assert metrics.PUSH_FAILED.labels("refused")._value.get() == refused + len(stored), address
        assert listener.attempts == 0
        with service.db.read() as s:
            kept = set(s.scalars(select(PushSubscription.endpoint).where(PushSubscription.seat_id == seat_id)))
        assert kept == set(stored)


@pytest.mark.parametrize("address", [
    "::127.0.0.1", "::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::7f00:1", "64:ff9b:1::808:808",
    "::ffff:0:7f00:1", "2002:a00:1::", "2001:0:4136:e378:8000:63bf:80ff:fffe", "::8.8.8.8",
])
def test_ipv4_inside_ipv6_forms_are_refused(settings: Settings, address: str, listener: CountingListener) -> None:
    """IPv4-compatible (deprecated: refused whatever it holds), NAT64 (the well-known prefix: its IPv4 address
    checked; the local-use prefix: refused), IPv4-translated, 6to4 and Teredo forms holding a loopback or private
    IPv4 address: refused as a literal when stored and as a resolved address at send time."""
    assert not is_public(ipaddress.ip_address(address))
    with pytest.raises(EndpointRefused):
        PushEndpoints(settings).check(f"https://[{address}]/x")
    connected: list[tuple[str, int]] = []

    def connector(where: tuple[str, int], timeout: float) -> socket.socket:
        connected.append(where)
        raise OSError("not in this test")

    endpoints = PushEndpoints(settings, resolver=lambda host, port: [(address, port)], connector=connector)
    with pytest.raises(EndpointRefused):
        endpoints.post("https://resolves.example/x", lambda endpoint: (b"body", {}))
    assert connected == []
    assert is_public(ipaddress.ip_address("64:ff9b::808:808"))  # a public IPv4 address through NAT64
