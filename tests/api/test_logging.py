"""Structured logs: one JSON object per line, with the table and game ids."""

from __future__ import annotations

import json
import logging

from app.main import JsonFormatter


def test_log_lines_are_json_with_table_and_game_ids() -> None:
    record = logging.LogRecord("phase10.games", logging.INFO, __file__, 1, "command accepted", None, None)
    record.table_id, record.game_id, record.version = "abc", 7, 12
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "command accepted" and line["level"] == "INFO"
    assert (line["table_id"], line["game_id"], line["version"]) == ("abc", 7, 12)
