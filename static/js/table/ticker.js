/* The ticker: one short line for every move of the others (who drew from which pile, what was discarded, laid,
   hit, played), shown for a few seconds at the top of the table, read out politely to screen readers
   (#ticker-live), and one tap away from the whole log (the ticker is a button that opens it).

   It reads the socket's updates (hook "message"), which carry this seat's redacted events (C-9): it never knows
   more than the log. The seat's own moves are not repeated; what concerns the seat itself is banners.js's. */
import { S, $, on, names } from "./state.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t } = P10;

const SHOW_MS = 6000;
const LINES = 3;  // at most this many moves in the line: a bot's quick draw and discard read as one turn
// Told by banners.js (round end, tie-break, game end) or not a move at all.
const NOT_MOVES = new Set(["turn_started", "hands_dealt", "round_ended", "board_round_ended", "tie_break_started",
  "game_ended", "keep_choices_asked", "draw_pile_rebuilt"]);

/** The seat that made the move an event tells of (``null`` for the table's own events). */
export function actor(e) {
  if (typeof e.seat === "number") return e.seat;
  if (typeof e.giver === "number") return e.giver;
  return null;
}

/** " (stand-in)" for an event of a decision made for the seat (its timer ran out, or a stand-in played). */
export function byText(e) {
  if (e.by === "timer") return " " + t("log.by_timer");
  return e.by === "stand_in" ? " " + t("log.by_stand_in") : "";
}

/** The event in words as the log has it, with who decided when it was not the player. */
export function moveText(e, nm) {
  const text = P10.eventText(e, nm || names());
  return text ? text + byText(e) : "";
}

/** The lines of ``events`` the ticker shows: the moves of the other seats (all of them for a spectator). */
export function othersMoves(events, seat) {
  const nm = names();
  return (events || []).filter((e) => !NOT_MOVES.has(e.type) && actor(e) !== null && actor(e) !== seat)
    .map((e) => moveText(e, nm)).filter(Boolean);
}

let hideTimer = null;

function show(lines) {
  const text = lines.slice(-LINES).join(" · ");
  const box = $("ticker");
  $("ticker-text").textContent = text;
  $("ticker-live").textContent = text;
  box.classList.remove("hidden");
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => box.classList.add("hidden"), SHOW_MS);
}

/* The log: the drawer on narrow screens (opened by its own button), the side column on wide ones. */
function openLog() {
  $("ticker").classList.add("hidden");
  const button = $("side-button");
  if (button && button.offsetParent !== null && !$("side").classList.contains("open")) button.click();
  else $("log").focus();
}

export function initTicker() {
  $("ticker").addEventListener("click", openLog);
  on("message", (msg) => {
    if (msg.type !== "update" || !S.view || msg.game_id !== S.gameId) return;
    const lines = othersMoves(msg.events, S.seat);
    if (lines.length) show(lines);
  });
}
