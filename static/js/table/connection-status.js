/* Honest presence on the page (docs/protocol.md, Heartbeat): the application heartbeat of one table socket, the
   browser's online/offline events, and how a seat's presence is shown.

   Every `interval` ms the page sends {"type": "ping"}; it answers the server's pings with {"type": "pong"}.
   Any message from the server is a sign of life (the server answers our pings, and pings a socket silent for 4 s); when none came
   for `timeout` ms (checked every second) the socket is declared dead (`onDead`), because a connection that
   silently lost its network never fires "close". The browser's own offline event declares it dead at once. */
import { P10 } from "../common.js";
const { t, el } = P10;

export function heartbeat(ws, options) {
  const interval = options.interval || 4000;
  const timeout = options.timeout || 8000;
  let lastHeard = Date.now();
  let lastPing = Date.now();
  let dead = false;

  function stop() {
    clearInterval(timer);
    ws.removeEventListener("message", onMessage);
    window.removeEventListener("offline", declareDead);
  }
  function declareDead() {
    if (dead) return;
    dead = true;
    stop();
    options.onDead();
  }
  function onMessage(event) {
    lastHeard = Date.now();
    let msg = null;
    try { msg = JSON.parse(event.data); } catch (err) { return; }
    if (msg && msg.type === "ping" && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "pong" }));
  }
  function tick() {
    const now = Date.now();
    if (now - lastHeard > timeout) { declareDead(); return; }
    if (now - lastPing >= interval && ws.readyState === WebSocket.OPEN) {
      lastPing = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }
  ws.addEventListener("message", onMessage);
  window.addEventListener("offline", declareDead);
  const timer = setInterval(tick, 1000);
  return { stop };
}

/* Call `reconnect` when the browser says the network is back. */
export function onNetworkBack(reconnect) { window.addEventListener("online", reconnect); }

/* This page's own connection, for its own seat's tile: the table info it last received may still say "connected"
   while this page is offline (banners.js tells it). */
let ownOnline = true;
export function setOwnConnection(online) { ownOnline = online; }

/* A seat's presence: bots show as bots (they have no socket, yet are never "offline"), people as online or
   offline from the table info's `connected` flag; this page's own seat as offline while the page is. */
export function presenceDot(info) {
  if (info && info.is_bot) {
    return el("span", { class: "dot bot", role: "img", "aria-label": t("wait.bot"), "data-presence": "bot" }, P10.icon("bot"));
  }
  const own = Boolean(info && P10.state && info.seat === P10.state.seat);
  const on = Boolean(info && info.connected) && !(own && !ownOnline);
  return el("span", { class: "dot " + (on ? "on" : "off"), role: "img", "data-presence": on ? "online" : "offline",
    "aria-label": on ? t("wait.online") : t("wait.offline") });
}
