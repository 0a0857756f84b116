/* Banners: what concerns this player, in a sentence above the table until it is read (or at once replaced by
   what follows it):
     - a skip played on this seat (Mattel M-6, Master R-10) and the turn it costs;
     - a decision its turn timer or a stand-in made for it (the events' "by", docs/protocol.md): "Your time ran
       out — the stand-in drew … and discarded … for you";
     (these two tell of a past turn: they go when this seat's next turn starts, never standing beside "your turn")
     - a round's end: who went out and what the round cost this seat (M-7, R-12; the board game B-8 counts none);
     - the Mattel tie-break round (M-8): who plays it and why, and that this seat sits it out if it does (its
       tile and the score sheet keep saying so once the banner is gone, and the log keeps the explanation);
     - a seat that left the table or came back (and that a stand-in plays for it, where the host allowed one);
     - this page offline or reconnecting (and then this seat's own tile says offline too);
     - this seat moved to another device: the page turns read-only, says where the seat went and offers
       nothing to press.
   The banners live in one polite live region (#banners) in the page's flow above the table (app.css): they push
   the table down and never lie over it. One shows at a time, the newest; a count on it ("+1") unfolds the
   others. Each but the sticky ones goes by itself after a few seconds. */
import { S, $, nameOf, names, on, render, seatName } from "./state.js";
import { setOwnConnection } from "./connection-status.js";
import { actor } from "./ticker.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el } = P10;

const SHOW_MS = 9000;
const timers = new Map();

let unfolded = false;  // all banners shown, not only the newest
let whole = false;  // the newest banner's words shown whole (a tap on them), not cut to the top bar's band

/** The newest banner shows; the others fold behind a count on it that unfolds them (and folds them again). */
function arrange() {
  const box = $("banners");
  const all = [...box.querySelectorAll(".banner")];
  if (all.length < 2) unfolded = false;
  if (!all.length) whole = false;
  box.querySelectorAll(".banner-more").forEach((b) => b.remove());
  all.forEach((node, i) => node.classList.toggle("folded", !unfolded && i < all.length - 1));
  // unfolded (on the player's tap), the banners leave the top bar's band for the page's flow (static/css/app.css)
  $("notices").classList.toggle("unfolded", unfolded || whole);
  if (all.length < 2) return;
  const n = all.length - 1;
  const newest = all[n];
  const more = el("button", { type: "button", class: "tiny banner-more", "aria-expanded": String(unfolded),
    "aria-label": t(unfolded ? "notice.fold" : "notice.more", { n }),
    onclick: () => { unfolded = !unfolded; arrange(); } }, unfolded ? "−" : "+" + n);
  newest.insertBefore(more, newest.querySelector(".banner-close"));
}

/** Show (or replace) the banner ``key``, as the newest: ``tone`` info | warn | err; a ``sticky`` one stays until
    removed; ``closable`` false offers no button (the seat-moved page has nothing to press). */
export function banner(key, text, { tone = "info", sticky = false, closable = true, ms = SHOW_MS } = {}) {
  const box = $("banners");
  const old = box.querySelector(`[data-banner="${CSS.escape(key)}"]`);
  const body = el("p", { class: "banner-text", title: text, onclick: () => { whole = !whole; arrange(); } }, text);
  const close = closable ? el("button", { type: "button", class: "tiny banner-close", "aria-label": t("notice.close"),
    onclick: () => removeBanner(key) }, "✕") : null;
  const node = el("div", { class: "banner banner-" + tone, "data-banner": key }, body, close);
  if (old) old.remove();
  box.appendChild(node);
  clearTimeout(timers.get(key));
  if (!sticky) timers.set(key, setTimeout(() => removeBanner(key), ms));
  arrange();
  return node;
}

export function removeBanner(key) {
  clearTimeout(timers.get(key));
  timers.delete(key);
  const node = $("banners").querySelector(`[data-banner="${CSS.escape(key)}"]`);
  if (node) { node.remove(); arrange(); }
}

/** "a, b and c" in the page's language. */
function listText(items) {
  return items.length > 1 ? items.slice(0, -1).join(", ") + t("notice.and") + items[items.length - 1] : items[0] || "";
}

