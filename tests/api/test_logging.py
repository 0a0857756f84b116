"""Structured logs: one JSON object per line, with the table and game ids."""

from __future__ import annotations

import io
import json
import logging

import pytest

from app.main import JsonFormatter, configure_logging
from app.settings import Settings


def test_log_lines_are_json_with_table_and_game_ids() -> None:
    record = logging.LogRecord("phase10.games", logging.INFO, __file__, 1, "command accepted", None, None)
    record.table_id, record.game_id, record.version = "abc", 7, 12
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "command accepted" and line["level"] == "INFO"
    assert (line["table_id"], line["game_id"], line["version"]) == ("abc", 7, 12)


def test_the_access_line_keeps_a_code_or_token_redacted(capsys: pytest.CaptureFixture[str],
                                                                                   settings: Settings) -> None:
    """uvicorn's access formatter unpacks the record's arguments (client, method, path, version, status): the
    redaction keeps them and replaces only the secret, so the line is written, never a logging error."""
    from uvicorn.logging import AccessFormatter

    configure_logging(settings)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False))
    access = logging.getLogger("uvicorn.access")
    access.addHandler(handler)
    level = access.level
    access.setLevel(logging.INFO)
    try:
        for path in ("/join/abc?code=xyz", "/api/tables/abc/view?token=s3cret&lang=en", "/healthz"):
            access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", path, "1.1", 200)
    finally:
        access.removeHandler(handler)
        access.setLevel(level)
    assert "Logging error" not in capsys.readouterr().err
    assert stream.getvalue().splitlines() == [
        '127.0.0.1:5000 - "GET /join/abc?code=[redacted] HTTP/1.1" 200 OK',
        '127.0.0.1:5000 - "GET /api/tables/abc/view?token=[redacted]&lang=en HTTP/1.1" 200 OK',
        '127.0.0.1:5000 - "GET /healthz HTTP/1.1" 200 OK',
    ]


@pytest.mark.parametrize("query", [
    "%74oken=S3CRET", "%54OKEN=S3CRET&lang=en", "lang=en&to%6Ben=S3CRET", "%2574oken=S3CRET", "c%6fde=S3CRET",
    "sh%61re=S3CRET", "%74oken%3DS3CRET", "a=1;token=S3CRET", "t%00oken=x&%73hare=S3CRET",
])
def test_a_percent_encoded_secret_key_is_redacted(query: str) -> None:
    """The key is read after decoding (any spelling, any case, encoded twice): the secret never shows."""
    from app.main import RedactSecrets

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", f"/ws/tables/T?{query}", "1.1", 200), None)
    RedactSecrets().filter(record)
    line = record.getMessage()
    assert "S3CRET" not in line and "[redacted]" in line and line.startswith('127.0.0.1:5000 - "GET /ws/tables/T?')

