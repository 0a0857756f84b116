"""Page routes: lobby, join, waiting room + table, replay (Jinja2 templates, plain JS in ``static/``).

Pages carry no game state at all: the browser fetches its own seat's view over the API and the table's
websocket (C-9). The only data rendered here is public: the rule sets with their option schemas, the
interface text in the chosen language, and the players' rules summary from ``docs/rules.md``.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from app.rules import registry

from . import i18n

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = Jinja2Templates(directory=str(ROOT / "templates"))
STATIC_DIR = ROOT / "static"
RULES_DOC = ROOT / "docs" / "rules.md"
README = ROOT / "README.md"
INVITE_SECTION = "Play with friends elsewhere"  # the README section /help/invite shows

router = APIRouter(include_in_schema=False)


@cache
def _default_phases(rid: str) -> list[Any]:
    """The rule set's own phase list (what a custom list starts from in the editor), read from a spectator's
    view of a fresh game: public data only."""
    rs = registry.get(rid)
    view = rs.player_view(rs.new_game(0, rs.min_players, rs.parse_options({})), None)
    return [p["groups"] for p in view.get("phases", [])]


def _rulesets() -> list[dict[str, Any]]:
    out = []
    for rid in registry.ruleset_ids():
        rs = registry.get(rid)
        schema = rs.options_schema()
        entry = {"id": rid, "title": rs.title, "summary": rs.summary, "min_players": rs.min_players,
                 "max_players": min(6, rs.max_players), "options_schema": schema}
        if any(option["name"] == "phases" for option in schema):
            entry["default_phases"] = _default_phases(rid)
        out.append(entry)
    return out


def _inline(text: str) -> str:
    text = html.escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def markdown_sections(source: str) -> dict[str, str]:
    """A tiny Markdown subset (``##`` headings with an id in braces, ``###``, paragraphs, ``-`` lists) -> HTML
    per id. ``docs/rules.md`` marks each rule set's section as ``## Title {#mattel}``."""
    sections: dict[str, list[str]] = {}
    out: list[str] | None = None
    block = ""  # "", "p" or "ul": what the previous line left open
    for raw in source.splitlines():
        line = raw.rstrip()
        heading = re.match(r"^##\s+(.*?)\s*\{#([\w-]+)\}\s*$", line)
        closes_list = bool(heading) or not line or line.startswith("### ")
        if out is not None and block == "ul" and closes_list:
            out.append("</ul>")
            block = ""
        if heading:
            out = sections.setdefault(heading.group(2), [])
            out.append(f"<h3>{_inline(heading.group(1))}</h3>")
            block = ""
        elif out is None:
            continue
        elif not line:
            block = ""
        elif line.startswith("### "):
            out.append(f"<h4>{_inline(line[4:])}</h4>")
            block = ""
        elif line.lstrip().startswith("- "):
            if block != "ul":
                out.append("<ul>")
                block = "ul"
            out.append(f"<li>{_inline(line.lstrip()[2:])}</li>")
        elif block in ("ul", "p"):  # a continuation line of the list item or paragraph
            end = "</li>" if block == "ul" else "</p>"
            out[-1] = out[-1][: -len(end)] + " " + _inline(line.strip()) + end
        else:
            out.append(f"<p>{_inline(line)}</p>")
            block = "p"
    if out is not None and block == "ul":
        out.append("</ul>")
    return {key: "\n".join(parts) for key, parts in sections.items()}


@cache
def _rules_html(lang: str) -> dict[str, str]:
    """The players' rules summary per rule set: ``docs/rules.<lang>.md`` when it exists, else ``docs/rules.md``."""
    for path in (RULES_DOC.with_name(f"rules.{lang}.md"), RULES_DOC):
        try:
            return markdown_sections(path.read_text(encoding="utf-8"))
        except OSError:
            continue
    return {}


def _page_headings(section: str) -> str:
    """A section of ``markdown_sections`` (``h3`` title, ``h4`` parts) as the top of a page under its ``h1``."""
    return section.replace("<h3>", "<h2>").replace("</h3>", "</h2>").replace("<h4>", "<h3>").replace("</h4>", "</h3>")


@cache
def _readme_section(title: str) -> str:
    """One ``## title`` section of the README as HTML (the invite page's help: how to make the link reachable)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"## {title}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    body = "\n".join([f"## {title} {{#section}}", *lines[start + 1:end]])
    return _page_headings(markdown_sections(body)["section"])


@cache
def _invite_help_html(lang: str) -> str:
    """The invite help in ``lang``: ``docs/invite.<lang>.md`` (a translation of the README's section, one ``##``
    heading and its body) when it exists, else the README's own section (English)."""
    path = ROOT / "docs" / f"invite.{lang}.md"
    if not path.exists():
        return _readme_section(INVITE_SECTION)
    title, *rest = path.read_text(encoding="utf-8").splitlines()
    body = "\n".join([title.rstrip() + " {#section}", *rest])
    return _page_headings(markdown_sections(body)["section"])


def _context(request: Request, page: str, **extra: Any) -> dict[str, Any]:
    lang = i18n.negotiate(request.cookies.get("lang"), request.headers.get("accept-language"))
    catalogue = i18n.catalogue(lang)

    def t(key: str, **params: object) -> str:
        return i18n.translate(lang, key, **params)

    # "</" cannot end the <script> early: JSON escapes it.
    i18n_json = json.dumps(catalogue, ensure_ascii=False).replace("</", "<\\/")
    return {"request": request, "page": page, "lang": lang, "languages": i18n.LANGUAGES, "t": t,
            "i18n_json": Markup(i18n_json), **extra}


def _json_attr(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@router.get("/", response_class=HTMLResponse)
def lobby(request: Request) -> HTMLResponse:
    """Create a table: rule set, seats, options (C-11)."""
    rulesets = _rulesets()
    return TEMPLATES.TemplateResponse(request, "lobby.html", _context(
        request, "lobby", rulesets=rulesets, rulesets_json=Markup(_json_attr(rulesets).replace("</", "<\\/"))))


@router.get("/join/{table_id}", response_class=HTMLResponse)
def join(request: Request, table_id: str, code: str = "") -> HTMLResponse:
    """The invite link: ask for a name and take a seat (a returning browser goes straight back)."""
    return TEMPLATES.TemplateResponse(request, "join.html", _context(request, "join", table_id=table_id, code=code))


@router.get("/tables/{table_id}/move", response_class=HTMLResponse)
def move_seat(request: Request, table_id: str, code: str = "") -> HTMLResponse:
    """A one-time link that moves a seat to this device: confirm, then the table."""
    return TEMPLATES.TemplateResponse(request, "move.html", _context(request, "move", table_id=table_id, code=code))


@router.get("/tables/{table_id}", response_class=HTMLResponse)
def table(request: Request, table_id: str) -> HTMLResponse:
    """The waiting room and, once started, the table of the seat this browser holds (or a spectator's)."""
    context = _context(request, "table", table_id=table_id)
    rules = _rules_html(context["lang"])
    context["rules_html"] = {k: Markup(v) for k, v in rules.items()}
    return TEMPLATES.TemplateResponse(request, "table.html", context)


@router.get("/tables/{table_id}/games/{number}/replay", response_class=HTMLResponse, response_model=None)
def replay(request: Request, table_id: str, number: int, share: str = "") -> HTMLResponse | RedirectResponse:
    """A game step by step: once finished every hand is visible (C-9: the record is public then); while it
    runs only the spectator's view at each step, with a line saying hands are hidden until the end. A share
    link of the older form (``?share=``) goes to its address ``/shared/{token}``."""
    if share:
        return RedirectResponse(f"/shared/{quote(share, safe='')}", status_code=301)
    return TEMPLATES.TemplateResponse(request, "replay.html", _context(
        request, "replay", table_id=table_id, number=number, share=""))


@router.get("/shared/{share}", response_class=HTMLResponse)
def shared_replay(request: Request, share: str) -> HTMLResponse:
    """The replay a share link opens: the page names no table; the server finds the game from the token."""
    return TEMPLATES.TemplateResponse(request, "replay.html", _context(
        request, "replay", table_id="", number="", share=share))


@router.get("/rules", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    """The players' rules of every rule set in the page's language (the lobby links each: ``/rules#mattel``)."""
    context = _context(request, "help")
    sections = {k: Markup(_page_headings(v)) for k, v in _rules_html(context["lang"]).items()}
    return TEMPLATES.TemplateResponse(request, "help.html", context | {"title": context["t"]("table.help"),
                                                                       "sections": sections})


@router.get("/help/invite", response_class=HTMLResponse)
def invite_help(request: Request) -> HTMLResponse:
    """How to make the invite link reach friends elsewhere, in the page's language (the README's section and its
    translations), linked where a page shows a loopback or private invite link."""
    context = _context(request, "help")
    return TEMPLATES.TemplateResponse(request, "help.html", context | {
        "title": context["t"]("invite.help_title"), "sections": {"reach": Markup(_invite_help_html(context["lang"]))}})
