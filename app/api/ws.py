"""The table websocket ``/ws/tables/{table_id}`` (docs/protocol.md). Thin: parse, delegate, reply."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.persistence.db import database_unavailable
from app.realtime.hub import HEARTBEAT, SEND_NOW, Connection, Hub
from app.rules.core.errors import RuleError
from app.services.errors import ServiceError, sentence
from app.services.games import GameService, Viewer
from app.services.seat_transfer import token_tag
from app.services.security import AttemptCounter
from app.services.text import check_texts, control_character
from app.settings import Settings

from .deps import cookie_name, origin_allowed
from .schemas import INT_MAX

router = APIRouter()
CLOSING_SECONDS = 5.0  # how long a closing socket waits for the peer's close frame


UNAVAILABLE = "the database is unavailable; try again shortly"


def _error(ref: Any, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "ref": ref, "code": code, "message": sentence(message)}


def _header_token(ws: WebSocket) -> str | None:
    auth = ws.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def _query_number(name: str, text: str | None) -> tuple[int | None, dict[str, Any] | None]:
    """A query number (``since``, ``game``) and, for one that is not an integer of 0 to 2^31-1, the error frame
    the socket gets first (``invalid_since``); such a number is as good as none (a fresh snapshot)."""
    if text is None:
        return None, None
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None
    if number is None or number > INT_MAX:
        return None, _error(None, "invalid_since", f"{name} must be an integer of 0 to 2^31-1: sending a snapshot")
    return number, None


async def _receive(ws: WebSocket) -> str | None:
    """The next text frame (bytes are decoded); ``None`` when the peer disconnected."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    return data.decode("utf-8", errors="replace")


def _parse(text: str, limit: int) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    if len(text.encode()) > limit:
        return None, _error(None, "message_too_large", f"messages are limited to {limit} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, _error(None, "malformed_json", "the message is not valid JSON")
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        return None, _error(None, "invalid_message", "a message is an object with a 'type'")
    return data, None


async def _still_signed_in(conn: Connection, service: GameService, token: str) -> bool:
    """Check the socket's token once more after it joined its seat; if it stopped working (the seat moved to
    another device in between), send ``bad_token`` and close with 4401. The hub closes a moved seat's sockets
    when the move's message arrives, but a socket that signed in just before the move and joined just after
    that message would have stayed: checking after joining closes the gap (either this check sees the move, or
    the message finds the socket)."""
    try:
        await asyncio.to_thread(service.authenticate, conn.table_id, token)
    except ServiceError as err:
        conn.send(_error(None, err.code, err.message))
        conn.close(4401, "signed out", flush=True)
        return False
    return True


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, since: str | None = None, game: str | None = None,
                       token: str | None = None, patch: str | None = None) -> None:
    service: GameService = ws.app.state.service
    hub: Hub = ws.app.state.hub
    settings: Settings = ws.app.state.settings
    failures: AttemptCounter = ws.app.state.ws_auth_failures
    address = ws.client.host if ws.client else "unknown"
    if not origin_allowed(ws, settings):
        await ws.close(4403, "origin not allowed")  # before the accept: the handshake answers 403
        return
    (since_number, since_problem), (game_number, game_problem) = _query_number("since", since), \
        _query_number("game", game)
    limit = settings.ws_max_message_bytes
    token = token or _header_token(ws) or ws.cookies.get(cookie_name(table_id))
    await ws.accept()
    for problem in (since_problem, game_problem):
        if problem is not None:
            await ws.send_json(problem)
    if failures.blocked(address):
        await ws.send_json(_error(None, "rate_limited", "too many failed authentications; try again later"))
        await ws.close(4429)
        return
    viewer: Viewer | None = None
    signed_with = token  # the token the socket's seat signed in with
    failed = 0
    try:
        viewer, _ = await asyncio.to_thread(service.authenticate, table_id, token)
    except Exception as err:
        if not isinstance(err, ServiceError):
            if not database_unavailable(err):
                raise
            await ws.send_json(_error(None, "database_unavailable", UNAVAILABLE))
            await ws.close(1013)  # try again later: the page reconnects
            return
        await ws.send_json(_error(None, err.code, err.message))
        if token and err.code == "bad_token":
            failures.hit(address)
        if err.code != "bad_token" or token:
            await ws.close(4404 if err.code == "table_not_found" else 4401)
            return
    while viewer is None:  # no token and no spectators: the first message must be {"type": "auth"}
        try:
            text = await asyncio.wait_for(_receive(ws), settings.ws_auth_timeout_seconds)
        except TimeoutError:
            await ws.close(4401)
            return
        if text is None:
            return
        data, problem = _parse(text, limit)
        if data is None or data["type"] != "auth" or not isinstance(data.get("token"), str):
            await ws.send_json(problem or _error(None, "bad_token", "send {\"type\": \"auth\", \"token\"} first"))
            continue
        try:
            viewer, _ = await asyncio.to_thread(service.authenticate, table_id, data["token"])
            signed_with = data["token"]
        except ServiceError as err:
            await ws.send_json(_error(None, err.code, err.message))
            failures.hit(address)
            failed += 1
            if failed >= settings.ws_auth_failures_per_connection or failures.blocked(address):
                await ws.close(4401)
                return

    extensions = ws.scope.get("extensions") or {}
    heartbeat = extensions.get(HEARTBEAT)  # from now on the server answers the heartbeat's messages itself
    conn = Connection(ws, table_id, viewer.seat_id, settings.ws_send_queue, since=since_number, game_id=game_number,
                      send_now=extensions.get(SEND_NOW), patches=patch == "1",
                      heard_at=heartbeat() if heartbeat is not None else None)
    conn.token_tag = token_tag(signed_with) if signed_with else None
    hub.attach(conn)
    if signed_with:
        await _still_signed_in(conn, service, signed_with)

    def auth_failed() -> bool:
        """Count a failed re-authentication; true when the socket must close."""
        nonlocal failed
        failures.hit(address)
        failed += 1
        return failed >= settings.ws_auth_failures_per_connection
    try:
        while True:
            try:
                # A closing socket (a last error frame being flushed) waits for the peer's close, not longer.
                text = await (asyncio.wait_for(_receive(ws), CLOSING_SECONDS) if conn.closed else _receive(ws))
            except (WebSocketDisconnect, RuntimeError, TimeoutError):
                break
            if text is None:
                break
            if conn.closed:
                continue
            conn.heard()
            data, problem = _parse(text, limit)
            if data is None:
                assert problem is not None
                conn.send(problem)
                continue
            await _handle(conn, data, service, hub, auth_failed)
    finally:
        hub.detach(conn)


