/* The table page's opt-in "Notify me when it is my turn": asks for the notification permission (which also
   enables alerts.js's desktop notifications) and, where the browser has Web Push, subscribes it with the
   server's VAPID key and stores the subscription for this seat (PUT /api/tables/{id}/push). Turning it off
   removes this browser's subscription for this seat only (the browser's subscription may serve other tables). */
import { S, $, on } from "./state.js";

import { P10 } from "../common.js";
const { t } = P10;

const tableId = $("app").dataset.table;
const path = `/api/tables/${tableId}/push`;
const flag = "push." + tableId;
const buttons = () => [...document.querySelectorAll(".push-toggle")];
const canPush = "serviceWorker" in navigator && "PushManager" in window;

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

let shownOn = false;

/* Turn notifications are for seated players: a spectator is never awaited, so it is offered none. The waiting
   room's button reads the whole sentence; the toolbar's shows its icon over a short label, the sentence staying
   in its accessible name. */
function show(active) {
  shownOn = active;
  const label = active ? t("push.disable") : t("push.enable");
  const seated = Boolean(S.table) && S.seat !== null;
  for (const button of buttons()) {
    button.classList.toggle("hidden", !seated);
    button.setAttribute("aria-pressed", String(active));
    button.title = label;
    const text = button.querySelector(".push-text");
    if (text) text.textContent = label;
    const icon = button.querySelector(".push-icon");
    if (icon) P10.clear(icon).appendChild(P10.icon(active ? "bell" : "bell-off"));
    const more = button.querySelector(".push-more");
    if (more) more.textContent = " – " + label;
  }
}

/* What went wrong in words: the server's refusals are already translated; the browser's own (for example
   Chrome's "Registration failed - permission denied" when notifications are blocked for the site) are not. */
function failure(err) {
  if (err && err.p10) return err.message;
  if (err && (err.name === "NotAllowedError" || /permission/i.test(String(err.message || "")))) return t("push.blocked");
  return t("push.failed");
}

async function subscription(create) {
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!sub && create) {
    const key = await P10.api("GET", "/api/push/key");
    if (!key.ok) throw Object.assign(new Error(P10.errorText(key.data.error)), { p10: true });
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.data.public_key) });
  }
  return sub;
}

async function store(sub) {
  const result = await P10.api("PUT", path, { ...sub.toJSON(), lang: P10.lang });
  if (!result.ok) throw Object.assign(new Error(P10.errorText(result.data.error)), { p10: true });
}

async function enable() {
  if (!("Notification" in window)) { P10.toast(t("push.unsupported")); return; }
  const permission = await Notification.requestPermission();
  if (permission !== "granted") { P10.toast(t("push.denied")); return; }
  if (canPush) {
    try { await store(await subscription(true)); } catch (err) { P10.toast(failure(err)); return; }
  }
  P10.store.set(flag, true);
  show(true);
  P10.toast(t("push.enabled"));
}

async function disable() {
  if (canPush) {
    const sub = await subscription(false).catch(() => null);
    if (sub) await P10.api("DELETE", path, { endpoint: sub.endpoint });
  }
  P10.store.set(flag, false);
  show(false);
}

export async function initPush() {
  if (!("Notification" in window)) return;  // no notifications at all here: the buttons stay hidden
  const enabledHere = Boolean(P10.store.get(flag)) && "Notification" in window && Notification.permission === "granted";
  show(enabledHere);
  on("rendered", () => show(shownOn));  // seated or spectator is known once the table is
  for (const button of buttons()) {
    button.addEventListener("click", () => (button.getAttribute("aria-pressed") === "true" ? disable() : enable()));
  }
  if (enabledHere && canPush) {  // refresh the stored subscription (the server forgets expired ones)
    subscription(false).then((sub) => sub && store(sub)).catch(() => {});
  }
}

