"""Every error as ``{"error": {"code", "message"}}`` (plus ``field`` for validation errors), a failure of the
server's own too: a database that cannot be reached is 503 ``database_unavailable`` with ``Retry-After``, anything
else unexpected 500 ``server_error`` (never a plain-text answer)."""

from __future__ import annotations

import logging

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import metrics
from app.persistence.db import database_unavailable
from app.persistence.hot import HotUnavailable
from app.rules.core.errors import InvalidCommand, InvalidOptions, NotYourTurn, RuleError
from app.services.archive import RecordError
from app.services.errors import ServiceError, sentence

log = logging.getLogger("phase10.api")

# Seconds a client is asked to wait before trying again while the database is unreachable (a restart takes a few).
RETRY_AFTER_SECONDS = 2


def unavailable_response() -> JSONResponse:
    """503 ``database_unavailable``: the database cannot be reached now; nothing was changed, or the command may
    be sent again with the same ``command_id``."""
    return JSONResponse(error_body("database_unavailable", "the database is unavailable; try again shortly"),
                        status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def error_body(code: str, message: str, field: str | None = None) -> dict[str, dict[str, str]]:
    body = {"code": code, "message": sentence(message)}
    if field is not None:
        body["field"] = field
    return {"error": body}


def rule_status(err: RuleError) -> int:
    """InvalidCommand and InvalidOptions -> 422, NotYourTurn -> 403, any other engine error -> 409."""
    if isinstance(err, InvalidCommand | InvalidOptions):
        return 422
    if isinstance(err, NotYourTurn):
        return 403
    return 409


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service(_request: Request, err: ServiceError) -> JSONResponse:
        if err.status == 429:
            metrics.RATE_LIMITED.labels(err.code).inc()
        return JSONResponse(error_body(err.code, err.message, err.field), status_code=err.status)

    @app.exception_handler(RecordError)
    async def _record(_request: Request, err: RecordError) -> JSONResponse:
        status = 404 if err.code == "table_not_found" else 422
        return JSONResponse(error_body(err.code, err.message), status_code=status)

    @app.exception_handler(RuleError)
    async def _rule(_request: Request, err: RuleError) -> JSONResponse:
        field = err.field if isinstance(err, InvalidOptions) else None
        return JSONResponse(error_body(err.code, err.message, field), status_code=rule_status(err))

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {"loc": (), "msg": "invalid request"}
        loc = [str(x) for x in first.get("loc", ()) if x not in ("body", "query", "path")]
        field = ".".join(loc) or None
        message = f"{field}: {first.get('msg')}" if field else str(first.get("msg"))
        return JSONResponse(error_body("invalid_request", message, field), status_code=422)

    async def _database(request: Request, err: Exception) -> JSONResponse:
        if database_unavailable(err):
            log.warning("database unavailable: %s %s: %s", request.method, request.url.path,
                        str(err).splitlines()[0] if str(err) else type(err).__name__)
            return unavailable_response()
        log.error("unexpected database error: %s %s", request.method, request.url.path, exc_info=err)
        return JSONResponse(error_body("server_error", "the server failed to answer this request"), status_code=500)

    # Database errors are answered here (no traceback per request while the database is down); any other
    # unexpected exception by the catch-all below, which the server also logs.
    for kind in (exc.DBAPIError, exc.DisconnectionError, psycopg.Error, HotUnavailable):
        app.add_exception_handler(kind, _database)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, err: Exception) -> JSONResponse:
        if database_unavailable(err):
            return unavailable_response()
        return JSONResponse(error_body("server_error", "the server failed to answer this request"), status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, err: StarletteHTTPException) -> JSONResponse:
        if err.status_code == 400 and err.__cause__ is not None:
            # FastAPI could not parse the body (nested too deeply for the JSON parser, a broken encoding):
            # like any malformed body, an invalid request.
            return JSONResponse(error_body("invalid_request", "the request body could not be parsed"),
                                status_code=422)
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        return JSONResponse(error_body(code, str(err.detail)), status_code=err.status_code)
