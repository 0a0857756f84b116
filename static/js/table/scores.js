/* The score sheet, its charts, the round/game summary dialog, the end-of-game prompt and the rematch. */
import { offerRematch, rematchPanel } from "./rematch.js";
import { S, $, nameOf, on } from "./state.js";

import { P10 } from "../common.js";
import "../cards.js";
import "../scoresheet.js";
import "../series.js";
const { t, el, clear } = P10;

function scoreTable(v) { return P10.scoreTable(v, nameOf); }

export function renderScores() {
  const v = S.view;
  const box = clear($("scores"));
  P10.add(box, el("h2", null, t("table.scores")), scoreTable(v));
  if ((v.history || []).length) P10.add(box, chart(v, nameOf));
  P10.add(box, pastGames(), seriesBox());
}

/* The table's series (static/js/series.js): fetched again when a game starts or ends, kept between renders. */
let series = { key: null, node: null };
function seriesBox() {
  const key = `${gameNumber()}:${Boolean(S.view.over)}`;
  if (series.key !== key) {
    series = { key, node: el("div", { id: "series" }) };
    const node = series.node;
    P10.api("GET", `/api/tables/${S.tableId}/series`).then((r) => {
      if (r.ok && r.data.games.some((g) => g.status === "finished")) node.replaceChildren(P10.seriesView(r.data));
    });
  }
  return series.node;
}

/* The score and phase charts (static/js/scoresheet.js, shared with the replay). */
export function chart(v, nameOfSeat) { return P10.chart(v, nameOfSeat); }


export function maybeSummary() {
  if (!S.pendingSummary) return;
  S.pendingSummary = false;
  openSummary();
}

function replayHref(number) { return `/tables/${S.tableId}/games/${number}/replay`; }
function gameNumber() { return S.table && S.table.game ? S.table.game.number : 1; }

/* The end of a game stays usable after a refresh or a late arrival: the prompt offers the result, the
   replay and (to the seated players) the rematch; the score sheet links the replays of every finished game
   at this table. The controls are patched in place (P10.patch): another player's answer to the rematch, or a
   seat connecting, re-renders the page while this player clicks a button or edits the next game's options. */
export function renderOver(promptNode, controls) {
  promptNode.textContent = t("prompt.over");
  P10.patch(controls, [
    el("button", { type: "button", id: "over-summary", onclick: openSummary }, t("summary.show")),
    el("a", { class: "button", id: "over-replay", href: replayHref(gameNumber()) }, t("summary.replay")),
    rematchPanel()]);
}

function pastGames() {
  // every game at this table: a finished one in full, the running one as far as a spectator may see it
  const current = gameNumber();
  const links = [];
  for (let n = 1; n <= current; n++) {
    const live = n === current && !S.view.over;
    links.push(el("a", { href: replayHref(n), class: live ? "live" : null }, t(live ? "table.game_so_far" : "table.game_n", { n })));
  }
  return el("p", { id: "past-games" }, t("table.replays") + " ", ...links.flatMap((a, i) => (i ? [" · ", a] : [a])));
}

/* The cards left in hand at a round's end come with its round-end event (M-7, R-12, B-8): every seat's count,
   and this seat's own cards only (C-9). Events reach the page in socket updates, in the answer to its own
   command and in the log's REST loads; the last one per round of this game is kept for the summary. */
const ROUND_ENDS = new Set(["round_ended", "board_round_ended"]);

function rememberRoundEnds(events) {
  let fresh = false;
  for (const e of events || []) {
    if (S.roundEndsGame !== S.gameId) { S.roundEnds = {}; S.roundKept = {}; S.lastRoundEnd = null; S.roundEndsGame = S.gameId; }
    if (ROUND_ENDS.has(e.type) && Array.isArray(e.cards_left)) {
      S.roundEnds[e.round] = e;
      S.lastRoundEnd = e.round;
      fresh = true;
    } else if (e.type === "cards_kept" && S.lastRoundEnd !== null) {
      // B-8: how many cards a player kept is public (which ones only the keeper sees)
      (S.roundKept[S.lastRoundEnd] = S.roundKept[S.lastRoundEnd] || {})[e.seat] = e.count;
      fresh = true;
    }
  }
  // The summary may already be open (a view can land before the events): show what just arrived.
  if (fresh && $("summary").open) openSummary();
}

