/* Drag and drop of hand cards with pointer events (mouse, pen and touch alike; the HTML5 drag API does not
   work on touch): onto a laid group to hit, onto the discard pile to discard, within the hand to reorder, and
   (Master) an action card onto the player it is played in front of or onto the blue pile, a Mattel skip onto
   the player it skips; and a pile the prompt lets this seat draw from onto the hand, to draw.
   While a card is dragged, or is the one card selected (the tap path, keyboard included), only the groups,
   players and piles it may legally go to are highlighted, from the prompt's hits, discards and plays
   (targets.js).
   A drop anywhere else sends nothing: the card flies back. Alt+←/→ moves the selected card in the hand. */
import { S, $, cardById, on, prompt, render, selectedIds, setError } from "./state.js";
import { send } from "./commands.js";
import { targetsOf } from "./targets.js";
import { setOrder } from "./order.js";

import { P10 } from "../common.js";
const { t } = P10;
const THRESHOLD = 6;  // px the pointer travels before a press becomes a drag (a shorter one is a tap)

let drag = null;          // {id, pointerId, x0, y0, dx, dy, moved, ghost}
let swallowClick = false; // the click that follows a drag's pointerup must not toggle the card

/* ------------------------------------------------------------------ highlighting */
function focusCard() {
  if (drag && drag.moved) return drag.id;
  const ids = selectedIds();
  return ids.length === 1 ? ids[0] : null;
}

/** Marks the legal drop targets of the dragged (or the one selected) card, and only those. */
export function highlight() {
  document.querySelectorAll(".legal-target").forEach((n) => n.classList.remove("legal-target"));
  document.querySelectorAll(".seat-more.peek").forEach((box) => peek(box, false));
  const id = focusCard();
  const p = prompt();
  if (id === null || !p || p.action === "wait") return;
  const targets = targetsOf(id);
  for (const index of targets.groups.keys()) {
    const node = document.querySelector(`#players [data-group="${index}"]`);
    if (!node) continue;
    node.classList.add("legal-target");
    const folded = node.closest(".seat-more[hidden]");
    if (folded) peek(folded, true);
  }
  if (targets.discard) { const pile = $("pile-discard"); if (pile) pile.classList.add("legal-target"); }
  for (const seat of targets.seats.keys()) {
    const node = document.querySelector(`#players [data-seat="${seat}"]`);
    if (node) node.classList.add("legal-target");
  }
  if (targets.blue) { const pile = $("pile-blue"); if (pile) pile.classList.add("legal-target"); }
}
/* Folded opponent's groups (players.js) that hold a legal target open while the card is held or selected. */
function peek(box, open) {
  box.hidden = !open;
  box.classList.toggle("peek", open);
  const toggle = document.querySelector(`[aria-controls="${box.id}"]`);
  if (toggle) toggle.setAttribute("aria-expanded", String(open));
}

on("rendered", () => {
  // A re-render during a drag (another seat moved) replaced the hand: the dragged card stays faded.
  if (drag && drag.moved) {
    const node = document.querySelector(`#hand [data-card-id="${drag.id}"]`);
    if (node) node.classList.add("drag-origin");
  }
  highlight();
});

/* ------------------------------------------------------------------ dragging */
function handCard(target) {
  const node = target && target.closest ? target.closest("#hand [data-card-id]") : null;
  return node && !S.busy ? node : null;
}

/* A pile this seat may draw from now (the prompt's piles): dragged onto the hand, it draws. */
function drawPile(target) {
  const node = target && target.closest ? target.closest("#piles button.pile:not(:disabled)") : null;
  const p = prompt();
  if (!node || S.busy || !p || (p.action !== "draw" && p.action !== "take")) return null;
  return (p.piles || []).includes(node.dataset.pile) ? node : null;
}

function onDown(event) {
  if (drag || (event.pointerType === "mouse" && event.button !== 0)) return;
  const pile = drawPile(event.target);
  if (pile) {
    drag = { pile: pile.dataset.pile, pointerId: event.pointerId, x0: event.clientX, y0: event.clientY, moved: false, ghost: null };
    return;
  }
  const node = handCard(event.target);
  if (!node) return;
  drag = { id: Number(node.dataset.cardId), pointerId: event.pointerId, x0: event.clientX, y0: event.clientY, moved: false, ghost: null };
}

