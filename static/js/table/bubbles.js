/* Chat messages and reactions as speech bubbles at the sender's seat, on every screen size (the chat itself may
   sit in a closed drawer on a phone): under the seat's name on the table, in the waiting room's seat list
   before the start, or at the top of the screen when the seat is not in sight.

   A bubble is a picture of what the chat log says (the log is the live region): hidden from screen readers,
   and it lets taps through to whatever lies under it. Placed with the CSSOM (style.left/top), which the
   Content-Security-Policy allows, unlike style attributes. */
import { $ } from "./state.js";

const P10 = window.P10;
const { t, el } = P10;

const TEXT_MS = 5000, EMOJI_MS = 3000, MAX_CHARS = 90;
const shown = new Map();  // seat -> its bubble on screen

function anchorOf(seat) {
  const candidates = [`#players [data-seat="${seat}"] .player-name`, `#players [data-seat="${seat}"]`,
    `#seat-list [data-seat="${seat}"] .seat-name`];
  for (const selector of candidates) {
    const node = document.querySelector(selector);
    if (!node) continue;
    const rect = node.getBoundingClientRect();
    if (rect.width && rect.height && rect.bottom > 0 && rect.top < window.innerHeight) return rect;
  }
  return null;
}

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
  const rect = anchorOf(seat);
  const width = node.offsetWidth;
  const margin = 6;
  if (rect) {
    node.style.left = Math.max(margin, Math.min(rect.left, window.innerWidth - width - margin)) + "px";
    node.style.top = Math.min(rect.bottom + 4, window.innerHeight - node.offsetHeight - margin) + "px";
  } else {
    node.classList.add("bubble-away");
    node.style.left = Math.max(margin, (window.innerWidth - width) / 2) + "px";
    node.style.top = "3.2rem";
  }
  shown.set(seat, node);
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