/* ------------------------------------------------------------------ moves made for this seat */
let madeForMe = [];  // what the timer or the stand-in did for this seat in its current turn

function didText(e) {
  const card = e.card ? P10.cardLabel(e.card) : null;
  switch (e.type) {
    case "card_drawn":
      if (e.pile === "discard") return t("notice.did.took", { card: card || "" });
      return card ? t("notice.did.drew_card", { card }) : t("notice.did.drew");
    case "card_discarded": return t("notice.did.discarded", { card });
    case "phase_laid": return t("notice.did.laid");
    case "card_hit": return t("notice.did.hit", { card });
    case "skip_played": return e.target === null ? "" : t("notice.did.skip", { name: nameOf(e.target) });
    default: return P10.eventText(e, names()).replace(/\.$/, "");
  }
}

function madeFor(e) {
  const part = didText(e);
  if (!part) return;
  madeForMe.push(part);
  const what = listText(madeForMe);
  banner("made-for-you", t(e.by === "timer" ? "notice.timer" : "notice.stand_in", { what }), { tone: "warn" });
}

/* ------------------------------------------------------------------ the round's end */
function roundText(e, v) {
  let text;
  if (e.went_out === null || e.went_out === undefined) text = t("notice.round_stalled", { round: e.round });
  else if (e.went_out === S.seat) text = t("notice.round_you_out", { round: e.round });
  else text = t("notice.round_out", { round: e.round, name: nameOf(e.went_out) });
  const points = Array.isArray(e.points) && S.seat !== null ? e.points[S.seat] : null;
  if (points !== null && points !== undefined && e.went_out !== S.seat && v && v.ruleset !== "board" &&
      e.type === "round_ended") {
    text += " " + t(v.ruleset === "master" && v.scoring === "minus" ? "notice.round_cost_minus" : "notice.round_cost", { n: points });
  }
  return text;
}

let skippedBy = null;  // who played the skip on this seat that has not cost it its turn yet

function onEvents(events) {
  for (const e of events || []) {
    const who = actor(e);
    // what was made for this seat is told per turn: its own move, or a new turn of its own, starts afresh
    if (S.seat !== null && who === S.seat && (!e.by || e.type === "turn_started")) madeForMe = [];
    if (S.seat === null) {
      if (e.type === "round_ended" || e.type === "board_round_ended") banner("round", roundText(e, S.view));
      continue;
    }
    if ((e.type === "skip_played" && e.target === S.seat) ||
        (e.type === "action_played" && e.effect === "placed" && e.target === S.seat && e.seat !== S.seat)) {
      skippedBy = nameOf(e.seat);  // Mattel M-6; Master's Skip laid in front of this seat, R-10
      banner("skip", t("notice.skipped_you", { name: skippedBy }), { tone: "warn" });
    } else if (e.type === "turn_skipped" && e.seat === S.seat) {
      banner("skip", skippedBy ? t("notice.skipped_you_now", { name: skippedBy }) : t("notice.turn_skipped"), { tone: "warn" });
      skippedBy = null;
    } else if (e.type === "round_ended" || e.type === "board_round_ended") {
      banner("round", roundText(e, S.view));
    }
    if (e.type === "turn_started" && e.seat === S.seat) {
      // a new turn of this seat's own: what a past turn cost it is old news (the log keeps it)
      removeBanner("skip");
      removeBanner("made-for-you");
    }
    if (e.by && who === S.seat) madeFor(e);
  }
}

/* ------------------------------------------------------------------ the tie-break (M-8) */
let tieShown = null;

function onView(view) {
  if (!view || !view.tiebreak || view.over) {
    if (tieShown !== null) { removeBanner("tiebreak"); tieShown = null; }
    return;
  }
  const key = S.gameId + ":" + view.round;
  if (tieShown === key) return;
  tieShown = key;
  const playing = (view.players || []).filter((p) => p.in_round);
  let text = t("notice.tiebreak", { names: listText(playing.map((p) => nameOf(p.seat))) });
  if (S.seat !== null && !playing.some((p) => p.seat === S.seat)) text += " " + t("notice.tiebreak_out");
  // long enough to read, not over the table all round long: the tiles and the score sheet keep saying it
  removeBanner("round");
  banner("tiebreak", text, { ms: 20000 });
  // the banner goes after a while; the log keeps the explanation (one tap on the ticker or the log button)
  tieNote = { key, text };
  keepTieNote();
}