function startDrag() {
  const node = drag.pile ? document.querySelector(`#pile-${drag.pile} .card`) : document.querySelector(`#hand [data-card-id="${drag.id}"]`);
  if (!node) { drag = null; return; }
  const rect = node.getBoundingClientRect();
  const ghost = node.cloneNode(true);
  ghost.removeAttribute("id");
  ghost.classList.add("drag-ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.tabIndex = -1;
  Object.assign(ghost.style, { left: rect.left + "px", top: rect.top + "px", width: rect.width + "px", height: rect.height + "px" });
  document.body.appendChild(ghost);
  node.classList.add("drag-origin");
  drag.ghost = ghost;
  drag.moved = true;
  document.body.classList.add("dragging");
  if (drag.pile) { const hand = $("hand-area"); if (hand) hand.classList.add("legal-target"); return; }
  highlight();
}

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const player = under.closest("#players [data-seat]");
  const seat = player ? Number(player.dataset.seat) : null;
  const group = under.closest("#players [data-group]");
  if (group) return { kind: "group", node: group, index: Number(group.dataset.group), player, seat };
  if (player) return { kind: "seat", node: player, seat };
  const pile = under.closest("#pile-discard");
  if (pile) return { kind: "discard", node: pile };
  const blue = under.closest("#pile-blue");
  if (blue) return { kind: "blue", node: blue };
  const hand = under.closest("#hand-area");
  if (hand) return { kind: "hand", node: hand };
  return null;
}

/* A card held near the top or bottom edge of the scrolling table area scrolls it, so that every group can
   be reached on a small screen. */
function edgeScroll(x, y) {
  const area = $("field");
  if (!area || area.scrollHeight <= area.clientHeight) return;
  const r = area.getBoundingClientRect();
  if (x < r.left || x > r.right) return;
  if (y >= r.top && y < r.top + 40) area.scrollTop -= 16;
  else if (y <= r.bottom && y > r.bottom - 40) area.scrollTop += 16;
}

function onMove(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const dx = event.clientX - drag.x0, dy = event.clientY - drag.y0;
  if (!drag.moved) {
    if (Math.hypot(dx, dy) < THRESHOLD) return;
    startDrag();
    if (!drag) return;
  }
  event.preventDefault();
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  edgeScroll(event.clientX, event.clientY);
  document.querySelectorAll(".drop-hover").forEach((n) => n.classList.remove("drop-hover"));
  const target = dropTarget(event.clientX, event.clientY);
  if (target && target.node.classList.contains("legal-target")) target.node.classList.add("drop-hover");
  else if (target && target.player && target.player.classList.contains("legal-target")) target.player.classList.add("drop-hover");
}

function finish() {
  document.querySelectorAll(".drop-hover").forEach((n) => n.classList.remove("drop-hover"));
  if (drag && drag.pile) { const hand = $("hand-area"); if (hand) hand.classList.remove("legal-target"); }
  document.querySelectorAll(".drag-origin").forEach((n) => n.classList.remove("drag-origin"));
  document.body.classList.remove("dragging");
  drag = null;
  highlight();
}

/* The ghost flies back to its card (instantly with reduced motion), then goes. */
function flyBack(ghost, id) {
  const node = document.querySelector(`#hand [data-card-id="${id}"]`);
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (!node || reduce || !ghost.animate) { ghost.remove(); return; }
  const from = ghost.getBoundingClientRect(), to = node.getBoundingClientRect();
  ghost.style.transform = "none";
  ghost.style.left = to.left + "px"; ghost.style.top = to.top + "px";
  const animation = ghost.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }],
    { duration: 180, easing: "ease-out" });
  animation.onfinish = () => ghost.remove();
  animation.oncancel = () => ghost.remove();
}

/* Where in the hand the card was dropped: before the first card whose middle lies after the pointer (rows
   of a wrapped hand read left to right, top to bottom). */
function reorder(id, x, y) {
  const nodes = [...document.querySelectorAll("#hand [data-card-id]")];
  const ids = nodes.map((n) => Number(n.dataset.cardId)).filter((other) => other !== id);
  let at = ids.length;
  for (let i = 0, k = 0; i < nodes.length; i++) {
    const other = Number(nodes[i].dataset.cardId);
    if (other === id) continue;
    const r = nodes[i].getBoundingClientRect();
    if (y < r.top || (y <= r.bottom && x < r.left + r.width / 2)) { at = k; break; }
    k++;
  }
  ids.splice(at, 0, id);
  setOrder(ids);
  render();
}

