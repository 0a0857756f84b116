/* Visible change: short animations of what a new view changed, this seat's moves and everyone else's alike —
   the deal, draws (pile to hand, or to an opponent's seat), discards, lays, hits, skips, dice and pawns —
   and the mark on the card just drawn, kept until this seat's next move.

   FLIP with the Web Animations API: before the new view is rendered ("view") every card on the table is
   measured by its data-card-id, after the render ("rendered") each card that moved is played from where it
   was, and a card that was not to be seen (a draw, an opponent's discard, lay or hit) comes from the pile or
   the seat it came from. Nothing runs with prefers-reduced-motion: reduce (the mark stays: it is no motion). */
import { S, on } from "./state.js";

import { P10 } from "../common.js";
const { t } = P10;
const DURATION = 320;
const CARDS = "#hand [data-card-id], #players [data-card-id], #piles [data-card-id]";

let before = null;          // what the page showed before the view being rendered
export const justDrawn = new Set();  // ids of the cards this seat just drew (marked until its next move)

export function reducedMotion() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; }

function rectOf(node) { return node ? node.getBoundingClientRect() : null; }

function measure() {
  const cards = new Map();
  // A card let go by a drag starts its flight from where it was dropped, not from its place in the hand.
  const dropped = document.querySelector(".drag-ghost[data-flying][data-card-id]");
  if (dropped) cards.set(Number(dropped.dataset.cardId), dropped.getBoundingClientRect());
  document.querySelectorAll(CARDS).forEach((node) => {
    const id = Number(node.dataset.cardId);
    if (!cards.has(id)) cards.set(id, node.getBoundingClientRect());
  });
  const seats = new Map();
  document.querySelectorAll("#players article[data-seat]").forEach((node) => seats.set(Number(node.dataset.seat), node.getBoundingClientRect()));
  const pawns = new Map();
  document.querySelectorAll("#board [data-pawn] circle").forEach((node) => pawns.set(Number(node.closest("[data-pawn]").dataset.pawn), node.getBoundingClientRect()));
  return { cards, seats, pawns, draw: rectOf(document.getElementById("pile-draw")), discard: rectOf(document.getElementById("pile-discard")) };
}

/* ------------------------------------------------------------------ the just-drawn mark */
function noteDrawn(view, old) {
  if (!old || view.round !== old.round || view.over) { justDrawn.clear(); return; }
  const had = new Set((old.hand || []).map((c) => c.id));
  const now = (view.hand || []).map((c) => c.id);
  const gained = now.filter((id) => !had.has(id));
  const lost = (old.hand || []).some((c) => !now.includes(c.id));
  if (gained.length) { justDrawn.clear(); gained.forEach((id) => justDrawn.add(id)); }
  else if (lost) justDrawn.clear();  // this seat moved (a lay, a hit, a discard…): the mark goes
}

function markDrawn() {
  const label = t("table.just_drawn");
  document.querySelectorAll("#hand [data-card-id]").forEach((node) => {
    const marked = justDrawn.has(Number(node.dataset.cardId));
    node.classList.toggle("just-drawn", marked);
    if (marked) node.setAttribute("aria-description", label); else node.removeAttribute("aria-description");
  });
}

