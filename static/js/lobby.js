/* Lobby: choose a rule set, seats and options (C-11), create the table, show the invite link. */
import { P10 } from "./common.js";
import "./invite.js";

(function (P10) {
  const { t, el, clear } = P10;
  const RULESETS = P10.data("p10-rulesets", []);
  const KINDS = ["set", "run", "colour", "colour_run"];
  const DEFAULT_SEATS = 4;

  function current() {
    const checked = document.querySelector("input[name=ruleset]:checked");
    return RULESETS.find((r) => r.id === (checked && checked.value)) || RULESETS[0];
  }

  function optionHelp(option) {
    const key = "option." + option.name + ".help";
    const text = t(key);
    return text === key ? option.help : text;
  }

  /* --- the custom phase list editor (B-11): phases built from group kinds and sizes, validated here and
         again by the engine on create --------------------------------------------------------------- */
  function phaseEditor(option, ruleset) {
    /* The schema names the group kinds of this game (C-2: colour runs in Master only) and the limits. */
    const kinds = option.kinds || KINDS.filter((k) => k !== "colour_run");
    const maxGroups = option.max_groups || 6;
    const maxCards = option.max_cards || 10;
    const wrap = el("div", { class: "phase-editor", "data-option": option.name });
    const enable = el("input", { type: "checkbox", id: "opt-" + option.name + "-on" });
    const list = el("ol", { class: "phase-list hidden", "aria-label": t("editor.phases") });
    const addPhase = el("button", { type: "button", class: "hidden", id: "add-phase" }, t("editor.add_phase"));
    const problem = el("p", { class: "error", role: "alert" });

    function groupRow(group) {
      const kind = el("select", { "aria-label": t("editor.kind"), class: "g-kind" },
        kinds.map((k) => el("option", { value: k, selected: k === group.kind }, t("kind." + k))));
      const size = el("input", { type: "number", min: 2, max: 12, value: group.size, class: "g-size",
        "aria-label": t("editor.size") });
      const remove = el("button", { type: "button", "aria-label": t("editor.remove_group"), class: "small" }, "✕");
      const row = el("li", { class: "group-row" }, kind, size, remove);
      remove.addEventListener("click", () => { row.remove(); validate(); });
      kind.addEventListener("change", validate);
      size.addEventListener("input", validate);
      return row;
    }

    function phaseRow(groups) {
      const groupsList = el("ul", { class: "groups" }, groups.map(groupRow));
      const add = el("button", { type: "button", class: "small" }, t("editor.add_group"));
      const remove = el("button", { type: "button", class: "small" }, t("editor.remove_phase"));
      const desc = el("span", { class: "phase-desc muted" });
      const row = el("li", { class: "phase-row" }, desc, groupsList, add, remove);
      add.addEventListener("click", () => { groupsList.appendChild(groupRow({ kind: "set", size: 3 })); validate(); });
      remove.addEventListener("click", () => { row.remove(); validate(); });
      return row;
    }

    function read() {
      return [...list.querySelectorAll(".phase-row")].map((row) =>
        [...row.querySelectorAll(".group-row")].map((g) => ({
          kind: g.querySelector(".g-kind").value, size: parseInt(g.querySelector(".g-size").value, 10),
        })));
    }

    /* Mirrors app/rules/core/phases.py parse_phase_list so mistakes show before submitting. */
    function validate() {
      const phases = read();
      let message = "";
      if (!phases.length) message = t("editor.err_empty");
      phases.forEach((groups, i) => {
        const rows = list.querySelectorAll(".phase-row")[i];
        rows.querySelector(".phase-desc").textContent = t("phase.number", { n: i + 1 }) + ": " + P10.describePhase(groups);
        if (message) return;
        if (!groups.length || groups.length > maxGroups) message = t("editor.err_groups", { n: i + 1 });
        let total = 0;
        for (const g of groups) {
          const least = g.kind.includes("run") ? 3 : 2;
          const most = g.kind.includes("run") ? 12 : maxCards;
          if (!(g.size >= least && g.size <= most)) {
            message = t("editor.err_size", { n: i + 1, kind: t("kind." + g.kind), least, most });
          }
          total += g.size || 0;
        }
        if (!message && total > maxCards) message = t("editor.err_total", { n: i + 1 });
      });
      problem.textContent = enable.checked ? message : "";
      return message;
    }

    enable.addEventListener("change", () => {
      list.classList.toggle("hidden", !enable.checked);
      addPhase.classList.toggle("hidden", !enable.checked);
      if (enable.checked && !list.children.length) {
        (Array.isArray(option.default) ? option.default
          : ruleset.default_phases || [[{ kind: "set", size: 3 }, { kind: "set", size: 3 }]])
          .forEach((groups) => list.appendChild(phaseRow(groups)));
      }
      validate();
    });
    addPhase.addEventListener("click", () => { list.appendChild(phaseRow([{ kind: "set", size: 3 }])); validate(); });
    P10.add(wrap, el("div", { class: "check" }, enable,
      el("label", { for: enable.id }, t("editor.custom"))), list, addPhase, problem);
    wrap.p10value = () => (enable.checked ? read() : undefined);
    wrap.p10error = () => (enable.checked ? validate() : "");
    return wrap;
  }

  function optionInput(option, ruleset) {
    const id = "opt-" + option.name;
    const help = optionHelp(option);
    const helpNode = help ? el("small", { class: "help", id: id + "-help" }, help) : null;
    const describedBy = help ? id + "-help" : null;
    let control;
    if (/phases$/.test(option.name) || Array.isArray(option.default)) {
      return el("div", { class: "form-row option" },
        el("span", { class: "label" }, P10.optionLabel(option.name)), phaseEditor(option, ruleset), helpNode);
    }
    if (typeof option.default === "boolean") {
      control = el("input", { type: "checkbox", id, name: option.name, checked: option.default,
        "aria-describedby": describedBy });
      return el("div", { class: "form-row check option" }, control,
        el("label", { for: id }, P10.optionLabel(option.name)), helpNode);
    }
    if (option.name === "first_player") {
      control = el("select", { id, name: option.name, "aria-describedby": describedBy, "data-int": "1" },
        el("option", { value: "" }, t("option.first_player.random")),
        [0, 1, 2, 3, 4, 5].map((s) => el("option", { value: s }, t("seat.n", { n: s + 1 }))));
    } else if (option.name === "ring") {
      control = el("input", { id, name: option.name, "aria-describedby": describedBy, "data-list": "1",
        placeholder: t("option.ring.placeholder") });
    } else if (option.choices) {
      control = el("select", { id, name: option.name, "aria-describedby": describedBy },
        option.choices.map((v) => el("option", { value: v, selected: v === option.default }, P10.choiceLabel(option.name, v))));
    } else if (option.default === null || typeof option.default === "number") {
      control = el("input", { type: "number", id, name: option.name, min: 1, max: 20,
        value: option.default === null ? "" : option.default, placeholder: t("option.none"),
        "aria-describedby": describedBy, "data-nullable": option.default === null ? "1" : "" });
    } else {
      control = el("input", { id, name: option.name, value: option.default, "aria-describedby": describedBy });
    }
    return el("div", { class: "form-row option" }, el("label", { for: id }, P10.optionLabel(option.name)), control, helpNode);
  }

  function render() {
    const ruleset = current();
    const seats = document.getElementById("seat-count");
    // friends far apart are most often three or four: four seats unless the host chose (the game may start
    // with fewer, from two)
    const previous = parseInt(seats.value, 10) || DEFAULT_SEATS;
    clear(seats);
    for (let n = ruleset.min_players; n <= ruleset.max_players; n++) {
      seats.appendChild(el("option", { value: n, selected: n === Math.min(Math.max(previous, ruleset.min_players), ruleset.max_players) }, String(n)));
    }
    const body = clear(document.getElementById("options-body"));
    ruleset.options_schema.forEach((option) => body.appendChild(optionInput(option, ruleset)));
    syncSeats();
  }

  /* Only the table's seats can start (B-4): the first-player choice follows the number of seats. */
  function syncSeats() {
    const seats = parseInt(document.getElementById("seat-count").value, 10);
    const first = document.getElementById("opt-first_player");
    if (!first) return;
    for (const option of first.options) option.disabled = option.value !== "" && parseInt(option.value, 10) >= seats;
    if (first.selectedOptions[0] && first.selectedOptions[0].disabled) first.value = "";
  }

  function collect() {
    const ruleset = current();
    const options = {};
    let problem = "";
    for (const option of ruleset.options_schema) {
      const editor = document.querySelector(`.phase-editor[data-option="${option.name}"]`);
      if (editor) {
        problem = problem || editor.p10error();
        const value = editor.p10value();
        if (value !== undefined) options[option.name] = value;
        continue;
      }
      const input = document.getElementById("opt-" + option.name);
      if (!input) continue;
      if (input.type === "checkbox") options[option.name] = input.checked;
      else if (input.type === "number") {
        if (input.value === "") { if (input.dataset.nullable) options[option.name] = null; }
        else options[option.name] = parseInt(input.value, 10);
      } else if (input.dataset.int) {
        options[option.name] = input.value === "" ? null : parseInt(input.value, 10);
      } else if (input.dataset.list) {
        const items = input.value.split(",").map((x) => x.trim()).filter(Boolean);
        options[option.name] = items.length ? items : null;
      } else options[option.name] = input.value;
    }
    return { ruleset, options, problem };
  }

  async function create(event) {
    event.preventDefault();
    const error = document.getElementById("create-error");
    error.textContent = "";
    const name = document.getElementById("host-name").value.trim();
    if (!name) {
      error.textContent = t("error.name_required");
      document.getElementById("host-name").focus();
      return;
    }
    const { ruleset, options, problem } = collect();
    if (problem) { error.textContent = problem; return; }
    const button = document.getElementById("create-button");
    button.disabled = true;
    const body = { ruleset: ruleset.id, seats: parseInt(document.getElementById("seat-count").value, 10),
      options, spectators: document.getElementById("spectators").checked, name };
    const result = await P10.api("POST", "/api/tables", body);
    button.disabled = false;
    if (!result.ok) {
      const err = result.data.error;
      error.textContent = (err.field ? P10.optionLabel(err.field) + ": " : "") + P10.errorText(err);
      return;
    }
    const link = new URL(result.data.invite_link, location.href).href;
    P10.store.set("invite." + result.data.table_id, link);
    document.getElementById("invite-link").value = link;
    P10.invite.show({ input: document.getElementById("invite-link"), copy: document.getElementById("copy-invite"),
      share: document.getElementById("share-invite"), local: document.getElementById("invite-local") });
    document.getElementById("go-table").href = "/tables/" + result.data.table_id;
    document.getElementById("created").classList.remove("hidden");
    document.getElementById("create-form").closest("section").classList.add("hidden");
    const shareButton = document.getElementById("share-invite");
    (shareButton.classList.contains("hidden") ? document.getElementById("copy-invite") : shareButton).focus();
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("input[name=ruleset]").forEach((r) => r.addEventListener("change", render));
    document.getElementById("seat-count").addEventListener("change", syncSeats);
    document.getElementById("create-form").addEventListener("submit", create);
    const remembered = P10.store.get("name");
    if (remembered) document.getElementById("host-name").value = remembered;
    document.getElementById("host-name").addEventListener("change", (e) => P10.store.set("name", e.target.value.trim()));
    render();
  });
})(P10);
