"""Icons are drawn (static/img/icons.svg, ``<use>`` in the templates, ``P10.icon`` in the scripts), never emoji: a
system without an emoji font shows an emoji as an empty box. The chat's reactions are what players send each other
(text, not icons) and stay emoji."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Code points shown as emoji by default (Unicode's Emoji_Presentation): the pictographs from U+1F000 on and the
# BMP's few with an emoji presentation, plus any character followed by the emoji variation selector (U+FE0F).
BMP_EMOJI = ("\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f\u2693\u26a1\u26aa"
             "\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728"
             "\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55")
EMOJI = re.compile(f"[\U0001f000-\U0001faff{BMP_EMOJI}]|.\ufe0f")
REACTIONS = re.compile(r'\{% for e in \[[^\]]*\] %\}')  # the chat's reactions: content, not icons


def sources() -> list[Path]:
    return sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "static" / "js").rglob("*.js")])


def test_no_emoji_is_used_as_an_icon_in_templates_and_scripts() -> None:
    found = []
    for path in sources():
        text = REACTIONS.sub("", path.read_text(encoding="utf-8"))
        for number, line in enumerate(text.splitlines(), 1):
            if "data-emoji" in line or "reaction" in line:
                continue
            for match in EMOJI.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group()!r}")
    assert not found, found


def test_every_icon_used_exists_in_the_sprite() -> None:
    sprite = ET.parse(ROOT / "static" / "img" / "icons.svg").getroot()
    ids = {node.get("id") for node in sprite.iter() if node.tag.endswith("symbol")}
    used = set()
    for path in sources():
        text = path.read_text(encoding="utf-8")
        used |= {"i-" + name for name in re.findall(r"icons\.svg#i-([\w-]+)", text)}
        used |= {"i-" + name for name in re.findall(r"\bicon\(\"([\w-]+)\"", text)}
        used |= {"i-" + a for pair in re.findall(r"\bicon\(\w+ \? \"([\w-]+)\" : \"([\w-]+)\"\)", text) for a in pair}
    assert used, "no icon found"
    assert used <= ids, used - ids