async function drop(id, target, x, y) {
  const ghost = drag.ghost;
  finish();
  swallowClick = true;
  setTimeout(() => { swallowClick = false; }, 0);
  if (!target) { flyBack(ghost, id); return; }
  if (target.kind === "hand") { ghost.remove(); reorder(id, x, y); return; }
  const targets = targetsOf(id);
  let command = null;
  if (target.kind === "group" && targets.groups.has(target.index)) {
    const ends = targets.groups.get(target.index);
    let end = ends[0];
    if (ends.length > 1) {  // both ends of a run: the half it was dropped on
      const r = target.node.getBoundingClientRect();
      end = x < r.left + r.width / 2 ? "low" : "high";
    }
    command = { type: "hit", card: id, group: target.index, end };
  } else if ((target.kind === "group" || target.kind === "seat") && targets.seats.has(target.seat)) {
    // An action card onto a player (a group of theirs counts as the player): the prompt's play for that seat.
    const play = targets.seats.get(target.seat);
    command = play.discard ? { type: "discard", card: id, target: play.target }  // a Mattel skip (M-6)
      : { type: "play_action", card: id, target: play.target, ask: true };
  } else if (target.kind === "blue" && targets.blue) {
    command = { type: "play_action", card: id, target: targets.blue.target, ask: true };  // Give me five asks
  } else if (target.kind === "discard" && targets.discard) {
    const skipTargets = (prompt() && prompt().skip_targets) || [];
    const card = cardById(id);
    if (card && card.kind === "action" && skipTargets.length > 1) {
      // A skip names its player: select it so the page asks whom (the tap path's list).
      S.selected.clear(); S.selected.add(id);
      ghost.remove();
      render();
      setError(t("dnd.choose_target"));
      const select = $("skip-target");
      if (select) select.focus();
      return;
    }
    command = { type: "discard", card: id, target: card && card.kind === "action" ? (skipTargets[0] ?? null) : null };
  }
  if (!command) {
    setError(t("dnd.not_here"));
    flyBack(ghost, id);
    return;
  }
  ghost.dataset.flying = "true";  // motion.js starts the card's flight from where it was let go
  const ok = await send(command);
  if (!ok) flyBack(ghost, id); else ghost.remove();
}

/* A pile dropped onto the hand draws from it; anywhere else nothing happens. */
async function dropPile(pile, target) {
  const ghost = drag.ghost;
  finish();
  swallowClick = true;
  setTimeout(() => { swallowClick = false; }, 0);
  if (!target || target.kind !== "hand") { ghost.remove(); return; }
  ghost.dataset.flying = "true";
  await send({ type: "draw", pile });
  ghost.remove();
}

function onUp(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  if (!drag.moved) { drag = null; return; }  // a tap: the click selects the card (or draws from the pile)
  if (drag.pile) { dropPile(drag.pile, dropTarget(event.clientX, event.clientY)); return; }
  drop(drag.id, dropTarget(event.clientX, event.clientY), event.clientX, event.clientY);
}

function onCancel(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const { ghost, id, moved, pile } = drag;
  finish();
  if (moved && ghost && pile) ghost.remove();
  else if (moved && ghost) flyBack(ghost, id);
}

/* Alt+← / Alt+→ moves the one selected hand card (the keyboard's reorder). */
function onKey(event) {
  if (!event.altKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
  const ids = selectedIds();
  if (ids.length !== 1) return;
  const order = [...document.querySelectorAll("#hand [data-card-id]")].map((n) => Number(n.dataset.cardId));
  const from = order.indexOf(ids[0]);
  const to = from + (event.key === "ArrowLeft" ? -1 : 1);
  if (from < 0 || to < 0 || to >= order.length) return;
  event.preventDefault();
  order.splice(to, 0, order.splice(from, 1)[0]);
  setOrder(order);
  render();
  const node = document.querySelector(`#hand [data-card-id="${ids[0]}"]`);
  if (node) node.focus();
}

export function initDnd() {
  const hand = $("hand");
  hand.addEventListener("pointerdown", onDown);
  $("piles").addEventListener("pointerdown", onDown);
  $("piles").addEventListener("click", (event) => {
    if (swallowClick) { event.stopPropagation(); event.preventDefault(); }
  }, true);
  document.addEventListener("pointermove", onMove, { passive: false });
  document.addEventListener("pointerup", onUp);
  document.addEventListener("pointercancel", onCancel);
  hand.addEventListener("click", (event) => {
    if (swallowClick) { event.stopPropagation(); event.preventDefault(); }
  }, true);
  document.addEventListener("keydown", onKey);
}
