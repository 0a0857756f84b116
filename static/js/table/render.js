/* Rendering the page from S: the waiting room before the game, then every area of the table. Re-rendering
   replaces nodes; the keyboard focus is given back to the replacement of the node that had it. */
import { S, $, emit, hand, myTurnAction, names, prompt, setError, setRenderer } from "./state.js";
import { send } from "./commands.js";
import { renderWaiting } from "./waiting.js";
import { renderTimer } from "./timer.js";
import { fitFelt, renderPlayers } from "./players.js";
import { renderPiles } from "./piles.js";
import { renderPrompt } from "./prompt.js";
import { renderHand } from "./hand.js";
import { maybeSummary, renderScores } from "./scores.js";

import { P10 } from "../common.js";
import "../board.js";
const { t, el } = P10;

/* A stable key of the focused node, to find its replacement after a re-render. */
function focusKey(node) {
  if (!node || node === document.body || !node.closest("#app")) return null;
  if (node.id) return "#" + CSS.escape(node.id);
  const parts = [];
  for (const attr of ["data-card-id", "data-hit", "data-end", "data-put", "data-steps", "data-action", "data-search", "data-give", "aria-label"]) {
    const value = node.getAttribute(attr);
    if (value !== null) parts.push(`[${attr}="${CSS.escape(value)}"]`);
  }
  if (!parts.length) return null;
  const area = node.closest("[id]");
  return (area ? "#" + CSS.escape(area.id) + " " : "") + node.tagName.toLowerCase() + parts.join("");
}

/* A tap is a press and a release on one node: a re-render between the two replaces the node, and the browser
   then sends no click, so the tap is lost (a socket message landing mid-tap did that, with a pile or a card
   under the finger). While a pointer is pressed, renders wait; its release renders once, after the click it
   makes has run. A press held longer than HOLD_MS (a slow drag, or a release the page never heard of) holds
   the table back no longer, nor one whose window lost the focus. */
const HOLD_MS = 1500;
const pressed = new Set();
let held = false;
let holdTimer = null;

function release(event) {
  pressed.delete(event.pointerId);
  if (!pressed.size && held) setTimeout(flush, 0);  // after this release's click
}
document.addEventListener("pointerdown", (event) => { pressed.add(event.pointerId); }, true);
document.addEventListener("pointerup", release, true);
document.addEventListener("pointercancel", release, true);
window.addEventListener("blur", () => {  // a release the page will not hear of (the window lost the pointer)
  pressed.clear();
  flush();
});

function flush() {
  if (held) draw();
}

export function render() {
  if (pressed.size) {
    if (!held) holdTimer = setTimeout(flush, HOLD_MS);
    held = true;
    return;
  }
  draw();
}

function draw() {
  held = false;
  clearTimeout(holdTimer);
  const key = focusKey(document.activeElement);
  renderAll();
  if (S.view && S.gameId !== null) fitFelt();
  if (key && (!document.activeElement || document.activeElement === document.body)) {
    const again = document.querySelector(key);
    if (again) again.focus();
  }
  turnStarts();
  emit("rendered");
}
setRenderer(render);
P10.table.render = render;  // for the layout tests, which show the page crafted views

/* When this seat's turn comes, the focus goes to the prompt (its first legal move is the next Tab stop) and a
   polite live region says so; not while the player types or reads a dialog or the log and chat drawer. */
function turnStarts() {
  const acting = Boolean(S.view && !S.view.over && S.seat !== null && myTurnAction());
  const began = acting && !S.wasActing;
  S.wasActing = acting;
  if (!acting) { $("turn-live").textContent = ""; return; }
  if (!began) return;
  $("turn-live").textContent = t("table.turn_now", { prompt: $("prompt").textContent });
  const active = document.activeElement;
  const busy = active && active !== document.body && (active.matches("input, textarea, select, [contenteditable]") ||
    active.closest("dialog, #side.open, #transfer"));
  if (!busy && !document.querySelector("dialog[open]")) $("prompt").focus({ preventScroll: true });
}

/* "Phase 10 (Mattel card game) · Round 3"; on small screens (app.css) the game's short name, so that the
   title and the turn timer share a line where they can. Only the name gives way to an ellipsis, the round never. */
function renderTitle(v) {
  const practice = Boolean(S.table && S.table.practice);
  const key = v.ruleset + ":" + v.round + ":" + practice;
  const title = $("game-title");
  if (title.dataset.key === key) return;
  title.dataset.key = key;
  P10.add(P10.clear(title),
    el("span", { class: "title-name" }, el("span", { class: "title-long" }, t("ruleset." + v.ruleset + ".title")),
      el("span", { class: "title-short" }, t("ruleset." + v.ruleset + ".short"))),
    el("span", { class: "title-sep", "aria-hidden": "true" }, "·"),
    el("span", { class: "title-round" }, t("table.round", { n: v.round })),
    practice ? el("span", { class: "badge practice", title: t("practice.badge_help") }, t("practice.badge")) : null);
}

function renderAll() {
  if (!S.table) return;
  // A player in another tab sees at a glance that the game waits for them.
  S.baseTitle = S.baseTitle || document.title;
  document.title = (S.view && myTurnAction() ? "▶ " + t("title.your_turn") + " · " : "") + S.baseTitle;
  if (S.gameId === null || !S.view) {
    document.body.classList.remove("in-game");
    if (S.table.status === "waiting") renderWaiting();
    return;
  }
  $("waiting").classList.add("hidden");
  $("game").classList.remove("hidden");
  document.body.classList.add("in-game");  // the one-screen layout (app.css)
  const seated = S.seat !== null;
  $("chat-controls").classList.toggle("hidden", !seated);  // spectators read the chat but cannot write
  $("chat-spectator").classList.toggle("hidden", seated);
  const v = S.view;
  document.body.dataset.ruleset = v.ruleset;
  renderTitle(v);
  document.querySelectorAll(".rules-section").forEach((n) => n.classList.toggle("hidden", n.dataset.ruleset !== v.ruleset));
  // Drop selections of cards that left the hand; reset the builder when the phase changes.
  const ids = new Set(hand().map((c) => c.id));
  for (const id of [...S.selected]) if (!ids.has(id)) S.selected.delete(id);
  const key = v.round + ":" + JSON.stringify(v.my_phase || null);
  if (S.builderFor !== key || !(prompt() && prompt().can_lay)) {
    S.builder = null;
    S.building = false;
    S.builderFor = key;
  }
  if (S.builder) S.builder = S.builder.map((g) => g.filter((id) => ids.has(id)));
  // the lay-down being built (app.css: on a small phone the board game's ring gives way to its strip)
  document.body.classList.toggle("building", Boolean(S.building && prompt() && prompt().can_lay && v.my_phase));
  if (v.ruleset === "board" && P10.renderBoard) {
    $("board").classList.remove("hidden");
    $("board-track").classList.remove("hidden");
    P10.renderBoard($("board"), v, { names: names(), seat: S.seat, send, setError, prompt: prompt(), trackBox: $("board-track") });
  } else {
    $("board").classList.add("hidden");
    $("board-track").classList.add("hidden");
  }
  renderTimer();
  renderPlayers();
  renderPiles();
  renderPrompt();
  renderHand();
  renderScores();
  maybeSummary();
}
