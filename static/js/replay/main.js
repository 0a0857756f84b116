/* The replay page: a game step by step. A finished game shows every hand (C-9: its whole record is public once
   it has finished) or what one seat saw ("view as"); a running game only what a spectator sees at each step
   (the server answers "public": true), and the page says hands are hidden until it ends. Every step has its own
   address (#step=187, with &seat=N when viewed as a seat), so a link opens the replay there.
   Modules: state.js (state, paths), timeline.js (slider, rounds, keys, autoplay), moves.js (the move list),
   view.js (the table, round line and score sheet), analysis.js (marks and player cards), files.js (record,
   share links). */
import { R, $, gamePath, nameOf } from "./state.js";
import { buildTimeline, stop } from "./timeline.js";
import { buildMoves, markMove, moveLabel } from "./moves.js";
import { renderState } from "./view.js";
import { loadAnalysis, showCards } from "./analysis.js";
import { initFiles, shareStep } from "./files.js";
import { initPractice, practiceStep } from "./practice.js";

import { P10 } from "../common.js";
import "../cards.js";
const { t, el } = P10;
let showing = 0;  // the latest step asked for: an older answer arriving late is not drawn

async function load(step, seat) {
  const cache = seat === null ? R.cache : R.seatCache;
  const key = seat === null ? step : seat + ":" + step;
  if (cache.has(key)) return cache.get(key);
  const r = await P10.api("GET", gamePath("/replay/" + step, seat === null ? {} : { seat }));
  if (!r.ok) { $("replay-error").textContent = P10.errorText(r.data.error); return null; }
  cache.set(key, r.data);
  return r.data;
}

/** One sentence per event of the step (the first deal says so); a step without a worded event names its move. */
function stepText(data) {
  const lines = [];
  for (const e of data.events || []) { const text = P10.eventText(e, R.names); if (text) lines.push(text); }
  if (!data.command) lines.unshift(t("replay.start"));
  else if (!lines.length) {
    const c = R.record.commands[data.step - 1];
    lines.push(t("replay.move", { name: nameOf(c.seat), move: moveLabel(c) }));
  }
  return t("replay.step_of", { n: data.step, total: R.record.version }) + " " + lines.join(" ");
}

export async function show(step) {
  step = Math.max(0, Math.min(step, R.record.version));
  showing = step;
  R.target = step;  // keys pressed while this step loads go on from it (timeline.js)
  const data = await load(step, R.seat);
  if (!data || showing !== step) return;
  R.step = step;
  $("rp-slider").value = String(step);
  $("rp-slider").setAttribute("aria-valuetext", t("replay.step_of", { n: step, total: R.record.version }));
  $("rp-step").textContent = `${step} / ${R.record.version}`;
  $("rp-command").textContent = stepText(data);
  renderState(data);
  markMove(step);
  showCards(step);
  practiceStep(step);
  shareStep(step);
  const hash = "#step=" + step + (R.seat !== null ? "&seat=" + R.seat : "");
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
}

function fromHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const step = parseInt(params.get("step"), 10);
  const seat = parseInt(params.get("seat"), 10);
  return { step: Number.isInteger(step) ? step : 0,
    seat: Number.isInteger(seat) && !R.record.public && seat >= 0 && seat < R.record.players ? seat : null };
}

function initViewAs() {
  if (R.record.public) return;
  const select = $("rp-view-as");
  R.record.seats.forEach((s) => select.appendChild(el("option", { value: String(s.seat) }, P10.playerName(s.name))));
  $("rp-view-as-label").classList.remove("hidden");
  select.value = R.seat === null ? "" : String(R.seat);
  select.addEventListener("change", () => {
    R.seat = select.value === "" ? null : parseInt(select.value, 10);
    show(R.step);
  });
}

/** Every card of a finished game's deal by id (the full state at step 0 holds them all): the move list
    names the cards of its moves. */
function learnCards(state) {
  const piles = [...(state.hands || []).flat(), ...(state.draw_pile || []), ...(state.discard_pile || []),
    ...(state.blue_pile || [])];
  for (const c of piles) if (c && c.id !== undefined) R.cards.set(c.id, c);
}

document.addEventListener("DOMContentLoaded", async () => {
  const root = $("replay");
  R.tableId = root.dataset.table;
  R.number = root.dataset.number;
  R.share = root.dataset.share || null;
  const r = await P10.api("GET", gamePath("/replay"));
  if (!r.ok) { $("replay-error").textContent = P10.errorText(r.data.error); return; }
  R.record = r.data;
  r.data.seats.forEach((s) => { R.names[s.seat] = P10.playerName(s.name); });
  $("replay-title").textContent = t("replay.title_game", { n: r.data.number }) + " · " + t("ruleset." + r.data.ruleset + ".title");
  $("replay-public").classList.toggle("hidden", !r.data.public);
  $("replay-shared").classList.toggle("hidden", !r.data.shared);
  const start = fromHash();
  R.seat = start.seat;
  if (!r.data.public) {
    const deal = await load(0, null);
    if (deal) learnCards(deal.state);
  }
  buildTimeline(show);
  buildMoves();
  $("rp-log").addEventListener("click", (event) => {
    const button = event.target.closest(".rp-mv");
    if (button) { stop(); show(parseInt(button.dataset.step, 10)); }
  });
  initViewAs();
  initFiles();
  initPractice();
  window.addEventListener("hashchange", () => {
    const target = fromHash();
    if (target.seat !== R.seat) { R.seat = target.seat; $("rp-view-as").value = R.seat === null ? "" : String(R.seat); }
    stop();
    show(target.step);
  });
  await show(start.step);
  loadAnalysis(show);
});
