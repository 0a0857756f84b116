/* The table page's state: this seat's own view (C-9) and what the page derives from it, plus the hooks other
   modules hang on (rendering, motion, sound, drag and drop, notifications).

   Only this module owns `S`; the others read it and change it through the functions they export. */
import { P10 } from "../common.js";
const { t } = P10;

export const S = {
  tableId: null,
  table: null,          // public table info (seats, status, game)
  gameId: null,
  version: 0,
  seat: null,           // engine seat (or waiting-room position before the start)
  view: null,
  selected: new Set(),
  builder: null,        // [[card ids]] while building a lay-down
  builderFor: null,     // "round:phase" the builder belongs to
  building: false,      // the builder is open (it opens on demand, prompt.js)
  wasActing: false,     // this seat was awaited at the last render (render.js: the turn's start)
  sort: P10.store.get("sort") || "number",
  logVersion: 0,
  logGame: null,
  ws: null,
  retry: 0,
  closedByUs: false,
  pendingSummary: false,  // a round or the game ended since the last view: the summary opens on render
  roundEnds: {},        // round -> this seat's round-end event of this game (cards left, own cards; scores.js)
  roundKept: {},        // round -> {seat: count} kept at the board game's round end (B-8; scores.js)
  lastRoundEnd: null,
  roundEndsGame: null,  // the game those belong to
  chatSeen: new Set(),
  busy: false,
};
P10.state = S;  // the page's own view, for tests and debugging (it holds only this seat's view)

export const $ = (id) => document.getElementById(id);

/* ------------------------------------------------------------------ hooks
   A small event bus so that optional modules (motion, sound, drag and drop, push, presence...) plug in
   without the core knowing them:
     "view"      (newView, oldView, version)  a newer view of this seat was accepted
     "rendered"  ()                           the page was re-rendered from S
     "message"   (msg)                        a socket message arrived (before it is applied)
     "sent"      (command, ok, result)        a command went to the server
     "events"    (events)                     this seat's redacted events, loaded over REST for the log
     "connection" (state)                     "on" | "off" | "wait"
   Handlers must not throw into the core: errors are logged and swallowed. */
const handlers = new Map();

export function on(name, fn) {
  if (!handlers.has(name)) handlers.set(name, []);
  handlers.get(name).push(fn);
  return () => { const list = handlers.get(name); list.splice(list.indexOf(fn), 1); };
}

export function emit(name, ...args) {
  for (const fn of handlers.get(name) || []) {
    try { fn(...args); } catch (err) { console.error("table hook " + name, err); }  // eslint-disable-line no-console
  }
}
P10.table = { on, emit, state: S };  // the browser tests reach the table here (globalThis.P10, common.js)

/* Rendering is owned by render.js; everyone else asks for it through here (no import cycle). */
let renderer = () => {};
export function setRenderer(fn) { renderer = fn; }
export function render() { renderer(); }

/* ------------------------------------------------------------------ names and derived lookups */
/** A seat's name as this page says it (an unnamed bot's in the page's language: P10.playerName, common.js). */
export function seatName(s) {
  return s ? P10.playerName(s.name, Boolean(s.is_bot)) : "";
}

export function names() {
  const out = {};
  ((S.table && S.table.seats) || []).forEach((s) => { out[s.seat] = seatName(s); });
  return out;
}
export function nameOf(seat) { return names()[seat] || t("seat.n", { n: seat + 1 }); }
export function seatInfo(seat) { return ((S.table && S.table.seats) || []).find((x) => x.seat === seat) || null; }
export function connected(seat) { const s = seatInfo(seat); return Boolean(s && s.connected); }
export function isBot(seat) { const s = seatInfo(seat); return Boolean(s && s.is_bot); }
/** A bot seat's level (``easy``, ``normal``, ``hard``), or null for a human seat. */
export function botLevel(seat) {
  const bot = ((S.table && S.table.bots) || []).find((b) => b.seat === seat);
  return bot ? bot.level : null;
}
export function standIn(seat) { return ((S.table && S.table.stand_ins) || []).includes(seat); }
export function isHost() { return S.table && S.seat !== null && S.table.host_seat === S.seat && S.table.status === "waiting"; }
export function hand() { return (S.view && S.view.hand) || []; }
export function cardById(id) { return hand().find((c) => c.id === id); }
export function inBuilder(id) { return Boolean(S.builder && S.builder.some((g) => g.includes(id))); }
export function prompt() { return (S.view && S.view.prompt) || null; }
export function myTurnAction() { const p = prompt(); return p && p.action !== "wait" ? p.action : null; }

export function selectedIds() { return [...S.selected].filter((id) => cardById(id) && !inBuilder(id)); }
export function oneSelected() {
  const ids = selectedIds();
  if (ids.length !== 1) { setError(t("act.select_one")); return null; }
  return ids[0];
}

export function setError(text) {
  const node = $("action-error");
  node.textContent = text || "";
  if (text) node.classList.add("flash"); else node.classList.remove("flash");
}

/* Every newer view comes through here, from the socket, a command's answer or a reload. A round or the game
   ending between the view shown and the new one is what opens the summary: it is read from the views
   themselves, not from the event log (which may still be loading), so no page misses it. A page opened
   mid-game (no previous view) shows no old summaries. A round ends when its score-sheet row appears, not
   when the next round is dealt: with keep choices in between (board B-8, Master R-9) that is a later view. */
export function setView(view, version) {
  const old = S.view;
  if (old && ((view.history || []).length > (old.history || []).length ||
      (view.over && !old.over))) S.pendingSummary = true;
  S.view = view;
  S.version = version;
  emit("view", view, old, version);
}
