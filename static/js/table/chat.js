/* Chat and emoji reactions of the seated players, before the start (in the waiting room) and during the game;
   each new one also shows as a bubble at its sender's seat (bubbles.js). */
import { S, $, on } from "./state.js";
import { bubble, placeChat } from "./bubbles.js";

import { P10 } from "../common.js";
const { t, el } = P10;

export function addChat(msg, fromHistory) {
  if (S.chatSeen.has(msg.id)) return;
  S.chatSeen.add(msg.id);
  const log = $("chat-log");
  const who = msg.name || t("seat.n", { n: (msg.seat ?? 0) + 1 });
  log.appendChild(el("li", { class: msg.emoji ? "reaction-line" : "" }, el("strong", null, who + ": "),
    msg.emoji ? el("span", { class: "big-emoji" }, msg.emoji) : msg.text));
  log.scrollTop = log.scrollHeight;
  if (!fromHistory) bubble(msg);  // at the sender's seat, on every screen size
  // a closed drawer shows that something new was said
  const inDrawer = $("side").contains(log);
  if (!fromHistory && inDrawer && !$("side").classList.contains("open")) $("chat-unread").classList.remove("hidden");
}

export async function loadChat() {
  const result = await P10.api("GET", `/api/tables/${S.tableId}/chat`);
  if (result.ok) (result.data.messages || []).forEach((m) => addChat(m, true));
}

async function postChat(body) {
  const result = await P10.api("POST", `/api/tables/${S.tableId}/chat`, body);
  if (!result.ok) { P10.toast(P10.errorText(result.data.error)); return; }
  addChat(result.data);
}

/** Wires the chat form and the reaction buttons (once, at start). */
export function initChat() {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    postChat({ text });
  });
  document.querySelectorAll(".reaction").forEach((b) => b.addEventListener("click", () => postChat({ emoji: b.dataset.emoji })));
  on("rendered", () => {
    const waiting = S.gameId === null || !S.view;
    placeChat(waiting);
    if (waiting) {  // render.js decides this during the game
      $("chat-controls").classList.toggle("hidden", S.seat === null);
      $("chat-spectator").classList.toggle("hidden", S.seat !== null);
    }
  });
}
