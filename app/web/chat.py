"""Table chat and quick emoji reactions: two small REST routes over ``app.services.chat`` and the realtime hub.

Kept out of the engine and out of the game record: messages are rows of ``chat_message`` (the last 50 per
table), shared by every server process on the database, and reach every socket of the table as
``{"type": "chat", ...}`` through the hub (Postgres: a NOTIFY on ``phase10_chat`` that every process
LISTENs to; in memory: this process's sockets). Only seated players may talk; the seat comes from the same
token (cookie or Bearer) as every other table route.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, BeforeValidator, Field, StringConstraints

from app.api.deps import SeatToken, Service, Token
from app.api.schemas import RequestBody
from app.realtime.backends import MemoryNotifier
from app.services.chat import ChatStore
from app.services.errors import ServiceError
from app.services.text import clean_chat

REACTIONS = ("👍", "😂", "😮", "😢", "🎉", "🙈")

router = APIRouter(prefix="/api")

# A chat message: cleaned (NFKC, no invisible characters but those that build emoji, trimmed), 1-300 characters.
Text = Annotated[str, BeforeValidator(clean_chat), StringConstraints(min_length=1, max_length=300)]


class ChatIn(RequestBody):
    text: Text | None = Field(None, description="a message (1-300 characters)")
    emoji: str | None = Field(None, description=f"a quick reaction, one of {' '.join(REACTIONS)}")


class ChatMessage(BaseModel):
    type: str = "chat"
    id: int
    seat: int
    name: str
    text: str | None = None
    emoji: str | None = None
    at: float


class ChatLog(BaseModel):
    messages: list[ChatMessage]


def get_chat(request: Request, service: Service) -> ChatStore:
    """The app's chat store (made on first use; tests may set ``app.state.chat`` to one with its own clock)."""
    store: ChatStore | None = getattr(request.app.state, "chat", None)
    if store is None:
        store = request.app.state.chat = ChatStore(service.db)
    return store


Chat = Annotated[ChatStore, Depends(get_chat)]


def _notifier(request: Request, service: Service) -> MemoryNotifier:
    """The hub's notifier: the Postgres one NOTIFYs every process, the in-memory one reaches this process."""
    notifier = service.notifier
    return notifier if isinstance(notifier, MemoryNotifier) else MemoryNotifier(request.app.state.hub)


@router.get("/tables/{table_id}/chat", response_model=ChatLog)
def chat_log(table_id: str, chat: Chat, token: Token) -> Any:
    """The last 50 messages and reactions of the table, oldest first (its seats; anyone when it has
    spectators)."""
    return {"messages": chat.history(table_id, token)}


@router.post("/tables/{table_id}/chat", response_model=ChatMessage, status_code=201)
async def post_chat(table_id: str, body: ChatIn, request: Request, service: Service, chat: Chat,
                    token: SeatToken) -> Any:
    """Say something, or react with an emoji; everyone at the table sees it at once, on every server process."""
    if (body.text is None) == (body.emoji is None):
        raise ServiceError(422, "invalid_chat", "send exactly one of text or emoji")
    if body.emoji is not None and body.emoji not in REACTIONS:
        raise ServiceError(422, "invalid_chat", f"emoji must be one of {' '.join(REACTIONS)}")
    notifier = _notifier(request, service)
    message = await asyncio.to_thread(chat.post, table_id, token, body.text, body.emoji, notifier)
    notifier.chat_after_commit(table_id, message)
    return message
