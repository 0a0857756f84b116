"""Where a push may go: the check of a push endpoint, and the one way a push leaves the server.

Any seat stores the endpoint its browser names, so without a check the server would POST wherever a player
points it: a loopback service, the cloud's metadata address, the private network (server-side request forgery).
An endpoint is accepted when it is an ``https`` URL on port 443 without user info, and

* its host is a known push service (``PHASE10_PUSH_SERVICE_HOSTS``: a name, or ``*.`` and a domain), stored
  without a lookup (a browser's push service is taken even while DNS is away); or
* every address its host resolves to is a public unicast address (``is_public``: ``is_global``, not multicast,
  not site-local, no loopback or private IPv4 address inside an IPv6 one).

It is checked when stored and again at every send, against the address connected to, known push services
included (their names are resolved and every address checked like any other's): the host is resolved once,
every address is checked, and the connection goes to a checked address, with the host's name kept for TLS (SNI
and the certificate) and the ``Host`` header; DNS that changed since the subscription was stored cannot move a
push elsewhere. Redirects are never followed (a 3xx is the push service's answer); connecting and each read
have short timeouts and the whole exchange a bound.

Test-only, ``PHASE10_PUSH_ALLOW_HTTP``: ``http`` endpoints at a loopback address literal (the tests' push
receiver). Production never sets it.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from app.settings import Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# (address, port) pairs a host name resolves to: ``socket.getaddrinfo``'s socket addresses
Resolver = Callable[[str, int], list[tuple[str, int]]]
Connector = Callable[[tuple[str, int], float], socket.socket]


class EndpointRefused(Exception):
    """A push endpoint the server will not send to. ``lasting``: its form is wrong (it never will be right),
    rather than where its host resolves to now."""

    def __init__(self, message: str, lasting: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.lasting = lasting


@dataclass(frozen=True)
class Endpoint:
    """A push endpoint whose form was checked: where to connect and what to ask for."""

    scheme: str
    host: str  # lower case, IPv6 without brackets
    port: int
    netloc: str  # the ``Host`` header
    target: str  # path and query
    trusted: bool  # the tests' loopback receiver only: its address is not checked
    known: bool = False  # a known push service: stored without a lookup, checked at every send


def resolve(host: str, port: int) -> list[tuple[str, int]]:
    """Every (address, port) ``host`` resolves to (``socket.getaddrinfo``, TCP)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as err:
        raise EndpointRefused(f"the endpoint's host does not resolve ({err})", lasting=False) from err
    return [(str(sockaddr[0]), int(sockaddr[1])) for *_, sockaddr in found]


def connect(address: tuple[str, int], timeout: float) -> socket.socket:
    return socket.create_connection(address, timeout=timeout)


