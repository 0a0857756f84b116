/* Honest presence on the page (docs/protocol.md, Heartbeat): the application heartbeat of one table socket.

   Every `interval` ms the page sends {"type": "ping"}; it answers the server's pings with {"type": "pong"}.
   Any message from the server is a sign of life; when none came for `timeout` ms the socket is declared dead
   (`onDead`), because a connection that silently lost its network never fires "close". The browser's own
   offline event declares it dead at once; its online event asks for an immediate reconnection. */
"use strict";

(function (P10) {
  P10.heartbeat = function (ws, options) {
    const interval = options.interval || 4000;
    const timeout = options.timeout || 9000;
    let lastHeard = Date.now();
    let dead = false;

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
      if (Date.now() - lastHeard > timeout) { declareDead(); return; }
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }
    function onOffline() { declareDead(); }
    ws.addEventListener("message", onMessage);
    window.addEventListener("offline", onOffline);
    const timer = setInterval(tick, interval);

    function stop() {
      clearInterval(timer);
      ws.removeEventListener("message", onMessage);
      window.removeEventListener("offline", onOffline);
    }
    return { stop };
  };

  /* A seat's presence: bots show as bots (they have no socket, yet are never "offline"), people as online or
     offline from the table info's `connected` flag. */
  P10.presenceDot = function (info) {
    if (info && info.is_bot) {
      return P10.el("span", { class: "dot bot", role: "img", "aria-label": P10.t("wait.bot"), "data-presence": "bot" }, "🤖");
    }
    const on = Boolean(info && info.connected);
    return P10.el("span", { class: "dot " + (on ? "on" : "off"), role: "img", "data-presence": on ? "online" : "offline",
      "aria-label": on ? P10.t("wait.online") : P10.t("wait.offline") });
  };

  /* Call `reconnect` when the browser says the network is back (once per page). */
  P10.onNetworkBack = function (reconnect) { window.addEventListener("online", reconnect); };
})(window.P10);