let tieNote = null;  // the tie-break's explanation for the log, kept there even when the log is loaded afresh

function keepTieNote() {
  if (tieNote && tieNote.key.startsWith(S.gameId + ":") &&
      !$("log").querySelector(`[data-note="${CSS.escape(tieNote.key)}"]`)) {
    $("log").appendChild(el("li", { class: "ev ev-notice", "data-note": tieNote.key }, tieNote.text));
  }
}

/* ------------------------------------------------------------------ seats leaving and coming back */
let present = null;  // seat -> connected, as last rendered
const leaving = new Map();  // seats gone a moment ago: announced if still away after a while
const away = new Set();  // seats announced as gone: their coming back is news (a first connection is not)

function onRendered() {
  keepTieNote();
  const seats = (S.table && S.table.seats) || [];
  const now = new Map(seats.filter((s) => !s.is_bot).map((s) => [s.seat + ":" + s.name, s]));
  if (present !== null && !S.seatGone) {
    for (const [key, s] of now) {
      if (s.seat === S.seat || !present.has(key) || present.get(key) === s.connected) continue;
      if (!s.connected) {
        // a phone that switches networks is back within a moment: only a seat still away is announced
        clearTimeout(leaving.get(key));
        leaving.set(key, setTimeout(() => {
          leaving.delete(key);
          const seat = ((S.table && S.table.seats) || []).find((x) => x.seat + ":" + x.name === key);
          if (!seat || seat.connected) return;
          away.add(key);
          const standIn = S.table.stand_in && S.gameId !== null ? " " + t("notice.stand_in_takes_over") : "";
          banner("presence-" + key, t("notice.left", { name: seatName(seat) }) + standIn);
        }, 2500));
      } else if (leaving.has(key)) {
        clearTimeout(leaving.get(key));
        leaving.delete(key);
      } else if (away.delete(key)) {
        banner("presence-" + key, t("notice.back", { name: seatName(s) }));
      }
    }
  }
  present = new Map([...now].map(([key, s]) => [key, s.connected]));
}

/* ------------------------------------------------------------------ this page's connection */
let offline = false;

function onConnection(state) {
  if (S.seatGone) return;
  if (state === "on") {
    setOwnConnection(true);
    if (offline) {
      offline = false;
      document.body.classList.remove("offline");
      removeBanner("offline");
      banner("online", t("notice.back_online"));
      render();
    }
    return;
  }
  if (!S.connectedOnce) return;  // the first connection of the page is no news
  const first = !offline;
  offline = true;
  setOwnConnection(false);
  document.body.classList.add("offline");
  removeBanner("online");
  banner("offline", t(navigator.onLine === false ? "notice.offline" : "notice.reconnecting"), { tone: "err", sticky: true });
  if (first) render();
}

/* ------------------------------------------------------------------ the seat moved away */
function seatMoved(msg) {
  S.seatGone = true;
  const text = msg.device ? t("notice.seat_moved_to", { device: msg.device }) : t("notice.seat_moved");
  document.body.classList.add("seat-gone");
  if ($("summary").open) $("summary").close();
  // read-only: nothing on the page can be pressed, focused or dragged any more
  for (const id of ["game", "waiting"]) $(id).inert = true;
  // the one thing left to say: no other banner (nor a count of them to unfold) stays
  $("banners").querySelectorAll(".banner").forEach((node) => removeBanner(node.dataset.banner));
  banner("seat-gone", text, { tone: "err", sticky: true, closable: false });
}

export function initBanners() {
  on("message", (msg) => {
    if (msg.type === "update" && msg.game_id === S.gameId) onEvents(msg.events);
    else if (msg.type === "error" && msg.code === "seat_moved") seatMoved(msg);
  });
  on("view", onView);
  on("rendered", onRendered);
  on("connection", onConnection);
}
