"""``python -m app.serve``: the uvicorn command line carries the slow-client limits from the settings, the
protocol class it names is importable by uvicorn, and options given later win (a host may override)."""

from __future__ import annotations

from uvicorn.importer import import_from_string
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.serve import GuardedHttpTools, uvicorn_args
from app.settings import get_settings


def _option(args: list[str], name: str) -> str:
    """The value uvicorn will use: the last occurrence of ``name`` (click keeps the last)."""
    return args[len(args) - 1 - args[::-1].index(name) + 1]


def test_the_command_line_carries_the_limits() -> None:
    settings = get_settings()
    args = uvicorn_args(["--port", "9"])
    assert args[0] == "app.main:app"
    assert _option(args, "--limit-concurrency") == str(settings.http_limit_concurrency)
    assert _option(args, "--timeout-keep-alive") == str(settings.http_keep_alive_seconds)
    assert _option(args, "--ws-max-size") == str(settings.ws_max_frame_bytes)
    assert "--no-server-header" in args
    assert import_from_string(_option(args, "--http")) is GuardedHttpTools
    assert issubclass(GuardedHttpTools, HttpToolsProtocol)
    assert _option(uvicorn_args(["--limit-concurrency", "7"]), "--limit-concurrency") == "7"
