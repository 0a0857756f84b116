/* Join page: the invite link asks for a name and seats the player; a returning browser goes straight back. */
import { P10 } from "./common.js";

(function (P10) {
  const { t } = P10;

  document.addEventListener("DOMContentLoaded", async () => {
    const root = document.getElementById("join");
    const tableId = root.dataset.table;
    const code = root.dataset.code;
    const info = document.getElementById("join-info");
    const error = document.getElementById("join-error");
    const nameInput = document.getElementById("join-name");
    const remembered = P10.store.get("name");
    if (remembered) nameInput.value = remembered;

    document.getElementById("join-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      const name = nameInput.value.trim();
      if (!name) { error.textContent = t("error.name_required"); nameInput.focus(); return; }
      P10.store.set("name", name);
      const button = document.getElementById("join-button");
      button.disabled = true;
      const result = await P10.api("POST", `/api/tables/${tableId}/join`, { name, code });
      button.disabled = false;
      if (!result.ok) { error.textContent = P10.errorText(result.data.error); return; }
      // the waiting room shows a guest the invite link too, so they can pass it on
      P10.store.set("invite." + tableId, location.href);
      location.assign(`/tables/${tableId}`);
    });
    nameInput.focus();
    const mine = await P10.api("GET", `/api/tables/${tableId}/view`);
    if (mine.ok && mine.data.seat !== null && mine.data.seat !== undefined) {
      location.replace(`/tables/${tableId}`);
      return;
    }
    const table = await P10.api("GET", `/api/tables/${tableId}`);
    if (!table.ok) {
      info.textContent = P10.errorText(table.data.error);
      document.getElementById("join-form").classList.add("hidden");
      return;
    }
    const data = table.data;
    info.textContent = t("join.info", {
      ruleset: t("ruleset." + data.ruleset + ".title"),
      host: (data.seats.find((s) => s.is_host) || { name: "?" }).name,
      taken: data.seats.length, capacity: data.capacity,
    });
    if (data.spectators) document.getElementById("watch-row").classList.remove("hidden");
    if (data.status !== "waiting" || data.seats.length >= data.capacity) {
      // No seat to take: no "Take a seat" form under the reason, only the reason (and watching, if allowed).
      document.getElementById("join-form").classList.add("hidden");
      const closed = document.getElementById("join-closed");
      closed.textContent = data.status !== "waiting" ? t("error.game_started") : t("error.table_full");
      closed.classList.remove("hidden");
    }
  });
})(P10);
