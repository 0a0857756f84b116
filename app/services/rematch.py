"""Rematch by consent: "Play again" is an offer, not a deal.

Any player of the finished game may offer the next game (``offer``); the host may change its options when
offering (which asks everyone again). Every human player of the finished game accepts or declines in their
own page (``answer``); bots always accept. The next game is dealt when every human player accepted, or when
the host starts it with those who accepted (``start``: a new seating without those who declined or did not
answer). Nothing is dealt before, so no turn timer runs for a game nobody agreed to.

The open offer is table info's ``rematch`` (a ``TableExtension`` of the game service); every change bumps the
table's revision and publishes, so every page sees the answers as they come.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.persistence.models import Game, GameTable, Seat
from app.rules.core.ruleset import JSONDict
from app.services.errors import ServiceError

from .games import GameService
from .models import RematchAnswer, RematchOffer

log = logging.getLogger("phase10.games")



class Rematches:
    """Rematch offers over a game service."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    # -- reading -------------------------------------------------------------------------------------------
    def _finished(self, s: Session, table_id: str) -> Game:
        game: Game | None = self.service.repo.game(s, table_id)
        if game is None:
            raise ServiceError(409, "game_not_started", "no game has been played yet")
        if game.status != "finished":
            raise ServiceError(409, "game_not_finished", "the current game is still running")
        return game

    def _players(self, s: Session, game: Game) -> list[Seat]:
        """The seats of ``game`` still at the table, in the game's seat order."""
        ids = [entry["seat_id"] for entry in game.seats]
        rows = {seat.id: seat for seat in s.scalars(select(Seat).where(Seat.id.in_(ids)))}
        return [rows[i] for i in ids if i in rows]

    def _answers(self, s: Session, table_id: str) -> dict[int, bool]:
        return {row.seat_id: row.accepted for row in s.scalars(
            select(RematchAnswer).where(RematchAnswer.table_id == table_id))}

    def _offer(self, s: Session, table_id: str, game: Game) -> RematchOffer | None:
        offer = s.get(RematchOffer, table_id)
        return offer if offer is not None and offer.after == game.number else None

    def _player(self, s: Session, table: GameTable, token: str | None, game: Game) -> Seat:
        viewer = self.service.repo.seated(s, table, token)
        if self.service.repo.engine_seat(game, viewer.seat_id) is None:
            raise ServiceError(403, "not_seated", "this seat did not play the finished game")
        seat = s.get(Seat, viewer.seat_id)
        assert seat is not None
        return seat

    # -- changing ------------------------------------------------------------------------------------------
    def offer(self, table_id: str, token: str | None, options: JSONDict | None = None) -> JSONDict:
        """Offer the next game (and accept it); ``options`` (host only) replace the finished game's options and
        ask everyone again. Offering when an offer is open accepts it."""
        with self.service.db.write() as s:
            table = self.service.repo.table(s, table_id, lock=True)
            game = self._finished(s, table_id)
            seat = self._player(s, table, token, game)
            offer = self._offer(s, table_id, game)
            if options is not None:
                if not seat.is_host:
                    raise ServiceError(403, "not_host", "only the host may change the options")
                ruleset = self.service.repo.ruleset(table.ruleset)
                parsed = ruleset.parse_options(options)
                ruleset.check_players(parsed, len(self._players(s, game)))
                options = ruleset.options_to_json(parsed)
            if offer is None or (options is not None and options != offer.options):
                s.execute(delete(RematchOffer).where(RematchOffer.table_id == table_id))
                s.flush()
                offer = RematchOffer(table_id=table_id, after=game.number, by_seat_id=seat.id,
                                     options=game.options if options is None else options)
                s.add(offer)
                s.flush()
            dealt = self._answer(s, table, game, seat, True)
        return self._done(table_id, dealt)

    def answer(self, table_id: str, token: str | None, accept: bool) -> JSONDict:
        """Accept or decline the open offer (a seat may change its mind until the deal)."""
        with self.service.db.write() as s:
            table = self.service.repo.table(s, table_id, lock=True)
            game = self._finished(s, table_id)
            seat = self._player(s, table, token, game)
            if self._offer(s, table_id, game) is None:
                raise ServiceError(409, "no_rematch_offer", "nobody has offered another game yet")
            dealt = self._answer(s, table, game, seat, accept)
        return self._done(table_id, dealt)

    def start(self, table_id: str, token: str | None) -> JSONDict:
        """Host: deal the next game now, with the players who accepted (and the bots) as a new seating."""
        with self.service.db.write() as s:
            table = self.service.repo.table(s, table_id, lock=True)
            game = self._finished(s, table_id)
            seat = self._player(s, table, token, game)
            if not seat.is_host:
                raise ServiceError(403, "not_host", "only the host may start without everyone")
            offer = self._offer(s, table_id, game)
            if offer is None:
                raise ServiceError(409, "no_rematch_offer", "nobody has offered another game yet")
            answers = self._answers(s, table_id)
            playing = [x for x in self._players(s, game) if x.is_bot or answers.get(x.id)]
            dealt = self._deal(s, table, game, offer, playing)
        return self._done(table_id, dealt)

    def _answer(self, s: Session, table: GameTable, game: Game, seat: Seat, accept: bool) -> Game | None:
        row = s.get(RematchAnswer, (table.id, seat.id))
        if row is None:
            s.add(RematchAnswer(table_id=table.id, seat_id=seat.id, accepted=accept))
        else:
            row.accepted = accept
        s.flush()
        players = self._players(s, game)
        answers = self._answers(s, table.id)
        if all(x.is_bot or answers.get(x.id) for x in players):
            offer = self._offer(s, table.id, game)
            assert offer is not None
            return self._deal(s, table, game, offer, players)
        self.service.repo.bump(table)
        self.service.changes.publish(s, table.id, 0)
        return None

    def _deal(self, s: Session, table: GameTable, game: Game, offer: RematchOffer, players: list[Seat]) -> Game:
        """The next game with ``players`` (in the finished game's order) and the offer's options."""
        ruleset = self.service.repo.ruleset(table.ruleset)
        if len(players) >= ruleset.min_players:  # fewer: the deal below says not_enough_players
            ruleset.check_players(ruleset.parse_options(offer.options), len(players))
        table.options = offer.options
        s.execute(delete(RematchOffer).where(RematchOffer.table_id == table.id))
        seats = [{"seat_id": x.id, "name": x.name} for x in players]
        new_game, state = self.service.lobby.new_game(s, table, seats, game.number + 1)
        s.flush()
        self.service.states.put(new_game.id, 0, state)
        return new_game

    def _done(self, table_id: str, dealt: Game | None) -> JSONDict:
        self.service.after_commit(table_id, 0)
        if dealt is not None:
            log.info("rematch dealt", extra={"table_id": table_id, "game_id": dealt.id})
        info: JSONDict = self.service.table_info(table_id)
        return info

    # -- the service's TableExtension hooks -------------------------------------------------------------------
    def table_extras(self, s: Session, table_id: str, positions: dict[int, int], game: Game | None) -> JSONDict:
        """``rematch``: the open offer after the finished game, with every player's answer (``seat`` and ``by``
        are seats of the finished game, in its order) and the values of its options that are a closed list
        (``choices``, for the host's editor)."""
        if game is None or game.status != "finished":
            return {"rematch": None}
        offer = self._offer(s, table_id, game)
        if offer is None:
            return {"rematch": None}
        answers = self._answers(s, table_id)
        order = [entry["seat_id"] for entry in game.seats]
        by = order.index(offer.by_seat_id) if offer.by_seat_id in order else None
        return {"rematch": {
            "after": offer.after, "options": offer.options, "by": by,
            "choices": {o["name"]: o["choices"] for o in self.service.repo.ruleset(game.ruleset).options_schema()
                        if "choices" in o},
            "answers": [{"seat": order.index(x.id), "name": x.name, "is_host": x.is_host, "is_bot": x.is_bot,
                         "answer": "accepted" if x.is_bot or answers.get(x.id)
                         else "declined" if x.id in answers else "pending"}
                        for x in self._players(s, game)]}}

    def decorate_views(self, s: Session, table_id: str, game: Any, views: list[JSONDict]) -> None:
        pass

    def after_commit(self, table_id: str, version: int) -> None:
        pass
