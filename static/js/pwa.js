/* Every page: register the service worker (/sw.js, scope "/") that shows push notifications, opens a table
   from one, and shows the offline page when the connection is gone. */
"use strict";
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* http on a LAN address: no worker */ });
  });
}