# IPv6 forms that carry an IPv4 address in their last 32 bits: NAT64's well-known prefix (RFC 6052) and
# IPv4-translated addresses (RFC 2765). IPv4-mapped (``::ffff:0:0/96``), 6to4 and Teredo are ``ipaddress``'s own.
EMBEDDING_V4 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("::ffff:0:0:0/96"))
# Refused whatever they hold: IPv4-compatible addresses (``::a.b.c.d``, deprecated by RFC 4291, which a host may
# still route to the IPv4 address) and NAT64's local-use prefix (RFC 8215: a network's own translator, the IPv4
# address at a place its operator chose).
NEVER_PUBLIC = (ipaddress.ip_network("::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def embedded_v4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: IPv4-mapped, NAT64, IPv4-translated, 6to4, Teredo (its
    server and client)."""
    inner = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
    if any(address in net for net in EMBEDDING_V4):
        inner.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [v4 for v4 in inner if v4 is not None]


def is_public(address: IPAddress) -> bool:
    """A public unicast address: global, not multicast, not IPv6 site-local, no non-public IPv4 address inside
    an IPv6 one (``embedded_v4``), not IPv4-compatible nor NAT64 local-use (``NEVER_PUBLIC``)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.is_site_local or any(address in net for net in NEVER_PUBLIC):
            return False
        if any(not is_public(v4) for v4 in embedded_v4(address)):
            return False
    return address.is_global and not address.is_multicast


def host_patterns(text: str) -> tuple[str, ...]:
    return tuple(part.strip().lower().rstrip(".") for part in text.split(",") if part.strip())


def is_known_service(host: str, patterns: tuple[str, ...]) -> bool:
    """``host`` is one of ``patterns``: the same name, or under the domain of a ``*.domain`` pattern."""
    return any(host == p or (p.startswith("*.") and host.endswith(p[1:]) and len(host) > len(p) - 1)
               for p in patterns)


class PushEndpoints:
    """The endpoint check (at storing and at sending) and the sender of one push request."""

    def __init__(self, settings: Settings, resolver: Resolver = resolve, connector: Connector = connect) -> None:
        self.services = host_patterns(settings.push_service_hosts)
        self.allow_loopback_http = settings.push_allow_http
        self.connect_timeout = settings.push_connect_timeout_seconds
        self.read_timeout = settings.push_timeout_seconds
        self.resolver = resolver
        self.connector = connector
        self._tls: ssl.SSLContext | None = None

    # -- the check -----------------------------------------------------------------------------------------
    def parse(self, url: str) -> Endpoint:
        """The endpoint's form: https, port 443, no user info, an ASCII host (``EndpointRefused`` otherwise)."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as err:
            raise EndpointRefused(f"endpoint is not a URL ({err})") from err
        host = (parts.hostname or "").rstrip(".")
        if not host or not host.isascii() or any(c.isspace() or not c.isprintable() for c in url):
            raise EndpointRefused("endpoint must be an https URL with a host name")
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            raise EndpointRefused("endpoint must not carry user info")
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if parts.scheme == "http" and self.allow_loopback_http and _loopback_literal(host):
            return Endpoint("http", host, port or 80, parts.netloc, target, trusted=True)
        if parts.scheme != "https":
            raise EndpointRefused("endpoint must be an https URL")
        if port not in (None, 443):
            raise EndpointRefused("endpoint must use port 443")
        literal = _literal(host)
        if literal is not None and not is_public(literal):
            raise EndpointRefused("the endpoint's host must be a public address")
        return Endpoint("https", host, 443, parts.netloc, target, trusted=False,
                        known=is_known_service(host, self.services))

    def addresses(self, endpoint: Endpoint) -> list[tuple[str, int]]:
        """Where ``endpoint`` may be reached: its host's addresses, every one public (a known push service's
        too; only the tests' loopback receiver is not checked)."""
        found = self.resolver(endpoint.host, endpoint.port)
        if not found:
            raise EndpointRefused("the endpoint's host does not resolve", lasting=False)
        if not endpoint.trusted:
            for address, _ in found:
                try:
                    ip = ipaddress.ip_address(address.partition("%")[0])
                except ValueError as err:
                    raise EndpointRefused(f"the endpoint's host resolves to {address!r}", lasting=False) from err
                if not is_public(ip):
                    raise EndpointRefused("the endpoint's host must resolve to public addresses only",
                                          lasting=False)
        return found

    def check(self, url: str) -> Endpoint:
        """The check made when a subscription is stored: its form, and (unless a known push service, looked up
        at each send instead) that its host resolves to public addresses only."""
        endpoint = self.parse(url)
        if not endpoint.trusted and not endpoint.known:
            self.addresses(endpoint)
        return endpoint

    # -- sending ---------------------------------------------------------------------------------------------
    def post(self, url: str, message: Callable[[Endpoint], tuple[bytes, Mapping[str, str]]]) -> int:
        """POST the body and headers ``message`` makes for the endpoint, checked again now, connected to a checked
        address; the answer's status (a redirect is an answer: never followed). ``EndpointRefused`` before any
        message is made or connection opened."""
        endpoint = self.parse(url)
        found = self.addresses(endpoint)
        body, headers = message(endpoint)
        sock = self._connect(endpoint, found)
        # One bound for the whole exchange: a peer trickling its answer cannot hold a sender thread.
        watchdog = threading.Timer(self.connect_timeout + 2 * self.read_timeout, _cut, (sock,))
        watchdog.daemon = True
        watchdog.start()
        try:
            if endpoint.scheme == "https":
                sock = self._tls_context().wrap_socket(sock, server_hostname=endpoint.host)
            conn = _Connected(sock, endpoint.host, self.read_timeout)
            conn.request("POST", endpoint.target, body=body,
                         headers={"Host": endpoint.netloc, "Content-Length": str(len(body)), **headers})
            response = conn.getresponse()
            response.read(4096)
            return int(response.status)
        finally:
            watchdog.cancel()
            sock.close()

    def _connect(self, endpoint: Endpoint, found: list[tuple[str, int]]) -> socket.socket:
        error: OSError | None = None
        for address in found:
            try:
                sock = self.connector(address, self.connect_timeout)
            except OSError as err:
                error = err
                continue
            sock.settimeout(self.read_timeout)
            return sock
        assert error is not None
        raise error

    def _tls_context(self) -> ssl.SSLContext:
        if self._tls is None:
            import certifi

            self._tls = ssl.create_default_context(cafile=certifi.where())
        return self._tls


class _Connected(http.client.HTTPConnection):
    """An HTTP connection over a socket already connected (to a checked address) and maybe wrapped in TLS."""

    def __init__(self, sock: socket.socket, host: str, timeout: float) -> None:
        super().__init__(host, timeout=timeout)
        self._ready = sock

    def connect(self) -> None:
        self.sock = self._ready


def _literal(host: str) -> IPAddress | None:
    """The address ``host`` writes out, if it is one (a name, also ``2130706433``, is resolved instead)."""
    try:
        return ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return None


def _loopback_literal(host: str) -> bool:
    literal = _literal(host)
    return literal is not None and literal.is_loopback


def _cut(sock: Any) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