function roundEnd(round) {
  return S.roundEndsGame === S.gameId && S.roundEnds ? S.roundEnds[round] || null : null;
}

/* Per player: cards left and what they cost (Mattel penalty points M-7, Master minus points R-12; the board
   game counts none, B-8: the players with their phase down discard their hand, the others keep up to five,
   and once they have chosen, how many they kept),
   and this seat's own leftover cards face up. Nobody else's cards are ever shown: the page never has them. */
function leftInHand(v, e) {
  const kept = (S.roundKept && S.roundKept[e.round]) || {};
  const cost = (seat) => {
    const n = e.points ? e.points[seat] : 0;
    if (v.ruleset === "master" && v.scoring === "minus") return t("summary.minus", { n });
    if (v.ruleset !== "board") return t("summary.penalty", { n });  // Mattel, Master's points scoring
    if (v.over || !e.cards_left[seat]) return null;
    if (kept[seat] !== undefined) return t("summary.board_kept", { n: kept[seat] });
    return (e.keepers || []).includes(seat) ? t("summary.board_keeps") : t("summary.board_discards");
  };
  const rows = v.players.map((p) => {
    const n = e.cards_left[p.seat] || 0;
    const parts = [t("table.cards", { n })];
    if (e.went_out === p.seat) parts.push(t("summary.out"));
    const price = cost(p.seat);
    if (price && e.went_out !== p.seat) parts.push(price);
    const li = el("li", { "data-seat": p.seat }, el("strong", null, nameOf(p.seat)), ": " + parts.join(" · "));
    if (p.seat === S.seat && e.hand && e.hand.length) {
      P10.add(li, el("div", { class: "left-cards", id: "summary-own-cards", role: "group", "aria-label": t("summary.your_cards") },
        el("span", { class: "muted" }, t("summary.your_cards")), " ",
        e.hand.map((c) => P10.cardEl(c, { small: true }))));
    }
    return li;
  });
  return el("section", { class: "left-in-hand", id: "summary-left" },
    el("h3", null, t("summary.left_in_hand")), el("ul", null, rows));
}

export function openSummary() {
  const v = S.view;
  const hist = v.history || [];
  const dialog = $("summary");
  const body = clear($("summary-body"));
  const last = hist[hist.length - 1];
  let winners = null;
  if (v.over) {
    $("summary-title").textContent = t("summary.game");
    winners = el("p", { class: "winners" }, P10.icon("trophy"), " " + t("summary.winners", { names: (v.winners || []).map(nameOf).join(", ") }));
    const link = $("summary-replay");
    link.href = replayHref(gameNumber());
    link.classList.remove("hidden");
    $("summary-rematch").classList.toggle("hidden", S.seat === null);
  } else {
    $("summary-title").textContent = t("summary.round", { n: last ? last.round : v.round - 1 });
    $("summary-replay").classList.add("hidden");
    $("summary-rematch").classList.add("hidden");
  }
  // who leads first (a table of few columns and a bar each, best first: it fits a phone at six seats), then
  // what each player had left, then the whole score sheet by round and its charts, folded (it is as wide as
  // the seats are many: it scrolls in its own box, and the Scores panel has it too)
  const fixedRounds = Boolean(S.table && S.table.options && S.table.options.fixed_rounds);
  P10.add(body, P10.rankingView(v, nameOf, { fixedRounds, lead: winners }));
  const ended = last ? roundEnd(last.round) : null;
  if (ended) P10.add(body, leftInHand(v, ended));
  // every rule set keeps a score sheet (the board game's "points" are the marker fields gained, B-8)
  if (hist.length) {
    P10.add(body, el("details", { class: "summary-sheet", id: "summary-sheet" }, el("summary", null, t("ranking.sheet")),
      el("div", { class: "table-scroll" }, scoreTable(v)), chart(v, nameOf)));
  }
  if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
  else dialog.setAttribute("open", "");
}

export function initScores() {
  on("message", (msg) => { if (msg.type === "update") rememberRoundEnds(msg.events); });
  on("sent", (command, ok, result) => { if (ok && result.data) rememberRoundEnds(result.data.events); });
  on("events", rememberRoundEnds);
  $("summary-close").addEventListener("click", () => $("summary").close());
  $("summary-rematch").addEventListener("click", offerRematch);
}
