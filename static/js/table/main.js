/* The table page: waiting room, then the game of this browser's seat (or a spectator's view).

   Everything shown comes from this seat's own view (C-9): the websocket sends it on connect and after
   every accepted command; commands go to the REST API and the engine's error is shown next to the action.

   Modules, one job each:
     state.js     the page's state, derived lookups, hooks (on/emit) and the render request
     socket.js    websocket, resume with since=N, view reloads
     commands.js  sending commands with expected_version
     render.js    renders every area from the state (waiting.js, players.js, piles.js, prompt.js,
                  builder.js, hand.js, timer.js, scores.js; board.js draws the board game)
     log.js, chat.js  the event log and the chat
     targets.js   where a hand card may legally go, from the prompt (hits, discards)
     lights.js    the legal moves marked before choosing (hits, action cards, a fitting discard pile)
     dnd.js       drag and drop (pointer events) and the highlighting of legal targets; order.js the hand order
     motion.js    animations of what each new view changed, and the just-drawn mark
     cues.js      which moments sound (../sound.js plays them) and the sound switch
     ticker.js    a line for every move of the others; banners.js what concerns this player; bubbles.js
                  chat and reactions at the sender's seat; ../invite.js the invite link (reachable? share)
   Optional behaviour (drag and drop, motion, sound, notifications...) lives in its own module that imports
   state.js, subscribes with on("view" | "rendered" | "sent" | ...) and is imported below. */
import { S, $, on } from "./state.js";
import "./render.js";
import { connect } from "./socket.js";
import { initChat, loadChat } from "./chat.js";
import { initHand } from "./hand.js";
import { initScores } from "./scores.js";
import { initTimer } from "./timer.js";
import { initWaiting } from "./waiting.js";
import { initDnd } from "./dnd.js";
import "./motion.js";
import { initCues } from "./cues.js";
import { initSeatTransfer, renderSeatTransfer } from "./seat-transfer.js";
import "./alerts.js";  // turn alerts in the page; the page's visibility over the socket
import { initPush } from "./push.js";
import { initTicker } from "./ticker.js";
import { initBanners } from "./banners.js";
import { initPlayers } from "./players.js";
import { initLights } from "./lights.js";

import { P10 } from "../common.js";

function initPanels() {
  const toggle = (button, panel) => button.addEventListener("click", () => {
    const hidden = panel.classList.toggle("hidden");
    button.setAttribute("aria-expanded", String(!hidden));
  });
  toggle($("help-button"), $("help"));
  toggle($("scores-button"), $("scores"));
  // Log and chat: a side panel on wide screens, a drawer on narrow ones (app.css decides which).
  const side = $("side"), button = $("side-button");
  const openSide = (open) => {
    side.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
    if (open) { $("chat-unread").classList.add("hidden"); $("side-close").focus(); } else button.focus();
  };
  button.addEventListener("click", () => openSide(!side.classList.contains("open")));
  $("side-close").addEventListener("click", () => openSide(false));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && side.classList.contains("open")) openSide(false);
  });
}

async function start() {
  S.tableId = $("app").dataset.table;
  initHand();
  initDnd();
  initCues();
  initPanels();
  initScores();
  initChat();
  initSeatTransfer();
  on("rendered", renderSeatTransfer);
  initPush();
  initTicker();
  initBanners();
  initPlayers();
  initLights();
  const info = await P10.api("GET", `/api/tables/${S.tableId}`);
  if (!info.ok) { $("page-error").textContent = P10.errorText(info.data.error); return; }
  S.table = info.data;
  await initWaiting();
  loadChat();
  connect();
  initTimer();
}

// Module scripts run after the document is parsed; start at once if it already is.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
