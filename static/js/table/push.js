/* The table page's opt-in "Notify me when it is my turn": asks for the notification permission (which also
   enables alerts.js's desktop notifications) and, where the browser has Web Push, subscribes it with the
   server's VAPID key and stores the subscription for this seat (PUT /api/tables/{id}/push). Turning it off
   removes this browser's subscription for this seat only (the browser's subscription may serve other tables). */
import { $ } from "./state.js";

const P10 = window.P10;
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

function show(on) {
  const label = on ? t("push.disable") : t("push.enable");
  for (const button of buttons()) {
    button.classList.remove("hidden");
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", label);
    button.title = label;
    const text = button.querySelector(".push-text");
    if (text) text.textContent = label;
    else button.textContent = on ? "🔔" : "🔕";
  }
}

async function subscription(create) {
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!sub && create) {
    const key = await P10.api("GET", "/api/push/key");
    if (!key.ok) throw new Error(P10.errorText(key.data.error));
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.data.public_key) });
  }
  return sub;
}

async function store(sub) {
  const result = await P10.api("PUT", path, { ...sub.toJSON(), lang: window.P10_LANG });
  if (!result.ok) throw new Error(P10.errorText(result.data.error));
}

async function enable() {
  if (!("Notification" in window)) { P10.toast(t("push.unsupported")); return; }
  const permission = await Notification.requestPermission();
  if (permission !== "granted") { P10.toast(t("push.denied")); return; }
  if (canPush) {
    try { await store(await subscription(true)); } catch (err) { P10.toast(String(err.message || err)); return; }
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
  const on = Boolean(P10.store.get(flag)) && "Notification" in window && Notification.permission === "granted";
  show(on);
  for (const button of buttons()) {
    button.addEventListener("click", () => (button.getAttribute("aria-pressed") === "true" ? disable() : enable()));
  }
  if (on && canPush) {  // refresh the stored subscription (the server forgets expired ones)
    subscription(false).then((sub) => sub && store(sub)).catch(() => {});
  }
}

