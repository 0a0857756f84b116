/* The event log: loaded over REST (every event of this game since the last one shown, redacted for this
   seat) and then extended by the socket's updates; a gap or an update during a load triggers a catch-up. */
import { S, $, emit, names } from "./state.js";
import { moveText } from "./ticker.js";

import { P10 } from "../common.js";
const { t, el, clear } = P10;

export async function loadLog() {
  if (S.logLoading) { S.logAgain = true; return; }
  const game = S.gameId;
  if (S.logGame !== game) {
    S.logGame = game;
    S.logVersion = 0;
    // The first deal is part of the new game, not of a command: one line says so.
    clear($("log")).appendChild(el("li", { class: "ev ev-new_game" }, t("ev.new_game", { n: (S.table && S.table.game && S.table.game.number) || 1 })));
  }
  const since = Math.max(0, S.logVersion);
  S.logLoading = true;
  const result = await P10.api("GET", `/api/tables/${S.tableId}/events?since=${since}`);
  S.logLoading = false;
  if (result.ok && S.gameId === game) {
    emit("events", result.data.events);
    appendEvents(since, result.data.version, result.data.events);
  }
  if (S.gameId !== game || S.logAgain || (result.ok && S.version > S.logVersion)) {
    S.logAgain = false;
    if (S.gameId !== null && (S.gameId !== game || S.version > S.logVersion)) loadLog();
  }
}

export function appendEvents(since, version, events) {
  if (S.logLoading) { S.logAgain = true; return; }
  if (S.logGame !== S.gameId) { loadLog(); return; }
  if (version <= S.logVersion) return;
  if (since > S.logVersion) { loadLog(); return; }
  const log = $("log");
  const nm = names();
  for (const e of events) {
    const text = moveText(e, nm);  // with "(stand-in)" where the timer or a stand-in decided
    if (!text) continue;
    log.appendChild(el("li", { class: "ev ev-" + e.type }, text));
  }
  S.logVersion = version;
  log.scrollTop = log.scrollHeight;
}
