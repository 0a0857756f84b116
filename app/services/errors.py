"""Service errors with an HTTP status and a stable code (engine errors are ``RuleError``)."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the server refuses: ``status`` for HTTP, ``code`` stable, optional ``field``."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.field = field


def sentence(message: str) -> str:
    """An error message as clients receive it: a sentence that starts with a capital (the engine's and the
    services' messages are written in lower case, as they are embedded in log lines)."""
    return message[:1].upper() + message[1:]


def table_not_found(table_id: str) -> ServiceError:
    return ServiceError(404, "table_not_found", f"no table {table_id!r}")


def bad_token(message: str = "unknown or missing seat token") -> ServiceError:
    return ServiceError(401, "bad_token", message)
