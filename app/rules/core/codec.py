"""A small JSON codec for the engine's frozen dataclasses (states, commands, events, options).

Encoding is by field name; decoding is driven by the type hints, so a ruleset needs no hand-written
codec. Dataclasses that belong to a closed union (commands, events) carry a ``"type"`` tag: the class
attribute ``TYPE`` when present, else the snake_case class name.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from .errors import InvalidCommand

T = TypeVar("T")

JSON = Any


@cache
def type_tag(cls: type) -> str:
    """The ``"type"`` tag of a dataclass in a union."""
    tag = getattr(cls, "TYPE", None)
    if isinstance(tag, str):
        return tag
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


_SHAPES: dict[type, tuple[str, tuple[str, ...]] | None] = {}
# The sorted encoding of frozensets of scalars (a joker's colours, in every snapshot): sorting by ``repr`` is
# slow for enums, and such sets recur. Values are copied out, never shared.
_SCALAR_SETS: dict[frozenset[Any], list[Any]] = {}
_SCALARS = (str, int, float, bool)


def shape(cls: type) -> tuple[str, tuple[str, ...]] | None:
    """A dataclass's tag and field names (``None`` for any other type): found once per class, since snapshots
    encode hundreds of dataclass values."""
    try:
        return _SHAPES[cls]
    except KeyError:
        found = ((type_tag(cls), tuple(f.name for f in dataclasses.fields(cls)))
                 if dataclasses.is_dataclass(cls) else None)
        _SHAPES[cls] = found
        return found


# The classes whose values are encoded once (``encode_once``), and their encodings: (the JSON, its keys whose
# values are lists). Bounded; an encoding is copied out, never shared.
_ONCE_CLASSES: set[type] = set()
_ONCE: dict[object, tuple[dict[str, JSON], tuple[str, ...]]] = {}
_ONCE_MAX = 65_536

C = TypeVar("C", bound=type)


def encode_once(cls: C) -> C:
    """Class decorator: ``to_json`` encodes each distinct value of ``cls`` (an immutable, hashable dataclass that
    recurs, such as a card: a snapshot holds every card of the game) once, and copies that encoding afterwards."""
    _ONCE_CLASSES.add(cls)
    return cls


def _fields_json(obj: object, tag: str, names: tuple[str, ...]) -> dict[str, JSON]:
    out: dict[str, JSON] = {"type": tag}
    for name in names:
        out[name] = to_json(getattr(obj, name))
    return out


def _encode_once(obj: object, tag: str, names: tuple[str, ...]) -> JSON:
    made = _ONCE.get(obj)
    if made is None:
        data = _fields_json(obj, tag, names)
        made = data, tuple(k for k, v in data.items() if isinstance(v, list))
        if len(_ONCE) < _ONCE_MAX:
            _ONCE[obj] = made
    out = dict(made[0])
    for name in made[1]:
        out[name] = list(out[name])
    return out


def to_json(obj: object) -> JSON:
    """Encode an engine value (dataclass, enum, tuple, frozenset, dict, scalar) as plain JSON data."""
    if obj is None or isinstance(obj, bool | int | str | float):
        return obj
    if isinstance(obj, Enum):
        return obj.value
    known = shape(type(obj))
    if known is not None:
        if type(obj) in _ONCE_CLASSES:
            return _encode_once(obj, *known)
        return _fields_json(obj, *known)
    if isinstance(obj, tuple | list):
        return [to_json(x) for x in obj]
    if isinstance(obj, frozenset | set):
        sorted_set = _SCALAR_SETS.get(obj) if isinstance(obj, frozenset) else None
        if sorted_set is not None:
            return list(sorted_set)
        items = sorted((to_json(x) for x in obj), key=repr)
        if isinstance(obj, frozenset) and len(_SCALAR_SETS) < 4096 and all(isinstance(x, _SCALARS) for x in items):
            _SCALAR_SETS[obj] = items
            return list(items)
        return items
    if isinstance(obj, Mapping):
        return {str(to_json(k)): to_json(v) for k, v in obj.items()}
    raise TypeError(f"cannot encode {type(obj).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _bad(path: str, message: str) -> InvalidCommand:
    err = InvalidCommand("invalid_command", f"{path or 'value'}: {message}")
    err.path = path
    err.reason = message
    return err


def from_json(tp: Any, data: JSON, path: str = "") -> Any:
    """Decode ``data`` as a value of type ``tp``; raises :class:`InvalidCommand` naming the bad field."""
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if data is None and type(None) in options:
            return None
        classes = [o for o in options if dataclasses.is_dataclass(o)]
        if classes and isinstance(data, dict):
            return _decode_tagged(classes, data, path)
        present = [o for o in options if o is not type(None)]
        if len(present) == 1:  # ``X | None``: the error names the innermost bad field (``phases[0][1].size``)
            return from_json(present[0], data, path)
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return from_json(option, data, path)
            except InvalidCommand as err:
                errors.append(err.message)
        raise _bad(path, "; ".join(errors) or "no matching type")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise _bad(path, f"must be one of {list(get_args(tp))}")
        return data
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(data, list):
            raise _bad(path, "must be a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], x, f"{path}[{i}]") for i, x in enumerate(data))
        if len(args) != len(data):
            raise _bad(path, f"must have {len(args)} items")
        return tuple(from_json(a, x, f"{path}[{i}]") for i, (a, x) in enumerate(zip(args, data, strict=True)))
    if origin is frozenset:
        (arg,) = get_args(tp)
        if not isinstance(data, list):
            raise _bad(path, "must be a list")
        return frozenset(from_json(arg, x, f"{path}[{i}]") for i, x in enumerate(data))
    if origin in (dict, Mapping, typing.Mapping) or tp is dict:
        args = get_args(tp) or (str, Any)
        if not isinstance(data, dict):
            raise _bad(path, "must be an object")
        return {from_json(args[0], k, path): from_json(args[1], v, f"{path}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise _bad(path, f"must be one of {[m.value for m in tp]}") from None
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(data, dict):
            raise _bad(path, "must be an object")
        return _decode_fields(tp, data, path)
    if tp is bool:
        if not isinstance(data, bool):
            raise _bad(path, "must be true or false")
        return data
    if tp is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise _bad(path, "must be an integer")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise _bad(path, "must be a string")
        return data
    if tp is float:
        if not isinstance(data, int | float) or isinstance(data, bool):
            raise _bad(path, "must be a number")
        return float(data)
    if tp is type(None):
        if data is not None:
            raise _bad(path, "must be null")
        return None
    raise TypeError(f"cannot decode type {tp!r}")


def _decode_tagged(classes: list[Any], data: dict[str, JSON], path: str) -> Any:
    tag = data.get("type")
    for cls in classes:
        if type_tag(cls) == tag:
            return _decode_fields(cls, data, path)
    raise _bad(f"{path}.type" if path else "type",
               f"unknown type {tag!r}; expected one of {[type_tag(c) for c in classes]}")


@cache
def _field_specs(cls: type) -> tuple[frozenset[str], tuple[tuple[str, Any, bool], ...]]:
    """The names a dataclass's JSON may hold (its fields and ``type``), and each field's name, type and whether
    it is required (no default)."""
    hints = _hints(cls)
    specs = tuple((f.name, hints[f.name], f.default is dataclasses.MISSING
                   and f.default_factory is dataclasses.MISSING) for f in dataclasses.fields(cls))
    return frozenset([*(name for name, _, _ in specs), "type"]), specs


def _decode_fields(cls: Any, data: dict[str, JSON], path: str) -> Any:
    allowed, specs = _field_specs(cls)
    if not allowed.issuperset(data):
        raise _bad(path, f"unknown field(s) {sorted(set(data) - allowed)}")
    kwargs: dict[str, Any] = {}
    for name, tp, required in specs:
        if name in data:
            kwargs[name] = from_json(tp, data[name], f"{path}.{name}" if path else name)
        elif required:
            raise _bad(f"{path}.{name}" if path else name, "is required")
    return cls(**kwargs)


def decode_union(classes: tuple[type[T], ...], data: JSON) -> T:
    """Decode a tagged member of a closed union, e.g. a command ``{"type": "draw", ...}``."""
    if not isinstance(data, dict):
        raise _bad("", "must be an object with a 'type'")
    result: T = _decode_tagged(list(classes), data, "")
    return result
