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


BLANKS = ["\u2800", "\u115f", "\u1160", "\u3164", "\uffa0", "\u2000", "\u200a", "\u3000", "\u180e", "\u2060",
          "\u1680", "\u2028", "\u00a0", "\u205f", "\U0001d159", "\U000e0020"]


def test_blank_looking_characters_are_invisible(client: TestClient) -> None:
    """Braille blank, Hangul fillers, the Unicode spaces, line separators and the like: "host" with any of them
    after it is "host" (409 ``name_taken``), and a name of them only is blank (422)."""
    t = new_table(client, players=1, seats=6)
    for blank in BLANKS:
        r = client.post(f"/api/tables/{t.id}/join", json={"name": f"host{blank}", "code": t.code})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", (hex(ord(blank)), r.text)
        r = client.post(f"/api/tables/{t.id}/join", json={"name": blank * 2, "code": t.code})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", (hex(ord(blank)), r.text)
    assert clean_name("Anna\u2800Lee") == "AnnaLee" and clean_name("Anna\u3000Lee") == "Anna Lee"
    assert same_name("Anna\u2028Lee", "anna lee")


def test_bot_names_are_checked_like_any_name(client: TestClient) -> None:
    """A bot named like a seated player (or a look-alike: a Cyrillic е) is 409 ``name_taken``, a blank bot name
    422; a player named like a bot cannot join; the default bot names avoid the names at the table."""
    t = new_table(client, players=1, seats=6)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Ben", "code": t.code})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    for name, status, code in (("host", 409, "name_taken"), ("B\u0435n", 409, "name_taken"),
                               ("\u2800\u2800", 422, "invalid_request"), ("Anna", 201, None)):
        r = client.post(f"/api/tables/{t.id}/bots", json={"level": "easy", "name": name}, headers=bearer(t.tokens[0]))
        assert r.status_code == status and (code is None or r.json()["error"]["code"] == code), (name, r.text)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "\u0410nna", "code": t.code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Bot 2 (easy)", "code": t.code})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    r = client.post(f"/api/tables/{t.id}/bots", json={"level": "easy"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 201, r.text
    names = [s["name"] for s in client.get(f"/api/tables/{t.id}").json()["seats"]]
    assert names[-1] != "Bot 2 (easy)" and len(names) == 5, names