async def _handle(conn: Connection, data: dict[str, Any], service: GameService, hub: Hub,
                  auth_failed: Callable[[], bool]) -> None:
    kind = data["type"]
    if kind == "ping":
        conn.send({"type": "pong", "ref": data.get("ref")})
    elif kind == "visibility":
        visible = data.get("visible")
        if not isinstance(visible, bool):
            conn.send(_error(None, "invalid_message", "visible must be true or false"))
            return
        hub.set_visible(conn, visible)
    elif kind == "pong":
        pass  # the answer to the server's heartbeat ping: hearing it was the point
    elif kind == "auth":
        try:
            viewer, _ = await asyncio.to_thread(service.authenticate, conn.table_id, data.get("token"))
        except ServiceError as err:
            conn.send(_error(None, err.code, err.message))
            if auth_failed():
                conn.close(4401, "too many failed authentications", flush=True)
            return
        conn.reset(viewer.seat_id)
        conn.token_tag = token_tag(data["token"]) if data.get("token") else None
        if data.get("token") and not await _still_signed_in(conn, service, data["token"]):
            return
        hub.wake_local(conn.table_id)
    elif kind == "command":
        ref = data.get("command_id")
        expected = data.get("expected_version")
        if not isinstance(ref, str) or not 0 < len(ref) <= 64 or control_character(ref) is not None:
            conn.send(_error(ref, "invalid_command",
                             "command_id must be a string of 1-64 characters (no control characters)"))
            return
        try:
            check_texts(data.get("command"))
        except ValueError as err:
            conn.send(_error(ref, "invalid_command", f"command: {err}"))
            return
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)
                                     or not 0 <= expected <= INT_MAX):
            conn.send(_error(ref, "invalid_command", "expected_version must be an integer (0 to 2^31-1)"))
            return
        try:
            result = await service.submit_on_loop(conn.table_id, conn.seat_id, ref, expected, data.get("command"))
        except (ServiceError, RuleError) as err:
            conn.send(_error(ref, err.code, err.message))
            return
        except Exception as err:
            if not database_unavailable(err):
                raise
            conn.send(_error(ref, "database_unavailable", UNAVAILABLE))  # sent again with its command_id
            return
        conn.send({"type": "ack", "ref": ref, "version": result["version"], "duplicate": result["duplicate"]})
    else:
        conn.send(_error(data.get("command_id"), "unknown_type", f"unknown message type {kind!r}"))
