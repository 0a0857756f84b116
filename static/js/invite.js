/* The invite link where it is shown (the lobby after creating a table, the waiting room): a Share button on
   devices with the Web Share API (the phone's own share sheet), Copy elsewhere; and, when the link names an
   address only this computer or this home network can open (loopback, private, link-local), one sentence that
   says so, with a link to the README's "Play with friends elsewhere" (served at /help/invite). */
import { P10 } from "./common.js";

(function (P10) {
  /** Whether ``url`` names a host that friends elsewhere cannot reach: loopback, private or link-local. */
  function isLocal(url) {
    let host;
    try { host = new URL(url).hostname.toLowerCase(); } catch (err) { return false; }
    host = host.replace(/^\[|\]$/g, "");
    if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host === "0.0.0.0") return true;
    const v4 = host.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
    if (v4) {
      const [a, b] = [Number(v4[1]), Number(v4[2])];
      return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
        (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
    }
    if (host.includes(":")) return host === "::1" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
    return !host.includes(".");  // a bare machine name resolves only on this network
  }

  /** Wire the link ``input`` with its ``copy`` and ``share`` buttons and its ``local`` warning. */
  function show(parts) {
    const { input, copy, share, local } = parts;
    const canShare = typeof navigator.share === "function";
    share.classList.toggle("hidden", !canShare);
    copy.classList.toggle("hidden", canShare);
    local.classList.toggle("hidden", !isLocal(input.value));
    if (!share.dataset.wired) {
      share.dataset.wired = "1";
      share.addEventListener("click", async () => {
        try {
          await navigator.share({ title: P10.t("app.title"), text: P10.t("invite.share_text"), url: input.value });
        } catch (err) {
          if (err && err.name !== "AbortError") P10.copy(input);  // no share sheet after all: copy instead
        }
      });
      copy.addEventListener("click", () => P10.copy(input));
    }
  }

  P10.invite = { isLocal, show };
})(P10);
