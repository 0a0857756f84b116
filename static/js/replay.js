/* Replay: a game step by step (first / back / play / forward / last and a slider) with the log alongside.
   A finished game shows every hand (C-9: the whole record is public once the game has finished); a running
   game only what a spectator sees at each step (the server answers "public": true with the spectator's view
   and events, command types without their fields), and the page says hands are hidden until it ends. */
"use strict";

(function (P10) {
  const { t, el, clear } = P10;
  const R = { record: null, step: 0, timer: null, cache: new Map(), names: {} };
  P10.replay = R;
  const $ = (id) => document.getElementById(id);

  function commandText(c) {
    const cmd = c.command || {};
    // A public record keeps only a command's type: a draw's pile is told by its event, not guessed here.
    const key = cmd.type === "draw" && !cmd.pile ? "cmd.draw_unknown" : "cmd." + cmd.type;
    let what = t(key, { pile: t("pile." + (cmd.pile || "draw")) });
    if (what === "cmd." + cmd.type) what = cmd.type.replace(/_/g, " ");
    return t("replay.command", { n: c.seq, name: R.names[c.seat] || "?", command: what });
  }

  async function load(step) {
    if (R.cache.has(step)) return R.cache.get(step);
    const r = await P10.api("GET", `/api/tables/${R.tableId}/games/${R.number}/replay/${step}`);
    if (!r.ok) { $("replay-error").textContent = P10.errorText(r.data.error); return null; }
    R.cache.set(step, r.data);
    return r.data;
  }

  async function show(step) {
    step = Math.max(0, Math.min(step, R.record.version));
    const data = await load(step);
    if (!data) return;
    R.step = step;
    $("rp-slider").value = String(step);
    $("rp-step").textContent = `${step} / ${R.record.version}`;
    const s = data.public ? data.view : data.state;
    const lines = [data.command ? commandText(data.command) : t("replay.start")];
    for (const e of data.events || []) { const text = P10.eventText(e, R.names); if (text) lines.push(text); }
    $("rp-command").textContent = lines.join(" ");
    renderState(s);
    document.querySelectorAll("#rp-log li").forEach((li) => {
      const current = Number(li.dataset.step) === step;
      li.classList.toggle("current", current);
      if (current) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
      // the step list follows the replay: the current step is scrolled into the list's view (not the page's)
      if (current) {
        const list = li.parentElement;
        const top = li.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
        if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top - (list.clientHeight - li.offsetHeight) / 2;
        }
      }
    });
  }

  function renderState(s) {
    const box = clear($("rp-players"));
    s.players.forEach((p, seat) => {
      const groups = [];
      (s.table || []).forEach((g, i) => {
        if (g.owner === seat) {
          groups.push(el("div", { class: "group" }, el("div", { class: "group-label" }, "#" + (i + 1) + " " + P10.groupLabel(g)),
            el("div", { class: "group-cards" }, g.cards.map((c) => P10.cardEl(c, { small: true })))));
        }
      });
      const hand = R.record.public ? null : (s.hands || [])[seat] || [];
      box.appendChild(el("article", { class: "player" + (s.turn === seat && !s.over ? " on-turn" : ""), "data-seat": seat },
        el("header", { class: "player-head" }, el("strong", null, R.names[seat] || "?"),
          s.turn === seat && !s.over ? el("span", { class: "badge turn" }, "▶ " + t("table.turn")) : null),
        el("div", { class: "facts" },
          el("span", { class: "fact" }, t("table.phase", { n: p.phase })),
          p.score !== undefined ? el("span", { class: "fact" }, t("table.score", { n: p.score })) : null,
          p.marker !== undefined ? el("span", { class: "fact" }, t("board.pawn_on", { n: p.pawn })) : null,
          p.laid ? el("span", { class: "fact ok" }, "✓ " + t("table.phase_done")) : null),
        hand === null
          ? el("div", { class: "rp-hand-hidden muted small-text" }, t("table.cards_in_hand", { n: p.hand_size }))
          : el("div", { class: "rp-hand", role: "group", "aria-label": t("replay.hand_of", { name: R.names[seat] || "?" }) },
            el("div", { class: "muted small-text" }, t("replay.hand_of", { name: R.names[seat] || "?" })),
            el("div", { class: "hand-row" }, P10.sortCards(hand, "number").map((c) => P10.cardEl(c, { small: true })))),
        (p.in_front || []).length ? el("div", { class: "in-front" }, t("table.in_front") + ": ", p.in_front.map((c) => P10.cardEl(c, { small: true }))) : null,
        el("div", { class: "groups" }, groups)));
    });
    const piles = clear($("rp-piles"));
    P10.add(piles, 
      el("div", { class: "pile-wrap" }, P10.cardEl(null), el("div", { class: "pile-caption" }, t("table.draw_pile"), el("br"), t("table.cards", { n: s.draw_size }))),
      el("div", { class: "pile-wrap" }, s.discard_top ? P10.cardEl(s.discard_top) : el("span", { class: "card empty" }),
        el("div", { class: "pile-caption" }, t("table.discard_pile"), el("br"), t("table.cards", { n: s.discard_size }))));
    if (s.ruleset === "master") {
      P10.add(piles, el("div", { class: "pile-wrap" }, s.blue_top ? P10.cardEl(s.blue_top) : el("span", { class: "card empty" }),
        el("div", { class: "pile-caption" }, t("table.blue_pile"), el("br"), t("table.cards", { n: s.blue_size }))));
    }
    if (s.ruleset === "board" && P10.renderBoard) {
      $("board").classList.remove("hidden");
      P10.renderBoard($("board"), s, { names: R.names, seat: null, readonly: true });
    }
  }

  function stop() {
    clearInterval(R.timer);
    R.timer = null;
    $("rp-play").setAttribute("aria-pressed", "false");
    $("rp-play").textContent = "▶";
  }

  document.addEventListener("DOMContentLoaded", async () => {
    const root = $("replay");
    R.tableId = root.dataset.table;
    R.number = root.dataset.number;
    const r = await P10.api("GET", `/api/tables/${R.tableId}/games/${R.number}/replay`);
    if (!r.ok) { $("replay-error").textContent = P10.errorText(r.data.error); return; }
    R.record = r.data;
    r.data.seats.forEach((s) => { R.names[s.seat] = s.name; });
    $("replay-title").textContent = t("replay.title") + " · " + t("ruleset." + r.data.ruleset + ".title");
    $("replay-public").classList.toggle("hidden", !r.data.public);
    const slider = $("rp-slider");
    slider.max = String(r.data.version);
    const log = clear($("rp-log"));
    log.appendChild(el("li", { "data-step": 0 }, el("button", { type: "button", class: "linklike", onclick: () => { stop(); show(0); } }, t("replay.start"))));
    r.data.commands.forEach((c) => log.appendChild(el("li", { "data-step": c.seq },
      el("button", { type: "button", class: "linklike", onclick: () => { stop(); show(c.seq); } }, commandText(c)))));
    $("rp-first").addEventListener("click", () => { stop(); show(0); });
    $("rp-back").addEventListener("click", () => { stop(); show(R.step - 1); });
    $("rp-forward").addEventListener("click", () => { stop(); show(R.step + 1); });
    $("rp-last").addEventListener("click", () => { stop(); show(R.record.version); });
    slider.addEventListener("input", () => { stop(); show(parseInt(slider.value, 10)); });
    $("rp-play").addEventListener("click", () => {
      if (R.timer) { stop(); return; }
      if (R.step >= R.record.version) show(0);
      $("rp-play").setAttribute("aria-pressed", "true");
      $("rp-play").textContent = "❚❚";
      R.timer = setInterval(() => { if (R.step >= R.record.version) stop(); else show(R.step + 1); }, 900);
    });
    show(0);
  });
})(window.P10);
