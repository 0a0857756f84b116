"""Browser test fixtures: a real server (``python -m app.serve``, as deployed) on a free loopback port (its own
SQLite database and a fixed seed, so the deal is known) and Debian's headless Chromium driven by Playwright.

The tests skip cleanly when ``/usr/bin/chromium`` is absent (``apt-get install -y chromium``); Playwright
cannot download its own browsers here, so it is pointed at the system one.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.persistence.db import upgrade

CHROMIUM = Path(os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"))
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.e2e


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if not CHROMIUM.exists():
                item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is not installed"))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say at the end of the run that the browser tests were skipped, and how to run them."""
    if CHROMIUM.exists():
        return
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "tests/e2e/" in r.nodeid]
    if skipped:
        terminalreporter.write_sep("=", f"{len(skipped)} browser tests were skipped: {CHROMIUM} is not installed",
                                   yellow=True, bold=True)
        terminalreporter.write_line("To run them: sudo apt-get install -y chromium (or set E2E_CHROMIUM to a "
                                    "Chromium binary), then run make test again.")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@functools.cache
def migrated_template() -> Path:
    """A SQLite database upgraded to the head (``app.persistence.db.upgrade``, as deployed) once per test run: each
    server's own database starts as a copy of it (an upgrade per server took about 2 s of the suite each)."""
    folder = Path(tempfile.mkdtemp(prefix="phase10-e2e-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    database = folder / "template.db"
    upgrade(f"sqlite:///{database}")
    return database


class Server:
    """A running server (`python -m app.serve`) with its own database (a copy of :func:`migrated_template`, or
    the database already in ``tmp``: a fresh process on a played database); ``url`` is its base URL."""

    def __init__(self, tmp: Path, seed: int, extra_env: dict[str, str] | None = None) -> None:
        self.log = open(tmp / "server.log", "w+b")  # noqa: SIM115 - closed in stop()
        database = tmp / "e2e.db"
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", PHASE10_FIXED_SEED=str(seed),
                   PHASE10_LOG_LEVEL="WARNING", PHASE10_LOG_JSON="false", **(extra_env or {}))
        env.pop("PHASE10_DATABASE_URL", None)
        if not database.exists():
            shutil.copyfile(migrated_template(), database)
        for _attempt in range(3):  # a free port can be taken by someone else before uvicorn binds it
            if self._start(env):
                return
        output = self.output()
        self.stop()
        raise RuntimeError("the server did not start:\n" + output)

    def _start(self, env: dict[str, str]) -> bool:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--log-level", "warning"], cwd=ROOT, env=env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 60  # generous: the suite may share two cores with other work
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        time.sleep(0.3)  # still ours? (a server that lost the port race exits)
                        return self.proc.poll() is None
            except OSError:
                pass
            if self.proc.poll() is not None:
                return False
            time.sleep(0.1)
        self.proc.kill()
        self.proc.wait(10)
        return False

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.log.closed:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


@pytest.fixture()
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``start_server(seed, **env)`` runs a fresh server whose every game uses ``seed`` (``env``: extra
    environment settings such as ``PHASE10_BOT_STAND_IN_GRACE_SECONDS``)."""
    servers: list[Server] = []

    def start(seed: int, **env: str) -> Server:
        sub = tmp_path / f"server{len(servers)}"
        sub.mkdir()
        server = Server(sub, seed, env)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module: Playwright's sync API runs an event loop in this thread, which must be
    gone again before later test packages call ``asyncio.run``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


_FUNCTION = re.compile(r"^\s*(async\b|function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def _without_eval(wait: Callable[..., Any]) -> Callable[..., Any]:
    """``page.wait_for_function`` taking a bare expression as a function: Playwright polls a bare expression
    with ``eval``, which the pages' Content-Security-Policy (``script-src 'self'``) refuses."""

    def wait_for_function(expression: str, *args: Any, **kwargs: Any) -> Any:
        if not _FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return wait(expression, *args, **kwargs)

    return wait_for_function


# Every page reports each Content-Security-Policy violation (the browser's ``securitypolicyviolation`` event) to
# the test through a binding; the init script runs before the page's own scripts, outside the policy.
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => window.p10CspViolation(
  [e.effectiveDirective, e.blockedURI, (e.sourceFile || "") + ":" + e.lineNumber, e.sample].join(" | ")));"""


@pytest.fixture()
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_page(locale=..., width=...)``: a page in its own browser context (its own cookies = own seat).

    Any Content-Security-Policy violation on any of the test's pages fails the test (``page.p10_csp`` holds
    them; a test that provokes one on purpose empties it)."""
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(locale: str = "en-GB", width: int = 1280, height: int = 900, **options: Any) -> Any:
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(20_000)  # roomy: CI shares two cores with the rest of the suite
        contexts.append(context)
        violations: list[str] = []
        context.expose_binding("p10CspViolation", lambda _source, text: violations.append(str(text)))
        context.add_init_script(CSP_WATCH)
        page = context.new_page()
        page.p10_errors = []
        page.p10_csp = violations
        page.on("pageerror", lambda err: page.p10_errors.append(str(err)))
        page.wait_for_function = _without_eval(page.wait_for_function)
        pages.append(page)
        return page

    yield make
    found = [v for page in pages for v in page.p10_csp]
    for context in contexts:
        context.close()
    if found:
        pytest.fail(f"{len(found)} Content-Security-Policy violations, first: {found[:5]}")


def shot(page: Any, name: str, docs: bool = False) -> None:
    """Save a screenshot to test-artifacts/ (and, for the README ones with ``UPDATE_SCREENSHOTS=1``, to
    docs/screenshots/, so that a test run leaves the tree clean)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if docs and os.environ.get("UPDATE_SCREENSHOTS") == "1":
        target = ROOT / "docs" / "screenshots"
        target.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target / f"{name}.png"), full_page=True)  # the whole page, however scrolled
