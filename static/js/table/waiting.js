/* The waiting room: seats, the host's controls (order, remove, bots, clock) and the start button. */
import { S, $, botLevel, isHost, render, seatName } from "./state.js";
import { refreshSeat } from "./socket.js";
import { presenceDot } from "./connection-status.js";

import { P10 } from "../common.js";
import "../invite.js";
const { t, el, clear } = P10;

export function renderWaiting() {
  $("waiting").classList.remove("hidden");
  $("game").classList.add("hidden");
  const tb = S.table;
  $("waiting-ruleset").textContent = t("wait.ruleset", { ruleset: t("ruleset." + tb.ruleset + ".title"), seats: tb.capacity });
  const list = clear($("seat-list"));
  const host = isHost();
  tb.seats.forEach((seat, i) => {
    const badges = [];
    if (seat.is_host) badges.push(el("span", { class: "badge" }, t("wait.host")));
    if (seat.is_bot) {
      const level = botLevel(seat.seat);
      badges.push(el("span", { class: "badge", "data-level": level || "" },
        P10.icon("bot"), " " + t("wait.bot") + (level ? " · " + t("level." + level) : "")));
    }
    if (seat.seat === S.seat) badges.push(el("span", { class: "badge you" }, t("wait.you")));
    const controls = [];
    if (host) {
      const order = tb.seats.map((s) => s.seat);
      if (i > 0) {
        controls.push(el("button", { type: "button", class: "small", "aria-label": t("wait.up", { name: seatName(seat) }),
          onclick: () => { [order[i - 1], order[i]] = [order[i], order[i - 1]]; hostCall("POST", "seats/order", { order }); } }, "↑"));
      }
      if (i < tb.seats.length - 1) {
        controls.push(el("button", { type: "button", class: "small", "aria-label": t("wait.down", { name: seatName(seat) }),
          onclick: () => { [order[i + 1], order[i]] = [order[i], order[i + 1]]; hostCall("POST", "seats/order", { order }); } }, "↓"));
      }
      if (!seat.is_host) {
        controls.push(el("button", { type: "button", class: "small danger", "aria-label": t("wait.remove", { name: seatName(seat) }),
          onclick: () => hostCall("DELETE", "seats/" + seat.seat) }, "✕"));
      }
    }
    list.appendChild(el("li", { class: "seat-row", "data-seat": seat.seat },
      presenceDot(seat),
      el("span", { class: "seat-name" }, seatName(seat)), badges, el("span", { class: "seat-controls" }, controls)));
  });
  for (let i = tb.seats.length; i < tb.capacity; i++) {
    list.appendChild(el("li", { class: "seat-row free" }, el("span", { class: "dot off", "aria-hidden": "true" }),
      el("span", { class: "seat-name muted" }, t("wait.empty"))));
  }
  // The invite link: the host's from the lobby, a guest's the one they came with (join.js keeps both).
  const invite = P10.store.get("invite." + S.tableId);
  if (invite) {
    $("waiting-invite").classList.remove("hidden");
    $("waiting-invite-link").value = invite;
    P10.invite.show({ input: $("waiting-invite-link"), copy: $("waiting-copy"), share: $("waiting-share"),
      local: $("waiting-invite-local") });
  }
  renderOptions(tb);
  $("start-button").classList.toggle("hidden", !host);
  $("host-extras").classList.toggle("hidden", !host || !S.botsEnabled);
  $("add-bot").disabled = tb.seats.length >= tb.capacity;
  $("waiting-note").textContent = host ? t("wait.note_host", { min: 2 }) : t("wait.note_guest");
}

/* Every seat sees how the table is set (the host also changes the clock with the controls below): the rule
   set's options as the lobby named them, the turn timer and the stand-in with its level. */
function optionText(name, value) {
  const key = "option." + name;
  const label = t(key) === key ? name.replace(/_/g, " ") : t(key);
  let shown;
  if (typeof value === "boolean") shown = t(value ? "wait.on" : "wait.off");
  else if (value === null || value === undefined) shown = t("option.none");
  else if (Array.isArray(value)) shown = t("wait.custom_phases", { n: value.length });
  else {
    const choice = "choice." + name + "." + value;
    shown = t(choice) === choice ? String(value) : t(choice);
  }
  return label + ": " + shown;
}

function renderOptions(tb) {
  const items = Object.entries(tb.options || {}).map(([name, value]) => optionText(name, value));
  items.push(t("wait.timer") + ": " + t("timer." + (tb.turn_timer || "off")));
  items.push(t("wait.stand_in") + ": " + t(tb.stand_in ? "wait.on" : "wait.off") +
    (tb.stand_in && tb.stand_in_level ? " (" + t("level." + tb.stand_in_level) + ")" : ""));
  const list = clear($("waiting-options"));
  items.forEach((text) => list.appendChild(el("li", null, text)));
}

async function hostCall(method, path, body) {
  $("wait-error").textContent = "";
  const result = await P10.api(method, `/api/tables/${S.tableId}/${path}`, body);
  if (!result.ok) { $("wait-error").textContent = P10.errorText(result.data.error); return; }
  if (result.data && result.data.seats) { S.table = result.data; refreshSeat(); }
}

/** Wires the host's controls (once, at start) and reads the table's bot and clock settings. */
export async function initWaiting() {
  $("start-button").addEventListener("click", () => hostCall("POST", "start"));
  $("add-bot").addEventListener("click", async () => {
    const result = await P10.api("POST", `/api/tables/${S.tableId}/bots`, { level: $("bot-level").value });
    if (!result.ok) { $("wait-error").textContent = P10.errorText(result.data.error); return; }
    if (result.data.table) { S.table = result.data.table; render(); }
  });
  const setClock = () => hostCall("PUT", "clock", { turn_timer: $("turn-timer").value, stand_in: $("stand-in").checked,
    stand_in_level: $("stand-in-level").value });
  $("turn-timer").addEventListener("change", setClock);
  $("stand-in").addEventListener("change", setClock);
  $("stand-in-level").addEventListener("change", setClock);
  const bots = await P10.api("GET", `/api/tables/${S.tableId}/bots`);
  S.botsEnabled = bots.ok;
  if (bots.ok) {
    if (bots.data.turn_timer) $("turn-timer").value = bots.data.turn_timer;
    $("stand-in").checked = Boolean(bots.data.stand_in);
    if (bots.data.stand_in_level) $("stand-in-level").value = bots.data.stand_in_level;
  }
}
