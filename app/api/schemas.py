"""Request and response bodies of the REST API (pydantic); docs/protocol.md shows examples."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, RootModel, StringConstraints, field_validator

from app.autoplay.timers import TimerMode
from app.bots import BotLevel
from app.services.text import check_texts, clean_name

# The database's integer columns are 32-bit: numbers from clients (versions, seats, game numbers, steps)
# stay within that range, anything else is a 422 invalid_request, never a database error.
INT_MAX = 2**31 - 1


class RequestBody(BaseModel):
    """Every request body: unknown fields refused; strict types (a boolean is a JSON boolean, a number a JSON
    number: ``"yes"``, ``"1"`` or ``1`` for a boolean, ``"3"`` for a number are 422 ``invalid_request``); and
    every text it holds, nested objects' keys and values included, checked once (``app.services.text``: no
    control character, no lone surrogate), also 422 ``invalid_request`` naming the field."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="after")
    @classmethod
    def _stored_texts(cls, value: Any) -> Any:
        check_texts(value)
        return value


# A seat's name: cleaned (NFKC, no invisible characters, trimmed), then 1-40 characters.
Name = Annotated[str, BeforeValidator(clean_name), StringConstraints(min_length=1, max_length=40)]


class ErrorBody(BaseModel):
    code: str
    message: str
    field: str | None = None


class ErrorOut(BaseModel):
    error: ErrorBody


class CreateTable(RequestBody):
    """Table-level settings are separate from the rule set's engine ``options``."""

    ruleset: str = Field(examples=["mattel"])
    seats: int = Field(4, ge=2, le=6, description="number of seats (2-6, within the rule set's range)")
    options: dict[str, Any] = Field(default_factory=dict, description="engine options, see /api/rulesets")
    spectators: bool = Field(False, description="may people without a seat watch the public view")
    name: Name = Field(description="the host's display name")
    turn_timer: TimerMode = Field(
        "off", description="time per decision (as PUT /api/tables/{id}/clock); the easy bot decides when it runs out")
    stand_in: bool = Field(False, description="a bot plays for a seat disconnected longer than the grace period")
    stand_in_level: BotLevel | None = Field(None, description="that bot's level (the server's default if unset)")


class JoinTable(RequestBody):
    name: Name
    code: str = Field(min_length=1, max_length=100)


class Reorder(RequestBody):
    order: list[int] = Field(description="current seat numbers in their new order, e.g. [2, 0, 1]")


class CommandIn(RequestBody):
    command_id: str = Field(min_length=1, max_length=64, description="client-chosen id (a UUID)")
    expected_version: int | None = Field(None, ge=0, le=INT_MAX)
    command: dict[str, Any] = Field(description="exactly what the rule set's parse_command accepts")


class SeatInfo(BaseModel):
    seat: int
    name: str
    is_host: bool
    is_bot: bool
    connected: bool


class GameInfo(BaseModel):
    game_id: int
    number: int
    status: str
    version: int
    players: int
    winners: list[int] | None


class BotInfo(BaseModel):
    seat: int
    level: str


class TimerInfo(BaseModel):
    mode: str
    seconds: float
    version: int
    seats: list[int] = Field(description="the awaited seats on the clock (bots and stand-ins are not)")
    deadline: str
    remaining: float


class RematchAnswerInfo(BaseModel):
    seat: int = Field(description="the seat in the finished game")
    name: str
    is_host: bool
    is_bot: bool
    answer: Literal["accepted", "declined", "pending"]


class RematchInfo(BaseModel):
    after: int = Field(description="the number of the finished game")
    options: dict[str, Any] = Field(description="the next game's engine options")
    choices: dict[str, list[str]] = Field(description="the values of the options that are a closed list")
    by: int | None = Field(description="the seat (in the finished game) that offered it")
    answers: list[RematchAnswerInfo] = Field(description="every player of the finished game (bots accept)")


class PracticeFrom(BaseModel):
    table_id: str | None = Field(description="the finished game's table; null when a share link started it")
    number: int | None = Field(description="the game's number at that table; null when a share link started it")
    step: int


