/* Sending commands: one at a time, with this view's expected_version (so a move made on an old picture is
   refused as stale, and nothing changes); the engine's error is shown next to the actions. They go over the
   table's socket (a `command` frame, answered by `ack` or `error`); only while it is not open over REST. */
import { S, $, emit, on, render, setError, setView } from "./state.js";
import { refreshView, sendCommand, socketOpen } from "./socket.js";

import { P10 } from "../common.js";

/* Answers that several seats give at the same time (Give-me-five offers R-11, All-mine keep choices R-9,
   the board game's keep B-8) do not conflict: another seat's answer landing first must not turn this one
   into a "stale" error, so they go without expected_version and apply to the current state. */
const AT_ONCE = new Set(["offer_card", "keep_hand", "keep"]);

/* No answer from the game server: the network dropped (status 0) or the proxy answered for it while a server
   process restarted (502, 503, 504). The same body, command_id included, is sent again after these pauses: the
   server applies a command id once, and a resend of one it applied answers as the first copy did. */
const RESEND = new Set([0, 502, 503, 504]);
const RESEND_AFTER_MS = [300, 1000, 2000];

/* The socket's answer names only the new version; the view comes with the socket's update, often before the
   answer. The next move waits until the page shows that version (so it is made on the picture the command
   left), for at most this long, then the view is reloaded. */
const VIEW_AFTER_ACK_MS = 2000;

async function post(path, body) {
  let result = await P10.api("POST", path, body);
  for (const pause of RESEND_AFTER_MS) {
    if (!RESEND.has(result.status)) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
    result = await P10.api("POST", path, body);
  }
  return result;
}

/* Over the socket while it is open; a command whose socket closed before its answer is sent again with the same
   id, over the new socket if it is open by then, else over REST (as is one sent while no socket is open). A
   `database_unavailable` answer is sent again after the same pauses as a REST 503. */
async function deliver(path, body) {
  for (let attempt = 0; attempt <= RESEND_AFTER_MS.length && socketOpen(); attempt++) {
    const result = await sendCommand(body);
    if (result.lost) continue;
    const code = result.ok ? null : result.data.error.code;
    if (code !== "database_unavailable" || attempt === RESEND_AFTER_MS.length) return result;
    await new Promise((resolve) => setTimeout(resolve, RESEND_AFTER_MS[attempt]));
  }
  return post(path, body);
}

function untilVersion(version, ms) {
  if (S.version >= version) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => { off(); resolve(false); }, ms);
    const off = on("view", () => {
      if (S.version < version) return;
      clearTimeout(timer); off(); resolve(true);
    });
  });
}

/* One command at a time. A move made while this page's previous command still waits for its answer (the socket
   often brings the new picture first, so a quick player already sees and plays the next step) waits for that
   answer and is then sent, unless the answer changed the picture the move was made on (a double click): then
   it is dropped, as a move on an old picture. */
let queue = Promise.resolve(false);

export function send(command) {
  const madeOn = S.version;
  const run = queue.then(() => (S.version === madeOn || AT_ONCE.has(command.type) ? sendNow(command) : false));
  queue = run.catch(() => false);
  return run;
}

async function sendNow(command) {
  S.busy = true;
  setError("");
  const body = { command_id: P10.uuid(), command };
  if (!AT_ONCE.has(command.type)) body.expected_version = S.version;
  const result = await deliver(`/api/tables/${S.tableId}/commands`, body);
  S.busy = false;
  emit("sent", command, result.ok, result);
  if (!result.ok) {
    setError(P10.errorText(result.data.error));
    if (result.data.error && result.data.error.code === "stale_version") refreshView();
    return false;
  }
  // The selection belongs to the picture it was made on: a player who already saw this version (the socket was
  // first) and picked cards on it keeps them.
  if (result.data.version > S.version) S.selected.clear();
  if (result.data.view && result.data.version >= S.version) setView(result.data.view, result.data.version);
  render();
  if (!(await untilVersion(result.data.version, VIEW_AFTER_ACK_MS))) await refreshView();
  keepFocus();
  return true;
}

/* After a move the button pressed is usually gone: put the focus on the next sensible control. */
function keepFocus() {
  const active = document.activeElement;
  if (active && active !== document.body && document.body.contains(active)) return;
  const next = document.querySelector("#prompt-controls button:not([disabled]), #actions button:not([disabled]), #hand button");
  if (next) next.focus(); else $("prompt").focus();
}
