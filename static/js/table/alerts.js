/* In-page turn alerts on the table page: when this seat's turn comes (its view's prompt asks it to act), the
   phone vibrates, an installed app gets a badge, a hidden tab shows a desktop notification (Notification API,
   permission asked by push.js's opt-in button), and the "turn" hook fires for other modules (the sound).
   The page also tells the server over the socket whether it is visible: a seat with no visible page gets its
   turn alerts by Web Push instead (docs/protocol.md, "Turn alerts").

   Plugs into the table page's hooks (state.js: on/emit); knows nothing of the rules: "my turn" is the view's
   prompt, as the page shows it. */
import { S, emit, on } from "./state.js";

import { P10 } from "../common.js";
const { t } = P10;

let mine = false;

/** Whether ``view`` asks this seat to act now. */
export function isMyTurn(view) {
  const prompt = view && view.prompt;
  return Boolean(prompt && prompt.action && prompt.action !== "wait");
}

function notificationText() {
  const ruleset = S.view && S.view.ruleset ? t("ruleset." + S.view.ruleset + ".title") : t("app.title");
  return { title: t("app.title"), body: t("push.turn", { ruleset }) };
}

/** A desktop notification for a hidden page (the same tag as a push for this table: one replaces the other). */
export async function notify() {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const { title, body } = notificationText();
  const options = { body, tag: "turn-" + S.tableId, icon: "/static/icons/icon-192.png",
                    data: { url: location.pathname } };
  try {
    const note = new Notification(title, options);
    note.addEventListener("click", () => { window.focus(); note.close(); });
  } catch (err) {
    // Android browsers only allow notifications from the service worker.
    const reg = navigator.serviceWorker && await navigator.serviceWorker.getRegistration();
    if (reg) await reg.showNotification(title, options);
  }
}

/** Everything a turn starting does; exported for other modules and tests. */
export function alertTurn() {
  emit("turn");
  if (navigator.vibrate) {
    try { navigator.vibrate([180, 80, 180]); } catch (err) { /* not allowed without a user gesture */ }
  }
  if (navigator.setAppBadge) navigator.setAppBadge(1).catch(() => {});
  if (document.hidden) notify();
}

function clearBadge() {
  if (navigator.clearAppBadge) navigator.clearAppBadge().catch(() => {});
}

function onView(view) {
  const now = isMyTurn(view);
  if (now && !mine) alertTurn();
  else if (!now && mine) clearBadge();
  mine = now;
}

/** Tell the server whether this page is visible (on every (re)connection and every change). */
export function reportVisibility() {
  const ws = S.ws;
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "visibility", visible: document.visibilityState === "visible" }));
  }
}

on("view", onView);
on("connection", (state) => { if (state === "on") reportVisibility(); });
document.addEventListener("visibilitychange", reportVisibility);