class TableInfo(BaseModel):
    table_id: str
    ruleset: str
    options: dict[str, Any]
    capacity: int
    spectators: bool
    status: str = Field(description="waiting, playing or finished")
    host_seat: int | None
    revision: int
    practice: bool = Field(False, description="a practice table, started at a step of a finished game")
    practice_from: PracticeFrom | None = Field(None, description="the finished game and step it started from")
    seats: list[SeatInfo]
    game: GameInfo | None
    # Bot seats, the clock and the running timer (app/autoplay/runner.py), as over the socket.
    bots: list[BotInfo] = Field(default_factory=list, description="the bot seats, in seat order")
    turn_timer: str = "off"
    stand_in: bool = False
    stand_in_level: str | None = Field(None, description="the level of the bot that stands in at this table")
    stand_ins: list[int] = Field(default_factory=list, description="seats a stand-in bot plays for now")
    timer: TimerInfo | None = None
    rematch: RematchInfo | None = Field(None, description="the open \"Play again\" offer (app/services/rematch.py)")


class CreatedTable(BaseModel):
    table_id: str
    seat: int
    token: str
    join_code: str
    invite_link: str
    table: TableInfo


class JoinedTable(BaseModel):
    table_id: str
    seat: int
    token: str
    table: TableInfo


class ViewOut(BaseModel):
    game_id: int | None
    number: int | None
    version: int
    seat: int | None
    view: dict[str, Any] | None


class CommandResult(BaseModel):
    game_id: int
    version: int
    duplicate: bool = Field(description="true when this command_id had already been applied")
    events: list[dict[str, Any]]
    view: dict[str, Any]


class EventsOut(BaseModel):
    game_id: int
    version: int
    since: int
    events: list[dict[str, Any]]


class HintOut(BaseModel):
    version: int
    groups: list[list[int]] | None


class RulesetInfo(BaseModel):
    id: str
    title: str
    summary: str
    min_players: int
    max_players: int
    options_schema: list[dict[str, Any]]


class ReplaySeat(BaseModel):
    seat: int
    name: str


class ReplayCommand(BaseModel):
    seq: int
    seat: int
    command: dict[str, Any]
    created_at: str


class ReplayMark(BaseModel):
    """Where a command stands in the game (from the public events): its round, the turn counter since the
    start and whose turn it was (``None`` before the first ``turn_started``)."""

    round: int
    turn: int
    turn_seat: int | None


class ReplayRound(BaseModel):
    round: int
    step: int = Field(description="the step at which the round's deal is shown (round 1: 0)")


class _GameRecord(BaseModel):
    """What every replay record holds: the table, the game and its seats (C-10)."""

    table_id: str | None = Field(description="the table (none through a share link: it names nothing else)")
    game_id: int | None = Field(description="the game's id (none through a share link)")
    number: int
    ruleset: str
    options: dict[str, Any]
    players: int
    seats: list[ReplaySeat]
    status: str
    version: int
    winners: list[int] | None
    created_at: str
    finished_at: str | None


class ReplayRecord(_GameRecord):
    """A finished game's full record (C-10): with its seed and every command."""

    public: Literal[False] = False
    seed: int
    commands: list[ReplayCommand]


class PublicCommandType(BaseModel):
    type: str


class PublicReplayCommand(BaseModel):
    """One command of a running game: its type only, with the events a spectator received (C-9)."""

    seq: int
    seat: int
    command: PublicCommandType
    created_at: str
    events: list[dict[str, Any]]


class PublicReplayCommandMarked(PublicReplayCommand, ReplayMark):
    pass


class PublicReplayRecord(_GameRecord):
    """A running game's public record (C-9): no seed, no command fields, spectator-redacted events."""

    public: Literal[True]
    shared: bool = False
    can_share: bool = False
    rounds: list[ReplayRound]
    total_rounds: None = None
    commands: list[PublicReplayCommandMarked]


class ReplayCommandMarked(ReplayCommand, ReplayMark):
    pass


class ReplayRecordFull(ReplayRecord):
    shared: bool = Field(description="read through a share link")
    can_share: bool = Field(description="the reader is a seat of the table: it may make share links")
    rounds: list[ReplayRound]
    total_rounds: int | None = Field(description="rounds played in all (finished games)")
    commands: list[ReplayCommandMarked]  # type: ignore[assignment]


