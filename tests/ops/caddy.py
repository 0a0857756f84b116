"""The real Caddy proxy (Debian's ``caddy``, installed by ``.ci/run``) run with deploy/Caddyfile in front of real
app processes, for the proxy and scale-out tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.realtime.processes import ROOT, Server, _free_port, stop_process, wait_until_answers

CADDY = shutil.which("caddy")
needs_caddy = pytest.mark.skipif(CADDY is None and not os.environ.get("CI"), reason="caddy is not installed")


@contextmanager
def caddy_in_front_of(apps: Sequence[Server], home: Path, ready_path: str = "/healthz",
                      seconds: float = 60) -> Iterator[str]:
    """Start Caddy with deploy/Caddyfile on a free port proxying to ``apps``; yield its host:port once
    ``ready_path`` answers 200 through it (the apps are waited for too); stop the proxy and the apps after."""
    assert CADDY is not None, "CI installs caddy (.ci/run)"
    port = _free_port()
    env = {**os.environ, "PHASE10_SITE": f":{port}", "PHASE10_UPSTREAMS": "to " + " ".join(a.url for a in apps),
           "HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    proxy = subprocess.Popen([CADDY, "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
                             env=env, cwd=home, stdout=subprocess.DEVNULL, stderr=(home / "caddy.log").open("wb"))
    try:
        deadline = time.monotonic() + seconds
        for app in apps:
            app.wait_ready(deadline)
        wait_until_answers(f"http://127.0.0.1:{port}{ready_path}", deadline, proxy, home / "caddy.log")
        yield f"127.0.0.1:{port}"
    finally:
        stop_process(proxy)
        for app in apps:
            app.stop()
