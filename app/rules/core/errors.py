"""Engine errors, each with a stable machine-readable code (docs/architecture.md, "The engine").

The API maps ``InvalidCommand`` to 422, ``NotYourTurn`` to 403 and every other ``RuleError`` to 409;
the websocket sends ``{"type": "error", "ref", "code", "message"}`` to the sender only.
"""

from __future__ import annotations


class RuleError(Exception):
    """Base of every engine error: a stable ``code`` and a human ``message``."""

    code: str = "rule_error"

    def __init__(self, code: str | None = None, message: str = "") -> None:
        if code is not None:
            self.code = code
        self.message = message or self.code.replace("_", " ")
        super().__init__(f"{self.code}: {self.message}")


class InvalidCommand(RuleError):
    """The command is malformed: unknown type, missing or mistyped field, bad option.

    ``path`` names the offending field (``groups[1][0]``) when known, ``reason`` says what is wrong with it.
    """

    code = "invalid_command"
    path: str = ""
    reason: str = ""


class NotYourTurn(RuleError):
    """The seat is not awaited for any decision right now."""

    code = "not_your_turn"


class WrongStage(RuleError):
    """The seat is awaited, but not for this kind of command (e.g. discard before drawing)."""

    code = "wrong_stage"


class IllegalMove(RuleError):
    """The command is well formed and in turn but breaks a rule; ``code`` names the rule broken."""

    code = "illegal_move"


class GameOver(RuleError):
    """The game has finished; no command is accepted any more."""

    code = "game_over"


class StaleVersion(RuleError):
    """The command was based on an older version of the game than the current one."""

    code = "stale_version"


class InvalidOptions(RuleError):
    """A table option is unknown or invalid; ``field`` names the offending option."""

    code = "invalid_options"

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__("invalid_options", f"{field}: {message}")
