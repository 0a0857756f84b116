"""Schemathesis against the app's own OpenAPI schema: every operation with valid and invalid data (its
positive and negative modes, NUL characters included), half the cases aimed at a real table with a real
seat token so they get past the 404 and the 401. Zero 5xx answers; every 4xx is a JSON error with a
``code``. The count of cases run is printed (``-s``) and checked to be well above the operation count."""

from __future__ import annotations

import copy
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode

from app.main import create_app
from app.rules import registry
from app.settings import Settings
from tests.server_helpers import new_table

EXAMPLES = 20  # per operation: ~22 operations; with the stateful run about 1.5 min on the shared 2-core machine
_RUN: dict[str, Any] = {"cases": 0, "statuses": {}}


@pytest.fixture(scope="module")
def real(database_url: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A running app and its fixture tables: a started game and a waiting room (host tokens)."""
    app_settings = Settings(database_url=database_url, log_level="CRITICAL")
    with TestClient(create_app(app_settings)) as client:
        started = new_table(client, players=2, start=True)
        waiting = new_table(client, players=1, seats=4)
        yield client, {"started": started.id, "started_token": started.tokens[0], "waiting": waiting.id,
                       "waiting_token": waiting.tokens[0]}
    print(f"\nschemathesis: {_RUN['cases']} cases, statuses {dict(sorted(_RUN['statuses'].items()))}")


# The schema as the app publishes it at /openapi.json (building the app opens no database connection).
OPENAPI = create_app(Settings(database_url="sqlite://", log_level="CRITICAL")).openapi()
schema = schemathesis.openapi.from_dict(OPENAPI)


def _stateful_schema() -> Any:
    """For sequences, tables must get created: the rule set ids the registry holds and no options (random
    option names are refused; the stateless run above fuzzes them)."""
    raw = copy.deepcopy(OPENAPI)
    create = raw["components"]["schemas"]["CreateTable"]["properties"]
    create["ruleset"] = {"type": "string", "enum": sorted(registry.ruleset_ids())}
    create["options"] = {"type": "object", "maxProperties": 0}
    return schemathesis.openapi.from_dict(raw)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_5xx_and_every_4xx_is_a_json_error_with_a_code(case: Any, real: tuple[TestClient, dict[str, str]]) -> None:
    client, tables = real
    params = case.path_parameters or {}
    if "table_id" in params:
        pick = zlib.crc32(repr(params["table_id"]).encode()) % 3  # deterministic: a third stay random
        if pick:
            kind = "started" if pick == 1 else "waiting"
            params["table_id"] = tables[kind]
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tables[kind + '_token']}"}
    # Sent through the running app's client (its event loop, where the bot runner and the hub live).
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    body = {k: kwargs[k] for k in ("json", "data", "content", "files") if kwargs.get(k) is not None}
    if isinstance(body.get("data"), bytes | str):
        body["content"] = body.pop("data")
    client.cookies.clear()
    client.cookies.update(kwargs.get("cookies") or {})
    response = client.request(kwargs["method"], kwargs["url"], params=kwargs.get("params"),
                              headers=kwargs.get("headers"), **body)
    _RUN["cases"] += 1
    _RUN["statuses"][response.status_code] = _RUN["statuses"].get(response.status_code, 0) + 1
    assert response.status_code < 500, (case.method, case.formatted_path, response.status_code, response.text[:300])
    if 400 <= response.status_code < 500:
        assert response.headers.get("content-type", "").startswith("application/json"), response.text[:300]
        error = response.json()["error"]
        assert isinstance(error["code"], str) and error["code"], error


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = OPENAPI["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _typed_properties() -> dict[tuple[str, str], dict[str, str]]:
    """(method, path) -> {body property: "boolean" | "integer"}: where a string must never be taken."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    for path, operations in OPENAPI["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if not body:
                continue
            body = _resolve(body)
            for option in body.get("anyOf", [body]):
                for name, prop in _resolve(option).get("properties", {}).items():
                    kinds = {_resolve(p).get("type") for p in [prop, *prop.get("anyOf", [])]} & {"boolean", "integer"}
                    if kinds:
                        out.setdefault((method.upper(), path), {})[name] = kinds.pop()
    return out


TYPED = _typed_properties()
strict_schema = schemathesis.openapi.from_dict(OPENAPI).include(
    func=lambda ctx: (ctx.operation.method.upper(), ctx.operation.path) in TYPED)
strict_schema.config.generation.update(modes=[GenerationMode.POSITIVE])
AS_STRING = {"boolean": "true", "integer": "1"}  # what a lax parser would take for true and 1


@strict_schema.parametrize()
@settings(max_examples=5, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_a_string_where_a_boolean_or_number_belongs_is_422(case: Any, real: tuple[TestClient, dict[str, str]]) -> None:
    """Strict types: schemathesis makes valid bodies; each boolean or integer property in turn is sent as a
    string instead (``"true"``, ``"1"``). A body the server takes as it was generated must then be refused:
    422 ``invalid_request`` naming that property (a lax parser took ``{"accept": "yes"}`` as true)."""
    client, tables = real
    params = case.path_parameters or {}
    headers = dict(case.headers or {})
    if "table_id" in params:
        params["table_id"] = tables["started"]
        headers["Authorization"] = f"Bearer {tables['started_token']}"
    if not isinstance(case.body, dict):
        return
    url = case.formatted_path
    client.cookies.clear()
    for name, kind in TYPED[(case.method.upper(), case.path)].items():
        if name not in case.body:
            continue
        as_generated = client.request(case.method, url, json=case.body, headers=headers)
        if as_generated.status_code == 422:  # refused for another reason (a name of spaces only ...)
            continue
        mutated = {**case.body, name: AS_STRING[kind]}
        r = client.request(case.method, url, json=mutated, headers=headers)
        _RUN["strict"] = _RUN.get("strict", 0) + 1
        assert r.status_code == 422, (case.method, url, name, mutated, r.status_code, r.text[:300])
        assert r.json()["error"]["code"] == "invalid_request" and r.json()["error"]["field"] == name, r.text


def test_schemathesis_ran_many_cases(real: tuple[TestClient, dict[str, str]]) -> None:
    """Runs after the generated tests of this module: they did run, and more than one case each."""
    if _RUN["cases"] == 0:
        pytest.skip("the generated tests were deselected")
    assert _RUN["cases"] >= 100, _RUN
    assert _RUN.get("strict", 0) >= 10, _RUN  # strict type checks: bodies sent with a string in a typed place


def test_stateful_sequences_follow_the_links_between_operations(real: tuple[TestClient, dict[str, str]]) -> None:
    """Stateful: schemathesis links operations by their data (a created table's id and token feed the table
    operations: join, start, view, commands, bots, chat ...) and runs random sequences of them. The same
    two promises hold at every step."""
    client, _ = real
    base = _stateful_schema().as_state_machine()
    steps: list[int] = []
    tokens: dict[str, str] = {}  # table id -> a seat token, from the create and join answers

    class Workflow(base):  # type: ignore[misc, valid-type]
        def call(self, case: Any, **kwargs: Any) -> Any:
            table_id = (case.path_parameters or {}).get("table_id")
            if table_id in tokens and zlib.crc32(case.id.encode()) % 4:  # mostly with the seat's token
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[table_id]}"}
            kwargs = case.as_transport_kwargs(base_url="http://testserver")
            body = {k: kwargs[k] for k in ("json", "data", "content") if kwargs.get(k) is not None}
            if isinstance(body.get("data"), bytes | str):
                body["content"] = body.pop("data")
            client.cookies.clear()
            response = client.request(kwargs["method"], kwargs["url"], params=kwargs.get("params"),
                                      headers=kwargs.get("headers"), **body)
            steps.append(response.status_code)
            if response.status_code in (200, 201) and case.method == "POST" and \
                    case.path in ("/api/tables", "/api/tables/{table_id}/join"):
                tokens[response.json()["table_id"]] = response.json()["token"]
            return schemathesis.Response.from_any(response)

        def validate_response(self, response: Any, case: Any, *args: Any, **kwargs: Any) -> None:
            assert response.status_code < 500, (case.method, case.formatted_path, response.status_code)
            if 400 <= response.status_code < 500:
                error = response.json()["error"]
                assert isinstance(error["code"], str) and error["code"], error

    Workflow.run(settings=settings(max_examples=30, stateful_step_count=8, deadline=None, derandomize=True,
                                   suppress_health_check=list(HealthCheck)))
    print(f"\nschemathesis stateful: {len(steps)} calls, statuses {dict(sorted(Counter(steps).items()))}")
    assert len(steps) >= 30 and 201 in steps
