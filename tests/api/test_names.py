"""Names a player can tell apart: NFKC, no invisible characters, and ``name_taken`` by confusable skeleton
(``confusable-homoglyphs``); chat texts are cleaned the same way."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.services.text import clean_chat, clean_name, same_name
from tests.server_helpers import bearer, new_table

LOOK_ALIKES = ["ho\u200bst", "\ufeffhost", "ｈｏｓｔ", "\u202ehost", "HOST", " host ", "h\u043est", "h\u03bfst",
               "ho\u00adst", "h\u200dost\u2060", "\u2066host\u2069"]


def test_a_name_that_looks_like_a_seated_one_is_taken(client: TestClient) -> None:
    """While "host" is seated, invisible characters, full width, bidi overrides, Cyrillic or Greek look-alikes
    and case do not make another name: 409 ``name_taken``; a name of invisible characters only is refused."""
    t = new_table(client, players=1, seats=6)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "host", "code": t.code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"  # "Host" is seated
    for name in LOOK_ALIKES:
        r = client.post(f"/api/tables/{t.id}/join", json={"name": name, "code": t.code})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", (name, r.text)
    for name in ("\u200b\u200b\u200b", "\u202e", " \ufeff ", "\u3164"):
        r = client.post(f"/api/tables/{t.id}/join", json={"name": name, "code": t.code})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", (name, r.text)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Ｂｅｎ\u200b", "code": t.code})
    assert r.status_code == 200, r.text
    assert [s["name"] for s in client.get(f"/api/tables/{t.id}").json()["seats"]] == ["Host", "Ben"]
    client.cookies.clear()
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Ghost", "code": t.code})
    assert r.status_code == 200, r.text  # a different name still joins
    client.cookies.clear()


def test_chat_texts_are_normalised(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    client.cookies.clear()
    r = client.post(f"/api/tables/{t.id}/chat", json={"text": "\u202eｈｉ\u200b 👨\u200d👩\u200d👧"},
                    headers=bearer(t.tokens[0]))
    assert r.status_code == 201, r.text
    assert r.json()["text"] == "hi 👨\u200d👩\u200d👧"  # the joiner that builds the emoji stays
    r = client.post(f"/api/tables/{t.id}/chat", json={"text": "\u200b\u2060"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("a, b, same", [
    ("host", "HOST", True), ("Anna", "\u0410nna", True), ("Bill", "BiII", True), ("max", "rnax", True),
    ("Anna Lee", "anna  lee", True), ("Anna", "Ann", False), ("Ben", "Ben2", False), ("Éva", "Eva", False),
    ("Jo", "J0", False), ("host", "ghost", False),
])
def test_names_compare_by_their_confusable_skeleton(a: str, b: str, same: bool) -> None:
    assert same_name(a, b) is same


def test_cleaning_keeps_what_is_seen() -> None:
    assert clean_name("  ｆｕｌｌ\u200b width\u202e ") == "full width"
    assert clean_name("\ufb01ne") == "fine"  # the ligature becomes its letters
    assert clean_chat("ok\ufe0f\u200d") == "ok\ufe0f\u200d"
