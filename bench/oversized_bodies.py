"""Server memory under oversized request bodies: eight 50 MB bodies at once to the unauthenticated
``POST /api/tables``, then one 300 MB chunked body; prints the server process's resident memory before,
its peak (VmHWM) and after, and what the client got back.

    .venv/bin/python bench/oversized_bodies.py [--root DIR]

``--root`` runs another checkout of the server (e.g. an older commit unpacked with ``git archive``) with this
virtual environment: ``python -m app.serve`` when it has one, else ``python -m uvicorn app.main:app``. The
database is a scratch SQLite file.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
MB = 2**20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _post(url: str, content: bytes | Iterator[bytes], out: list[str]) -> None:
    try:
        r = httpx.post(url, content=content, headers={"content-type": "application/json"}, timeout=120)
        out.append(f"{r.status_code} {r.text[:60]}")
    except httpx.HTTPError as err:
        out.append(f"{type(err).__name__}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the server's source tree")
    args = parser.parse_args()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        url_db = f"sqlite:///{tmp}/bench.db"
        env = {**os.environ, "DATABASE_URL": url_db, "PHASE10_LOG_LEVEL": "WARNING", "PYTHONPATH": str(root)}
        subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=root, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = _free_port()
        serve = ["-m", "app.serve"] if (root / "app" / "serve.py").exists() else ["-m", "uvicorn", "app.main:app"]
        proc = subprocess.Popen([sys.executable, *serve, "--host", "127.0.0.1", "--port", str(port)], cwd=root,
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            httpx.post(f"{base}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Warm"})
            before, _ = _memory(proc.pid)
            body = b"x" * (50 * MB)
            answers: list[str] = []
            threads = [threading.Thread(target=_post, args=(f"{base}/api/tables", body, answers)) for _ in range(8)]
            started = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            eight = time.monotonic() - started
            after_eight, _ = _memory(proc.pid)

            def chunks() -> Iterator[bytes]:
                piece = b"x" * MB
                for _ in range(300):
                    yield piece

            chunked: list[str] = []
            started = time.monotonic()
            _post(f"{base}/api/tables", chunks(), chunked)
            one = time.monotonic() - started
            time.sleep(2)
            after, peak = _memory(proc.pid)
            ok = httpx.post(f"{base}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "After"})
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"server: {root} ({' '.join(serve[1:])})")
    print(f"RSS before: {before:.0f} MB")
    print(f"8 x 50 MB bodies at once: {eight:.1f} s, answers {sorted(set(answers))}; RSS after: {after_eight:.0f} MB")
    print(f"1 x 300 MB chunked body: {one:.1f} s, answer {chunked}")
    print(f"RSS 2 s after: {after:.0f} MB; peak RSS (VmHWM): {peak:.0f} MB")
    print(f"a normal request afterwards: {ok.status_code}")


if __name__ == "__main__":
    main()
