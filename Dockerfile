# Phase 10 online: the game server. Migrations run on start, then uvicorn (SIGTERM = graceful shutdown).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /srv
COPY . .
RUN pip install . && useradd --create-home phase10 && mkdir -p /srv/data && chown phase10 /srv/data
USER phase10

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
# X-Forwarded-For is believed only from the addresses in FORWARDED_ALLOW_IPS (uvicorn's own setting, default
# 127.0.0.1): set it to your reverse proxy's address. Trusting every address would let any client pick the
# address the join rate limit counts.
# python -m app.serve: uvicorn with the slow-client limits (header timeout, concurrency, keep-alive, frame size).
CMD ["sh", "-c", "alembic upgrade head && exec python -m app.serve --host 0.0.0.0 --port 8000 --proxy-headers --timeout-graceful-shutdown 10"]