/* ------------------------------------------------------------------ playing the changes */
function center(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

function flyFrom(node, from, delay, grow) {
  const to = node.getBoundingClientRect();
  if (!from || !to.width) return;
  const a = center(from), b = center(to);
  const dx = a.x - b.x, dy = a.y - b.y;
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
  const start = grow ? `translate(${dx}px, ${dy}px) scale(0.6)` : `translate(${dx}px, ${dy}px)`;
  // One keyframe: the card ends where the page's own style puts it (a selected card sits raised).
  node.animate([{ transform: start, opacity: grow ? 0.4 : 1 }],
    { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/* A face-down card flying between two places (an opponent's draw: nobody may see which card). */
function ghostFlight(from, to, delay) {
  if (!from || !to) return;
  const ghost = document.createElement("span");
  ghost.className = "card back small motion-ghost";
  ghost.setAttribute("aria-hidden", "true");
  const a = center(from), b = center(to);
  Object.assign(ghost.style, { left: a.x - 20 + "px", top: a.y - 28 + "px" });
  document.body.appendChild(ghost);
  const animation = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.7)`, opacity: 0.2 }],
    { duration: DURATION, delay, easing: "ease-in-out", fill: "both" });
  animation.onfinish = () => ghost.remove();
  animation.oncancel = () => ghost.remove();
}

function pulse(node) {
  if (node) node.animate([{ transform: "scale(1)" }, { transform: "scale(1.04)", boxShadow: "0 0 0 4px var(--accent, #e07b00)" }, { transform: "scale(1)" }],
    { duration: 500, easing: "ease-in-out" });
}

/* Who moved: the seat (other than this one) whose hand shrank, else the seat whose turn it was. */
function actor(view, old) {
  const shrank = (view.players || []).find((p) => {
    const was = (old.players || []).find((o) => o.seat === p.seat);
    return p.seat !== S.seat && was && p.hand_size < was.hand_size;
  });
  return shrank ? shrank.seat : old.turn;
}

function play(b, view, old) {
  const dealt = view.round !== old.round;
  const mover = actor(view, old);
  if (!b.draw) b.draw = rectOf(document.getElementById("pile-draw"));  // the first deal: the table was hidden
  let i = 0;
  document.querySelectorAll("#hand [data-card-id]").forEach((node) => {
    const id = Number(node.dataset.cardId);
    const was = b.cards.get(id);
    if (was && !dealt) flyFrom(node, was, 0, false);
    else if (dealt) flyFrom(node, b.draw, 40 * i++, true);  // the deal, one card after the other
    else flyFrom(node, b.draw, 0, true);                    // drawn blind (or received)
  });
  document.querySelectorAll("#players [data-card-id], #piles [data-card-id]").forEach((node) => {
    const id = Number(node.dataset.cardId);
    const was = b.cards.get(id);
    if (was) { if (!dealt) flyFrom(node, was, 0, false); return; }
    if (dealt) return;
    flyFrom(node, b.seats.get(mover) || b.draw, 0, true);  // an opponent's discard, lay, hit or action card
  });
  if (!dealt) {
    // Opponents' draws: a face-down card from the pile it came from to their seat.
    for (const p of view.players || []) {
      const was = (old.players || []).find((o) => o.seat === p.seat);
      if (p.seat === S.seat || !was || p.hand_size <= was.hand_size) continue;
      const fromDiscard = view.discard_size < old.discard_size;
      const seatNode = document.querySelector(`#players article[data-seat="${p.seat}"]`);
      for (let k = 0; k < Math.min(3, p.hand_size - was.hand_size); k++) {
        ghostFlight(fromDiscard ? b.discard : b.draw, rectOf(seatNode), 60 * k);
      }
    }
    // A skip landing: the skipped seat is marked (Mattel M-6) — its seat pulses.
    for (const p of view.players || []) {
      const was = (old.players || []).find((o) => o.seat === p.seat);
      if (p.skip_pending && was && !was.skip_pending) pulse(document.querySelector(`#players article[data-seat="${p.seat}"]`));
    }
  }
  // Board: pawns walk (FLIP in the SVG's own units) and freshly rolled dice tumble.
  const picture = document.querySelector("#board svg");
  if (picture) {
    const box = picture.viewBox.baseVal, size = picture.getBoundingClientRect();
    const scale = box && box.width ? size.width / box.width : 1;
    document.querySelectorAll("#board [data-pawn]").forEach((node) => {
      const was = b.pawns.get(Number(node.dataset.pawn));
      const now = node.querySelector("circle");
      if (!was || !now) return;
      const r = now.getBoundingClientRect();
      const dx = (was.left - r.left) / scale, dy = (was.top - r.top) / scale;
      if (Math.abs(dx) + Math.abs(dy) < 1) return;
      node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: DURATION * 2, easing: "ease-in-out" });
    });
    if ((view.dice || []).length && JSON.stringify(view.dice) !== JSON.stringify(old.dice)) {
      document.querySelectorAll("#board .die-face").forEach((node) => {
        node.animate([{ transform: "rotate(-200deg) scale(0.4)", opacity: 0.3 }, { transform: "none", opacity: 1 }], { duration: DURATION * 1.5, easing: "ease-out" });
      });
    }
  }
}

on("view", (view, old) => {
  noteDrawn(view, old);
  // Several views may arrive before one render: the page still shows the oldest, measure it once.
  if (before || reducedMotion() || !Element.prototype.animate) return;
  // No previous view: a page opened mid-game shows it as it is; one that watched the waiting room sees the
  // first deal.
  const waiting = document.getElementById("waiting");
  if (!old && !(waiting && !waiting.classList.contains("hidden"))) return;
  before = { rects: measure(), old: old || { round: null, players: [] } };
});

on("rendered", () => {
  markDrawn();
  if (!before) return;
  const { rects, old } = before;
  before = null;
  if (!S.view || reducedMotion()) return;
  play(rects, S.view, old);
});

P10.motion = { justDrawn };  // for tests and debugging
