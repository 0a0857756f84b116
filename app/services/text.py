"""Text from players: the one check every stored text passes, the cleaning of names and chat, and when two
names are the same to a reader.

* Stored text (names, chat, command ids, codes, push endpoints, options and commands, keys included) never
  holds a control character (Unicode ``Cc``: NUL, the other C0 and C1 controls, DEL) or a lone surrogate
  (``Cs``): Postgres text cannot hold NUL nor encode a surrogate, and SQLite would store what no reader sees.
* Names and chat are NFKC-normalised (full-width letters, ligatures and the like become their plain forms) and
  lose their invisible characters: format characters (``Cf``: zero-width spaces and joiners, the byte order
  mark, bidi overrides and isolates, soft hyphens) and the other default-ignorable code points (Hangul fillers,
  variation selectors, the combining grapheme joiner) and the characters that are drawn blank though Unicode
  gives them a glyph (``BLANK``: the braille pattern blank U+2800, the Hangul fillers, the null notehead, the
  tag space); every other space and separator (``str.isspace``: U+00A0, U+1680, U+2000-U+200A, U+2028,
  U+2029, U+202F, U+205F, U+3000) becomes a plain space. Chat keeps the zero-width joiner and variation
  selectors, which build emoji.
* Two names are the same when their confusable skeletons are: cleaned, case-folded, every character replaced by
  the representative of its class of look-alikes (``confusable-homoglyphs``' data of Unicode's confusables,
  classes closed over every pair), runs of spaces as one. ``host``, ``HOST``, ``hоst`` (Cyrillic о) and ``ｈｏｓｔ``
  are one name.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

DISALLOWED = frozenset({"Cc", "Cs"})
# Default-ignorable code points outside ``Cf`` (Unicode's DerivedCoreProperties): blank fillers and selectors.
_IGNORABLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10),
     *range(0xE0100, 0xE01F0)])
# Characters drawn as nothing (fonts give them an empty glyph) outside the default-ignorable ones: the braille
# pattern blank, the Hangul fillers (also in ``_IGNORABLE``), the musical null notehead.
BLANK = frozenset([0x2800, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x1D159])
# Tab, line feed and the other control characters that count as spaces stay, for ``check_texts`` to refuse.
_CONTROL_SPACES = frozenset(ch for ch in map(chr, range(0x100)) if ch.isspace() and unicodedata.category(ch) == "Cc")
_EMOJI_GLUE = frozenset([0x200D, *range(0xFE00, 0xFE10)])  # zero-width joiner, variation selectors


def control_character(text: str) -> str | None:
    """The first character of ``text`` no stored text may hold, if any."""
    return next((ch for ch in text if unicodedata.category(ch) in DISALLOWED), None)


def check_texts(value: Any) -> None:
    """Raise ``ValueError`` if any text in ``value`` (a string, or the keys and values of nested objects and
    lists) holds a control character or a lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            bad = control_character(item)
            if bad is not None:
                raise ValueError(f"must not contain control characters (U+{ord(bad):04X})")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def _invisible(ch: str, keep: frozenset[int]) -> bool:
    code = ord(ch)
    return code not in keep and (unicodedata.category(ch) == "Cf" or code in _IGNORABLE or code in BLANK)


def _visible(text: str, keep: frozenset[int]) -> str:
    """NFKC ``text`` without its invisible characters, every space or separator a plain space, trimmed."""
    return "".join(" " if ch.isspace() and ch not in _CONTROL_SPACES else ch
                   for ch in unicodedata.normalize("NFKC", text)
                   if not _invisible(ch, keep)).strip()


def clean_name(text: Any) -> Any:
    """A name as it is stored and shown: NFKC, without invisible characters, without spaces around it (a
    name left empty is refused by its length). Anything but a string is left to the type check."""
    if not isinstance(text, str):
        return text
    return _visible(text, frozenset())


def clean_chat(text: Any) -> Any:
    """A chat message: NFKC, without invisible characters but those that build emoji, trimmed."""
    if not isinstance(text, str):
        return text
    return _visible(text, _EMOJI_GLUE)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each character with look-alikes -> the representative of its class (classes closed over every pair of
    the confusables data; the representative: ASCII first, then the longest, then the first in code order, so
    ``m`` and ``rn`` meet). Built on first use (~0.2 s)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key, glyphs in confusables_data.items():
        for glyph in glyphs:
            a, b = find(key.replace("\u200e", "")), find(glyph["c"].replace("\u200e", ""))
            if a != b:
                parent[a] = b
    classes: dict[str, list[str]] = {}
    for member in list(parent):
        classes.setdefault(find(member), []).append(member)
    out: dict[str, str] = {}
    for members in classes.values():
        best = min(members, key=lambda m: (not m.isascii(), -len(m), m))
        out.update((m, best) for m in members if len(m) == 1)
    return out


def name_skeletons(name: str) -> tuple[str, str]:
    """What a reader sees of ``name``: cleaned, look-alikes replaced, case-folded, runs of spaces as one; once folded
    before the replacement (``HOST`` is ``host``) and once after it (``BiII`` is ``Bill``: capital I and small
    L look alike, small i does not)."""
    prototypes = _prototypes()

    def replaced(text: str) -> str:
        return "".join(prototypes.get(ch, ch) for ch in text)

    cleaned = clean_name(name)
    folded_first = replaced(replaced(cleaned.casefold()).casefold())
    replaced_first = replaced(replaced(cleaned).casefold())
    return " ".join(folded_first.split()), " ".join(replaced_first.split())


def same_name(a: str, b: str) -> bool:
    """Two seat names a player could not tell apart (``name_skeletons``)."""
    return any(x == y for x, y in zip(name_skeletons(a), name_skeletons(b), strict=True))
