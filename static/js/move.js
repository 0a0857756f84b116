/* The one-time link that moves a seat to this device: on confirmation this browser gets the seat (its cookie)
   and the old device's token stops working; then the table. */
import { P10 } from "./common.js";

(function (P10) {
  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("move");
    const error = document.getElementById("move-error");
    document.getElementById("move-button").addEventListener("click", async (event) => {
      event.target.disabled = true;
      const result = await P10.api("POST", `/api/tables/${root.dataset.table}/seat/claim`, { code: root.dataset.code });
      event.target.disabled = false;
      if (!result.ok) { error.textContent = P10.errorText(result.data.error); return; }
      location.assign(`/tables/${root.dataset.table}`);
    });
  });
})(P10);
