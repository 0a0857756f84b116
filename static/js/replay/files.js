/* The game record and sharing: download the record of a finished game (docs/record.md) and the share links a
   seat makes for friends without a seat (the host may revoke any of them). "Open a record…" is
   static/js/open-record.js, wired even when the replay fails to load. */
import { R, $, gamePath } from "./state.js";

import { P10 } from "../common.js";
const { t, el, clear } = P10;

export function initFiles() {
  const download = $("rp-download");
  if (!R.record.public) {
    download.href = gamePath("/record");
    download.classList.remove("hidden");
  }
  if (R.record.can_share) {
    $("rp-share").classList.remove("hidden");
    $("rp-share").addEventListener("click", toggleShare);
    $("rp-share-new").addEventListener("click", makeShare);
    $("rp-share-copy").addEventListener("click", () => P10.copy($("rp-share-url")));
    $("rp-share-send").addEventListener("click", sendShare);
  }
}

let shareBase = null;  // the link made, without the step: the field shows it at the step on screen

/** The share link opens at the step shown (``#step=N``), whichever step the replay has moved to since. */
export function shareStep(step) {
  if (shareBase !== null) $("rp-share-url").value = shareBase + "#step=" + step;
}

/** Through the device's share sheet (navigator.share) where it has one; else, or when it fails, a copy. */
async function sendShare() {
  const input = $("rp-share-url");
  try {
    await navigator.share({ title: $("replay-title").textContent, url: input.value });
  } catch (err) {
    if (err && err.name !== "AbortError") P10.copy(input);
  }
}

async function toggleShare() {
  const panel = $("rp-share-panel");
  const open = panel.classList.toggle("hidden") === false;
  $("rp-share").setAttribute("aria-expanded", String(open));
  if (open) await listShares();
}

async function makeShare() {
  const r = await P10.api("POST", `/api/tables/${R.tableId}/games/${R.number}/shares`);
  if (!r.ok) { $("replay-error").textContent = P10.errorText(r.data.error); return; }
  shareBase = r.data.url.split("#")[0];
  shareStep(R.step);
  const canShare = typeof navigator.share === "function";
  $("rp-share-send").classList.toggle("hidden", !canShare);
  $("rp-share-copy").classList.toggle("hidden", canShare);
  $("rp-share-made").classList.remove("hidden");
  await listShares();
}

async function listShares() {
  const r = await P10.api("GET", `/api/tables/${R.tableId}/games/${R.number}/shares`);
  const list = clear($("rp-share-list"));
  if (!r.ok) return;
  for (const s of r.data.shares) {
    const when = new Date(s.created_at).toLocaleString(P10.lang);
    list.appendChild(el("li", { "data-share": s.id }, t("replay.share_made", { name: s.by || "?", when }), " ",
      s.revocable ? el("button", { type: "button", class: "linklike", onclick: () => revoke(s.id) }, t("replay.share_revoke")) : null));
  }
}

async function revoke(id) {
  const r = await P10.api("DELETE", `/api/tables/${R.tableId}/games/${R.number}/shares/${id}`);
  if (!r.ok) { $("replay-error").textContent = P10.errorText(r.data.error); return; }
  P10.toast(t("replay.share_revoked"));
  await listShares();
}
