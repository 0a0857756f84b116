/* Chat messages and reactions as speech bubbles at the sender's seat, on every screen size (the chat itself may
   sit in a closed drawer on a phone): under the seat's name on the table, in the waiting room's seat list
   before the start, or at the top of the screen when the seat is not in sight.

   A bubble follows its seat while it shows: it is placed again after every render (the start of the game
   moves a bubble said in the waiting room to the seat's tile at the table), on a resize and when the field
   scrolls, so it never stays behind where the seat was. Under the name when there is room in the seat's
   scrolling box, else above it.

   A bubble is a picture of what the chat log says (the log is the live region): hidden from screen readers,
   and it lets taps through to whatever lies under it. Placed with the CSSOM (style.left/top), which the
   Content-Security-Policy allows, unlike style attributes. */
import { $, on } from "./state.js";

import { P10 } from "../common.js";
const { t, el } = P10;

const TEXT_MS = 5000, EMOJI_MS = 3000, MAX_CHARS = 90, MARGIN = 6, GAP = 4;
const shown = new Map();  // seat -> its bubble on screen

/* ``node``'s box and the room its scrolling box (the field) leaves below it, or null when the middle of
   ``node`` is not in sight (outside the viewport or clipped by an ancestor). */
function inSight(node) {
  const r = node.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  let box = { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
  let room = window.innerHeight;
  for (let p = node.parentElement; p && p !== document.body; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflowX !== "visible" || style.overflowY !== "visible") {
      const q = p.getBoundingClientRect();
      box = { top: Math.max(box.top, q.top), left: Math.max(box.left, q.left),
        bottom: Math.min(box.bottom, q.bottom), right: Math.min(box.right, q.right) };
      if (["auto", "scroll"].includes(style.overflowY)) room = Math.min(room, q.bottom);
    }
  }
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  if (y < box.top || y > box.bottom || x < box.left || x > box.right) return null;
  return { rect: r, room };
}

function anchorOf(seat) {
  const candidates = [`#players [data-seat="${seat}"] .player-name`, `#players [data-seat="${seat}"]`,
    `#seat-list [data-seat="${seat}"] .seat-name`];
  for (const selector of candidates) {
    const node = document.querySelector(selector);
    const seen = node && inSight(node);
    if (seen) return seen;
  }
  return null;
}

function place(node, seat) {
  const anchor = anchorOf(seat);
  const width = node.offsetWidth, height = node.offsetHeight;
  node.classList.toggle("bubble-away", !anchor);
  node.classList.remove("bubble-above");
  if (!anchor) {
    node.style.left = Math.max(MARGIN, (window.innerWidth - width) / 2) + "px";
    node.style.top = "3.2rem";
    return;
  }
  const { rect, room } = anchor;
  node.style.left = Math.max(MARGIN, Math.min(rect.left, window.innerWidth - width - MARGIN)) + "px";
  // below the name while it stays inside the seat's scrolling box (the field), else above the name
  const below = rect.bottom + GAP;
  const above = rect.top - GAP - height;
  const fitsBelow = below + height <= Math.min(room, window.innerHeight - MARGIN);
  if (!fitsBelow && above >= MARGIN) node.classList.add("bubble-above");
  node.style.top = (fitsBelow || above < MARGIN ? below : above) + "px";
}

function placeAll() {
  for (const [seat, node] of shown) place(node, seat);
}

on("rendered", placeAll);
window.addEventListener("resize", placeAll);
document.addEventListener("scroll", () => { if (shown.size) placeAll(); }, { capture: true, passive: true });

/** Show ``msg`` (a chat message: seat, name, text or emoji) as a bubble at its sender's seat. */
export function bubble(msg) {
  const seat = msg.seat ?? null;
  const old = shown.get(seat);
  if (old) old.remove();
  const who = msg.name || t("seat.n", { n: (seat ?? 0) + 1 });
  const text = msg.text && msg.text.length > MAX_CHARS ? msg.text.slice(0, MAX_CHARS - 1) + "…" : msg.text;
  const node = el("div", { class: "bubble" + (msg.emoji ? " bubble-emoji" : ""), "aria-hidden": "true", "data-seat": seat },
    el("strong", { class: "bubble-name" }, who), " ", msg.emoji ? el("span", { class: "bubble-big" }, msg.emoji) : text);
  document.body.appendChild(node);
  shown.set(seat, node);
  place(node, seat);
  setTimeout(() => { node.remove(); if (shown.get(seat) === node) shown.delete(seat); }, msg.emoji ? EMOJI_MS : TEXT_MS);
  return node;
}

/* The chat panel ($("chat-title")'s section) sits in the side column during the game and in the waiting room
   before the start, so the players can talk before anyone deals. */
export function placeChat(waiting) {
  const chat = $("chat-title").closest("section");
  const home = waiting ? $("waiting-chat") : $("side");
  if (chat.parentElement !== home) home.appendChild(chat);
}
