/* The connection: the websocket (resuming with since=N after a drop), its messages, the commands sent over it
   (commands.js decides what to send; the answers, `ack` or `error` with the command's id as `ref`, come back
   here), and the REST reloads of this seat's view. Everything shown comes from the views received. */
import { S, $, emit, render, setError, setView } from "./state.js";
import { appendEvents, loadLog } from "./log.js";
import { addChat, loadChat } from "./chat.js";
import { heartbeat, onNetworkBack } from "./connection-status.js";

import { P10 } from "../common.js";
const { t, el } = P10;

function setConn(stateName) {
  const node = $("conn");
  node.className = "conn conn-" + stateName;
  node.querySelector(".conn-text").textContent = node.dataset[stateName === "on" ? "on" : stateName === "off" ? "off" : "wait"];
  node.dataset.state = stateName;
  emit("connection", stateName);
}

export function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // patch=1: after the first view, updates carry only the parts of the view that changed (docs/protocol.md).
  let url = `${proto}//${location.host}/ws/tables/${S.tableId}?patch=1`;
  if (S.gameId !== null) url += `&since=${S.version}&game=${S.gameId}`;
  setConn("wait");
  const ws = new WebSocket(url);
  S.ws = ws;
  // A silent drop never fires "close": the heartbeat notices, and the page reconnects with since=N.
  const beat = heartbeat(ws, { onDead: () => { if (S.ws === ws) dropAndRetry(ws); } });
  ws.addEventListener("open", () => {
    S.retry = 0;
    setConn("on");
    // a reconnection: the chat said while this socket was away (ids already shown are skipped)
    if (S.connectedOnce) loadChat();
    S.connectedOnce = true;
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch (err) { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", (event) => {
    beat.stop();
    lose(ws);
    if (S.ws !== ws) return;
    S.ws = null;
    setConn("off");
    if (event.code === 4404) { $("page-error").textContent = t("error.table_not_found"); return; }
    if (event.code === 4401) { showSeatless(); return; }
    if (S.seatGone) return;
    retryLater(event.code === 1012);  // 1012: the server restarts (another process is up): at once, since=N
  });
}

function retryLater(now = false) {
  clearTimeout(S.retryTimer);
  const delay = now && S.retry === 0 ? 0 : Math.min(8000, 500 * Math.pow(2, S.retry++));
  S.retryTimer = setTimeout(connect, delay);
}

function dropAndRetry(ws) {
  S.ws = null;
  lose(ws);
  setConn("off");
  try { ws.close(); } catch (err) { /* already closing */ }
  retryLater();
}

onNetworkBack(() => {
  if (S.ws || S.seatGone || !S.tableId) return;
  S.retry = 0;
  clearTimeout(S.retryTimer);
  connect();
});
P10.dropConnection = function () { if (S.ws) S.ws.close(); };  // used by tests and by the "offline" simulation

/* ------------------------------------------------------------------ commands over the socket
   Each command frame waits for its answer by its command id. A socket that closes (or is dropped as silent)
   first answers its waiting commands with {lost: true}: commands.js sends them again with the same id, which the
   server applies once (a copy it already applied is answered as a duplicate). */
const waiting = new Map();  // command_id -> {ws, resolve}

export function socketOpen() {
  return S.ws !== null && S.ws.readyState === WebSocket.OPEN;
}

/* Send one command ({command_id, command, expected_version?}) on the open socket; resolves with its answer in
   the shape of P10.api's ({ok, status, data}), or {lost: true}. */
export function sendCommand(body) {
  const ws = S.ws;
  return new Promise((resolve) => {
    waiting.set(body.command_id, { ws, resolve });
    try {
      ws.send(JSON.stringify(Object.assign({ type: "command" }, body)));
    } catch (err) {
      waiting.delete(body.command_id);
      resolve({ lost: true });
    }
  });
}

function lose(ws) {
  for (const [ref, w] of waiting) {
    if (w.ws !== ws) continue;
    waiting.delete(ref);
    w.resolve({ lost: true });
  }
}

function answer(ref, result) {
  const w = typeof ref === "string" ? waiting.get(ref) : undefined;
  if (!w) return false;
  waiting.delete(ref);
  w.resolve(result);
  return true;
}

function showSeatless() {
  $("page-error").textContent = t("error.bad_token");
  const link = el("a", { href: `/join/${S.tableId}` }, t("join.title"));
  $("page-error").append(" ", link);
}

function onMessage(msg) {
  emit("message", msg);
  switch (msg.type) {
    case "snapshot":
      S.table = msg.table || S.table;
      if (msg.game_id !== S.gameId) {
        S.selected.clear(); S.builder = null; S.pendingSummary = false; S.view = null; S.version = 0;
        if ($("summary").open) $("summary").close();
      }
      S.gameId = msg.game_id;
      S.seat = msg.seat;
      if (msg.view) setView(msg.view, msg.version);
      else { S.view = null; S.version = 0; }
      if (S.gameId !== null && S.logGame !== S.gameId) loadLog();
      render();
      break;
    case "update":
      if (msg.table) S.table = msg.table;
      if (msg.game_id !== S.gameId) { S.gameId = msg.game_id; S.view = null; }
      appendEvents(msg.since, msg.version, msg.events || []);
      if (msg.view_patch) {
        // A patch turns the view at `since` into the view at `version`; a page holding another version reloads it.
        if (S.view && S.version === msg.since) setView(patchedView(S.view, msg), msg.version);
        else if (msg.version > S.version) refreshView();
      } else if (msg.view && msg.version >= S.version) setView(msg.view, msg.version);
      render();
      break;
    case "table":
      S.table = msg.table;
      if (S.table.status === "waiting") refreshSeat(); else render();
      break;
    case "chat":
      addChat(msg);
      break;
    case "ack":
      answer(msg.ref, { ok: true, status: 200, data: { version: msg.version, duplicate: msg.duplicate, events: [] } });
      break;
    case "error":
      if (answer(msg.ref, { ok: false, status: 0, data: { error: { code: msg.code, message: msg.message } } })) break;
      if (msg.code === "seat_removed") { S.seatGone = true; showSeatless(); }
      else if (msg.code === "seat_moved") S.seatGone = true;  // banners.js says where it went; the page turns read-only
      else if (msg.ref === null && msg.code === "bad_token") { showSeatless(); }
      else setError(P10.errorText(msg));
      break;
    default:
      break;
  }
}

function patchedView(view, msg) {
  const next = Object.assign({}, view, msg.view_patch);
  for (const name of msg.view_unset || []) delete next[name];
  return next;
}

export async function refreshView() {
  const result = await P10.api("GET", `/api/tables/${S.tableId}/view`);
  if (result.ok && result.data.view && result.data.version >= S.version) {
    setView(result.data.view, result.data.version);
    render();
  }
}

/* Before the start a reorder or a removal moves seats: ask which one this browser holds now. */
export async function refreshSeat() {
  const result = await P10.api("GET", `/api/tables/${S.tableId}/view`);
  if (result.ok && result.data.game_id === null) S.seat = result.data.seat;
  render();
}