class ReplayRecordOut(RootModel[Annotated[ReplayRecordFull | PublicReplayRecord, Field(discriminator="public")]]):
    """The record of a game: full once it has finished (``public`` false), public before (``public`` true)."""


class ReplayStepCommand(BaseModel):
    seq: int
    seat: int
    command: dict[str, Any]


class PublicReplayStepCommand(BaseModel):
    seq: int
    seat: int
    command: PublicCommandType


class ReplayStep(BaseModel):
    """A finished game after ``step`` commands: ``state`` is the full view (every hand)."""

    public: Literal[False] = False
    step: int
    version: int
    command: ReplayStepCommand | None
    events: list[dict[str, Any]]
    state: dict[str, Any]


class SeatReplayStep(BaseModel):
    """A finished game after ``step`` commands as seat ``seat`` saw it (``?seat=N``): its view and events."""

    public: Literal[False] = False
    step: int
    version: int
    seat: int
    command: ReplayStepCommand | None
    events: list[dict[str, Any]]
    view: dict[str, Any]


class PublicReplayStep(BaseModel):
    """A running game after ``step`` commands: ``view`` is the spectator's view, ``events`` a spectator's."""

    public: Literal[True]
    step: int
    version: int
    command: PublicReplayStepCommand | None
    events: list[dict[str, Any]]
    view: dict[str, Any]


class ReplayStepOut(RootModel[ReplayStep | SeatReplayStep | PublicReplayStep]):
    """One step of a game: full once it has finished (``public`` false), public before (``public`` true)."""


class RecordCommand(BaseModel):
    seq: int
    seat: int
    command_id: str
    command: dict[str, Any]
    created_at: str | None


class RecordResult(BaseModel):
    status: str
    winners: list[int] | None
    scores: list[int | None]
    phases: list[int | None]
    rounds: int


class GameRecordOut(BaseModel):
    """A game record (docs/record.md): enough to rebuild the game with the engine alone (C-10)."""

    format: Literal["phase10-game-record"]
    format_version: int
    ruleset: str
    rules_version: int
    options: dict[str, Any]
    seed: int
    players: int
    seats: list[ReplaySeat]
    number: int
    status: str
    version: int
    winners: list[int] | None
    created_at: str | None
    finished_at: str | None
    commands: list[RecordCommand]
    result: RecordResult


class ShareOut(BaseModel):
    """A share link of a finished game's replay (``token`` and ``url`` only in the answer that made it)."""

    id: int
    created_at: str
    by: str | None = Field(description="the name of the seat that made it")
    revocable: bool = Field(description="whether the asking seat may revoke it (the host, or its maker)")
    token: str | None = None
    url: str | None = None


class SharesOut(BaseModel):
    shares: list[ShareOut]


class ImportedRecord(BaseModel):
    table_id: str
    number: int
    replay: str = Field(description="the replay page of the imported game")


class SeriesPlayer(BaseModel):
    seat: int
    name: str
    score: int | None
    phase: int | None
    winner: bool


class SeriesGame(BaseModel):
    number: int
    ruleset: str
    status: str
    rounds: int = Field(description="rounds played (finished)")
    winners: list[str] | None = Field(description="the winners' names once the game is over")
    players: list[SeriesPlayer]
    replay: str = Field(description="the replay page")
    finished_at: str | None


class Standing(BaseModel):
    name: str
    games: int = Field(description="finished games played at the table")
    games_won: int
    rounds_won: int = Field(description="rounds in which this player went out first")
    phases_made: int
    average_score: float | None = Field(description="final score points per round played (null in the board "
                                         "game, whose cards carry no points)")
    fields: int | None = Field(None, description="the board game: the marker fields gained in its finished games "
                               "(higher is better); null in the card games")


class SeriesOut(BaseModel):
    table_id: str
    games: list[SeriesGame]
    standings: list[Standing]


class Health(BaseModel):
    status: str
    database: str


class Ready(BaseModel):
    status: str
    database: str  # "ok", "down" (unreachable) or "behind" (not at the Alembic head)
    revision: str | None  # the database's Alembic revision(s), comma-separated
