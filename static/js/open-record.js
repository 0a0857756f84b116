/* "Open a record…" on the lobby and on every replay page (also one that failed to load): the chosen file goes
   to the server exactly as it is (POST /api/records, the file itself as the body). It is never parsed here:
   JSON.parse makes every number a double, and a seed above 2^53 would come back changed, a record that no
   longer replays. The server reads it strictly (docs/record.md) and answers the replay of the opened game,
   where the page goes, or an error with a stable code, shown in the page's error line. Every
   <input type="file" data-open-record="ERROR_ID"> on the page is wired. */
import { P10 } from "./common.js";

/** Upload ``file`` unchanged; resolves {ok: true, replay} or {ok: false, error}. */
export async function openRecord(file) {
  let response;
  try {
    response = await fetch("/api/records", {
      method: "POST", body: file, credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
    });
  } catch (err) {
    return { ok: false, error: { code: "network", message: P10.t("error.network") } };
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (response.ok && data && data.replay) return { ok: true, replay: data.replay };
  return { ok: false, error: (data && data.error) || { code: "http_" + response.status, message: response.statusText } };
}

export function wireOpenRecord(input) {
  const errorLine = document.getElementById(input.dataset.openRecord);
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    if (errorLine) errorLine.textContent = "";
    input.disabled = true;
    const result = await openRecord(file);
    input.disabled = false;
    input.value = "";
    if (result.ok) { location.href = result.replay; return; }
    if (errorLine) errorLine.textContent = P10.errorText(result.error);
  });
}

document.querySelectorAll("input[type=file][data-open-record]").forEach(wireOpenRecord);
