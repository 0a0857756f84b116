/* The service worker (served at /sw.js, scope "/"): turn alerts by Web Push, opening the table from a
   notification, and an offline page when a page cannot load.

   A push carries only the table id, the rule set, a "your turn" text and the table's URL (docs/protocol.md,
   "Turn alerts"); never a card. Pages load from the network as usual: nothing but the offline page and its
   icon is cached, so a page is never stale. */
"use strict";

const CACHE = "phase10-offline-v2";
const OFFLINE_URL = "/offline";
const OFFLINE_ASSETS = [OFFLINE_URL, "/static/css/offline.css", "/static/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OFFLINE_ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

/* Page loads go to the network; when it cannot answer (offline, server gone) the offline page says so. */
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
  } else if (request.method === "GET" && OFFLINE_ASSETS.includes(new URL(request.url).pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = {}; }
  const title = data.title || "Phase 10";
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || "phase10-turn",   // one notification per table: a newer one replaces the older
    renotify: true,
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/badge-96.png",
    data: { url },
  }));
});

/* A click opens the table: an open window of it is focused, else a new one is opened. */
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => w.url === url || w.url.startsWith(url + "?") || w.url.startsWith(url + "#"));
    if (open) return open.focus();
    return self.clients.openWindow(url);
  }));
});
