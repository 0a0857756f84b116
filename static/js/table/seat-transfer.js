/* Moving this seat to another device: a one-time link and its QR code (made by the server), shown on request.
   Opening the link on the phone and confirming moves the seat there; this page is then refused (seat_moved). */
import { S, $ } from "./state.js";

import { P10 } from "../common.js";
import "../invite.js";
const { t, clear } = P10;

async function showTransfer() {
  const panel = $("transfer");
  const result = await P10.api("POST", `/api/tables/${S.tableId}/seat/transfer`);
  if (!result.ok) { P10.toast(P10.errorText(result.data.error)); return; }
  $("transfer-link").value = result.data.link;
  // a phone that scans a loopback or private address cannot open it: say so, as beside the invite link
  $("transfer-local").classList.toggle("hidden", !P10.invite.isLocal(result.data.link));
  // The server's SVG is inline markup without an xmlns: the HTML parser puts <svg> in the SVG namespace (an XML
  // parse would not, and the browser would draw nothing).
  const svg = new DOMParser().parseFromString(result.data.qr_svg, "text/html").querySelector("svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("move.qr"));
  clear($("transfer-qr")).appendChild(document.importNode(svg, true));
  $("transfer-expires").textContent = t("move.expires", { time: new Date(result.data.expires_at).toLocaleTimeString() });
  panel.classList.remove("hidden");
  $("transfer-button").setAttribute("aria-expanded", "true");
}

/* The panel closes with its own ✕ button, with Escape, or with the toolbar's button again; the focus goes back
   to the toolbar's button. */
function hideTransfer() {
  if ($("transfer").classList.contains("hidden")) return;
  $("transfer").classList.add("hidden");
  $("transfer-button").setAttribute("aria-expanded", "false");
  $("transfer-button").focus();
}

export function initSeatTransfer() {
  $("transfer-button").addEventListener("click", () => {
    if ($("transfer").classList.contains("hidden")) showTransfer();
    else hideTransfer();
  });
  $("transfer-close").addEventListener("click", hideTransfer);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideTransfer(); });
  $("transfer-copy").addEventListener("click", () => P10.copy($("transfer-link")));
}

/* Only a seated page can move its seat. */
export function renderSeatTransfer() {
  $("transfer-button").classList.toggle("hidden", S.seat === null);
}
