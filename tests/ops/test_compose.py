"""The compose file and the Dockerfile agree with the settings: services, ports, environment."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy.engine import make_url

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def test_compose_services_ports_and_env_agree_with_settings() -> None:
    compose = _compose()
    services = compose["services"]
    assert set(services) == {"app", "db", "proxy"}
    db, app = services["db"], services["app"]
    assert db["image"] == "postgres:16"
    volume = db["volumes"][0].split(":")
    assert volume[0] in compose["volumes"] and volume[1] == "/var/lib/postgresql/data"
    env = app["environment"]
    known = {"DATABASE_URL", "FORWARDED_ALLOW_IPS"} | {f"PHASE10_{name.upper()}" for name in Settings.model_fields}
    assert set(env) <= known, set(env) - known
    settings = Settings(**{k: v for k, v in env.items() if k == "DATABASE_URL"},
                        **{k.removeprefix("PHASE10_").lower(): v for k, v in env.items() if k.startswith("PHASE10_")})
    assert settings.is_postgres and settings.use_pg_hub
    url = make_url(settings.database_url)
    assert url.drivername == "postgresql+psycopg" and url.host == "db" and url.port == 5432
    pg = db["environment"]
    assert (url.username, url.password, url.database) == (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"],
                                                          pg["POSTGRES_DB"])
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    command = " ".join(app["command"])
    assert "alembic upgrade head" in command and "python -m app.serve" in command
    port = re.search(r"--port (\d+)", command)
    assert port is not None
    assert "ports" not in app and app["expose"] == [port.group(1)]  # reached only through the proxy


def test_dockerfile_runs_migrations_and_exposes_the_port() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "EXPOSE 8000" in text and "alembic upgrade head" in text and "/healthz" in text
    assert (ROOT / "alembic.ini").exists() and (ROOT / "migrations" / "env.py").exists()


def test_forwarded_addresses_are_believed_only_from_the_proxy() -> None:
    """The join rate limit counts per client address: only the reverse proxy may name it (X-Forwarded-For),
    and the compose service runs exactly the Dockerfile's command."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (.+)$", dockerfile, re.M)
    assert cmd is not None
    compose = _compose()["services"]["app"]
    assert yaml.safe_load(cmd.group(1)) == compose["command"]
    for text in (dockerfile, " ".join(compose["command"])):
        assert "forwarded-allow-ips" not in text  # uvicorn reads FORWARDED_ALLOW_IPS (default 127.0.0.1)
    assert "*" not in compose["environment"]["FORWARDED_ALLOW_IPS"]


def test_the_proxy_is_the_only_entry_and_trusted_forwarder() -> None:
    """Caddy (deploy/Caddyfile, checked with the real binary in test_caddy.py) publishes the port and passes to
    the app's port; FORWARDED_ALLOW_IPS is exactly the proxy's fixed address on the compose network."""
    compose = _compose()
    proxy, app = compose["services"]["proxy"], compose["services"]["app"]
    assert proxy["image"].startswith("caddy:")
    assert proxy["volumes"] == ["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"]
    assert (ROOT / "deploy" / "Caddyfile").exists()
    assert proxy["environment"]["PHASE10_UPSTREAMS"].split()[:4] == ["dynamic", "a", "app", app["expose"][0]]
    published = proxy["ports"][0].split(":")
    assert published == ["8000", proxy["environment"]["PHASE10_SITE"].lstrip(":")]
    address = proxy["networks"]["default"]["ipv4_address"]
    assert app["environment"]["FORWARDED_ALLOW_IPS"] == address
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)


def _seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(s|m)", value)
    assert match is not None, value
    return int(match.group(1)) * (60 if match.group(2) == "m" else 1)


def test_the_app_scales_out_behind_the_proxy_with_readiness() -> None:
    """`docker compose up --scale app=3`: the app service has no fixed name or host port, the proxy reaches every
    replica (dynamic A records of `app`) and waits for them to be ready (/readyz on the app's port); a stopped
    replica finishes its requests before compose would kill it."""
    compose = _compose()
    proxy, app = compose["services"]["proxy"], compose["services"]["app"]
    assert "container_name" not in app and "ports" not in app
    port = app["expose"][0]
    check = " ".join(app["healthcheck"]["test"])
    assert f"http://127.0.0.1:{port}/readyz" in check
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    assert "refresh" in proxy["environment"]["PHASE10_UPSTREAMS"]
    grace = re.search(r"--timeout-graceful-shutdown (\d+)", " ".join(app["command"]))
    assert grace is not None and int(grace.group(1)) < _seconds(app["stop_grace_period"])
