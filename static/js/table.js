/* The table page: waiting room, then the game of this browser's seat (or a spectator's view).

   Everything shown comes from this seat's own view (C-9): the websocket sends it on connect and after
   every accepted command; commands go to the REST API and the engine's error is shown next to the action. */
"use strict";

(function (P10) {
  const { t, el, clear } = P10;

  const S = {
    tableId: null,
    table: null,          // public table info (seats, status, game)
    gameId: null,
    version: 0,
    seat: null,           // engine seat (or waiting-room position before the start)
    view: null,
    selected: new Set(),
    builder: null,        // [[card ids]] while building a lay-down
    builderFor: null,     // "round:phase" the builder belongs to
    sort: P10.store.get("sort") || "number",
    logVersion: 0,
    logGame: null,
    ws: null,
    retry: 0,
    closedByUs: false,
    pendingSummary: false,  // a round or the game ended since the last view: the summary opens on render
    chatSeen: new Set(),
    busy: false,
  };
  P10.state = S;  // the page's own view, for tests and debugging (it holds only this seat's view)
  // Hooks for optional modules (alerts.js): "view" (newView, oldView, version), "connection" (state), "turn".
  const hooks = new Map();
  P10.table = {
    state: S,
    on(name, fn) { if (!hooks.has(name)) hooks.set(name, []); hooks.get(name).push(fn); },
    emit(name, ...args) {
      for (const fn of hooks.get(name) || []) {
        try { fn(...args); } catch (err) { console.error("table hook " + name, err); }  // eslint-disable-line no-console
      }
    },
  };

  const $ = (id) => document.getElementById(id);

  /* ------------------------------------------------------------------ names and helpers */
  function names() {
    const out = {};
    ((S.table && S.table.seats) || []).forEach((s) => { out[s.seat] = s.name; });
    return out;
  }
  function nameOf(seat) { return names()[seat] || t("seat.n", { n: seat + 1 }); }
  function connected(seat) {
    const s = ((S.table && S.table.seats) || []).find((x) => x.seat === seat);
    return Boolean(s && s.connected);
  }
  function standIn(seat) { return ((S.table && S.table.stand_ins) || []).includes(seat); }
  function isHost() { return S.table && S.seat !== null && S.table.host_seat === S.seat && S.table.status === "waiting"; }
  function hand() { return (S.view && S.view.hand) || []; }
  function cardById(id) { return hand().find((c) => c.id === id); }
  function inBuilder(id) { return Boolean(S.builder && S.builder.some((g) => g.includes(id))); }
  function prompt() { return (S.view && S.view.prompt) || null; }
  function myTurnAction() { const p = prompt(); return p && p.action !== "wait" ? p.action : null; }

  function setError(text) {
    const node = $("action-error");
    node.textContent = text || "";
    if (text) node.classList.add("flash"); else node.classList.remove("flash");
  }

  /* ------------------------------------------------------------------ connection */
  function setConn(stateName) {
    const node = $("conn");
    node.className = "conn conn-" + stateName;
    node.querySelector(".conn-text").textContent = node.dataset[stateName === "on" ? "on" : stateName === "off" ? "off" : "wait"];
    node.dataset.state = stateName;
    P10.table.emit("connection", stateName);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let url = `${proto}//${location.host}/ws/tables/${S.tableId}`;
    if (S.gameId !== null) url += `?since=${S.version}&game=${S.gameId}`;
    setConn("wait");
    const ws = new WebSocket(url);
    S.ws = ws;
    ws.addEventListener("open", () => {
      S.retry = 0;
      setConn("on");
      // a reconnection: the chat said while this socket was away (ids already shown are skipped)
      if (S.connectedOnce) loadChat();
      S.connectedOnce = true;
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch (err) { return; }
      onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (S.ws !== ws) return;
      S.ws = null;
      setConn("off");
      if (event.code === 4404) { $("page-error").textContent = t("error.table_not_found"); return; }
      if (event.code === 4401) { showSeatless(); return; }
      const delay = Math.min(8000, 500 * Math.pow(2, S.retry++));
      setTimeout(connect, delay);
    });
  }
  P10.dropConnection = function () { if (S.ws) S.ws.close(); };  // used by tests and by the "offline" simulation

  function showSeatless() {
    $("page-error").textContent = t("error.bad_token");
    const link = el("a", { href: `/join/${S.tableId}` }, t("join.title"));
    $("page-error").append(" ", link);
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "snapshot":
        S.table = msg.table || S.table;
        if (msg.game_id !== S.gameId) {
          S.selected.clear(); S.builder = null; S.pendingSummary = false; S.view = null; S.version = 0;
          if ($("summary").open) $("summary").close();
        }
        S.gameId = msg.game_id;
        S.seat = msg.seat;
        if (msg.view) setView(msg.view, msg.version);
        else { S.view = null; S.version = 0; }
        if (S.gameId !== null && S.logGame !== S.gameId) loadLog();
        render();
        break;
      case "update":
        if (msg.table) S.table = msg.table;
        if (msg.game_id !== S.gameId) { S.gameId = msg.game_id; S.view = null; }
        appendEvents(msg.since, msg.version, msg.events || []);
        if (msg.view && msg.version >= S.version) setView(msg.view, msg.version);
        render();
        break;
      case "table":
        S.table = msg.table;
        if (S.table.status === "waiting") refreshSeat(); else render();
        break;
      case "chat":
        addChat(msg);
        break;
      case "error":
        if (msg.code === "seat_removed") { showSeatless(); }
        else if (msg.ref === null && msg.code === "bad_token") { showSeatless(); }
        else setError(P10.errorText(msg));
        break;
      default:
        break;
    }
  }

  /* ------------------------------------------------------------------ the event log */
  /* The log is loaded over REST (every event of this game since the last one shown, redacted for this seat)
     and then extended by the socket's updates; a gap or an update during a load triggers a catch-up. */
  async function loadLog() {
    if (S.logLoading) { S.logAgain = true; return; }
    const game = S.gameId;
    if (S.logGame !== game) {
      S.logGame = game;
      S.logVersion = 0;
      // The first deal is part of the new game, not of a command: one line says so.
      clear($("log")).appendChild(el("li", { class: "ev ev-new_game" }, t("ev.new_game", { n: (S.table && S.table.game && S.table.game.number) || 1 })));
    }
    const since = Math.max(0, S.logVersion);
    S.logLoading = true;
    const result = await P10.api("GET", `/api/tables/${S.tableId}/events?since=${since}`);
    S.logLoading = false;
    if (result.ok && S.gameId === game) appendEvents(since, result.data.version, result.data.events);
    if (S.gameId !== game || S.logAgain || (result.ok && S.version > S.logVersion)) {
      S.logAgain = false;
      if (S.gameId !== null && (S.gameId !== game || S.version > S.logVersion)) loadLog();
    }
  }

  function appendEvents(since, version, events) {
    if (S.logLoading) { S.logAgain = true; return; }
    if (S.logGame !== S.gameId) { loadLog(); return; }
    if (version <= S.logVersion) return;
    if (since > S.logVersion) { loadLog(); return; }
    const log = $("log");
    const nm = names();
    for (const e of events) {
      const text = P10.eventText(e, nm);
      if (!text) continue;
      log.appendChild(el("li", { class: "ev ev-" + e.type }, text));
    }
    S.logVersion = version;
    log.scrollTop = log.scrollHeight;
  }

  /* ------------------------------------------------------------------ commands */
  /* Answers that several seats give at the same time (Give-me-five offers R-11, All-mine keep choices R-9,
     the board game's keep B-8) do not conflict: another seat's answer landing first must not turn this one
     into a "stale" error, so they go without expected_version and apply to the current state. */
  const AT_ONCE = new Set(["offer_card", "keep_hand", "keep"]);

  async function send(command) {
    if (S.busy) return false;
    S.busy = true;
    setError("");
    const body = { command_id: P10.uuid(), command };
    if (!AT_ONCE.has(command.type)) body.expected_version = S.version;
    const result = await P10.api("POST", `/api/tables/${S.tableId}/commands`, body);
    S.busy = false;
    if (!result.ok) {
      setError(P10.errorText(result.data.error));
      if (result.data.error && result.data.error.code === "stale_version") refreshView();
      return false;
    }
    if (result.data.version >= S.version) setView(result.data.view, result.data.version);
    S.selected.clear();
    render();
    keepFocus();
    return true;
  }

  /* After a move the button pressed is usually gone: put the focus on the next sensible control. */
  function keepFocus() {
    const active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active)) return;
    const next = document.querySelector("#prompt-controls button:not([disabled]), #actions button:not([disabled]), #hand button");
    if (next) next.focus(); else $("prompt").focus();
  }

  /* Every newer view comes through here, from the socket, a command's answer or a reload. A round or the game
     ending between the view shown and the new one is what opens the summary: it is read from the views
     themselves, not from the event log (which may still be loading), so no page misses it. A page opened
     mid-game (no previous view) shows no old summaries. A round ends when its score-sheet row appears, not
     when the next round is dealt: with keep choices in between (board B-8, Master R-9) that is a later view. */
  function setView(view, version) {
    const old = S.view;
    if (old && ((view.history || []).length > (old.history || []).length ||
        (view.over && !old.over))) S.pendingSummary = true;
    S.view = view;
    S.version = version;
    P10.table.emit("view", view, old, version);
  }

  async function refreshView() {
    const result = await P10.api("GET", `/api/tables/${S.tableId}/view`);
    if (result.ok && result.data.view && result.data.version >= S.version) {
      setView(result.data.view, result.data.version);
      render();
    }
  }

  function selectedIds() { return [...S.selected].filter((id) => cardById(id) && !inBuilder(id)); }
  function oneSelected() {
    const ids = selectedIds();
    if (ids.length !== 1) { setError(t("act.select_one")); return null; }
    return ids[0];
  }

  /* ------------------------------------------------------------------ rendering: waiting room */
  function renderWaiting() {
    $("waiting").classList.remove("hidden");
    $("game").classList.add("hidden");
    const tb = S.table;
    $("waiting-ruleset").textContent = t("wait.ruleset", { ruleset: t("ruleset." + tb.ruleset + ".title"), seats: tb.capacity });
    const list = clear($("seat-list"));
    const host = isHost();
    tb.seats.forEach((seat, i) => {
      const badges = [];
      if (seat.is_host) badges.push(el("span", { class: "badge" }, t("wait.host")));
      if (seat.is_bot) badges.push(el("span", { class: "badge" }, "🤖 " + t("wait.bot")));
      if (seat.seat === S.seat) badges.push(el("span", { class: "badge you" }, t("wait.you")));
      const controls = [];
      if (host) {
        const order = tb.seats.map((s) => s.seat);
        if (i > 0) {
          controls.push(el("button", { type: "button", class: "small", "aria-label": t("wait.up", { name: seat.name }),
            onclick: () => { [order[i - 1], order[i]] = [order[i], order[i - 1]]; hostCall("POST", "seats/order", { order }); } }, "↑"));
        }
        if (i < tb.seats.length - 1) {
          controls.push(el("button", { type: "button", class: "small", "aria-label": t("wait.down", { name: seat.name }),
            onclick: () => { [order[i + 1], order[i]] = [order[i], order[i + 1]]; hostCall("POST", "seats/order", { order }); } }, "↓"));
        }
        if (!seat.is_host) {
          controls.push(el("button", { type: "button", class: "small danger", "aria-label": t("wait.remove", { name: seat.name }),
            onclick: () => hostCall("DELETE", "seats/" + seat.seat) }, "✕"));
        }
      }
      list.appendChild(el("li", { class: "seat-row", "data-seat": seat.seat },
        el("span", { class: "dot " + (seat.connected ? "on" : "off"), role: "img",
          "aria-label": seat.connected ? t("wait.online") : t("wait.offline") }),
        el("span", { class: "seat-name" }, seat.name), badges, el("span", { class: "seat-controls" }, controls)));
    });
    for (let i = tb.seats.length; i < tb.capacity; i++) {
      list.appendChild(el("li", { class: "seat-row free" }, el("span", { class: "dot off", "aria-hidden": "true" }),
        el("span", { class: "seat-name muted" }, t("wait.empty"))));
    }
    const invite = P10.store.get("invite." + S.tableId);
    if (invite) {
      $("waiting-invite").classList.remove("hidden");
      $("waiting-invite-link").value = invite;
    }
    $("start-button").classList.toggle("hidden", !host);
    $("host-extras").classList.toggle("hidden", !host || !S.botsEnabled);
    $("add-bot").disabled = tb.seats.length >= tb.capacity;
    $("waiting-note").textContent = host ? t("wait.note_host", { min: 2 }) : t("wait.note_guest");
  }

  /* Before the start a reorder or a removal moves seats: ask which one this browser holds now. */
  async function refreshSeat() {
    const result = await P10.api("GET", `/api/tables/${S.tableId}/view`);
    if (result.ok && result.data.game_id === null) S.seat = result.data.seat;
    render();
  }

  async function hostCall(method, path, body) {
    $("wait-error").textContent = "";
    const result = await P10.api(method, `/api/tables/${S.tableId}/${path}`, body);
    if (!result.ok) { $("wait-error").textContent = P10.errorText(result.data.error); return; }
    if (result.data && result.data.seats) { S.table = result.data; refreshSeat(); }
  }

  /* ------------------------------------------------------------------ rendering: the game */
  /* Re-rendering replaces nodes; a keyboard user must not lose the place. Remember what had the focus by a
     stable key and give it back to its replacement. */
  function focusKey(node) {
    if (!node || node === document.body || !node.closest("#app")) return null;
    if (node.id) return "#" + CSS.escape(node.id);
    const parts = [];
    for (const attr of ["data-card-id", "data-hit", "data-end", "data-put", "data-steps", "data-action", "data-search", "data-give", "aria-label"]) {
      const value = node.getAttribute(attr);
      if (value !== null) parts.push(`[${attr}="${CSS.escape(value)}"]`);
    }
    if (!parts.length) return null;
    const area = node.closest("[id]");
    return (area ? "#" + CSS.escape(area.id) + " " : "") + node.tagName.toLowerCase() + parts.join("");
  }

  function render() {
    const key = focusKey(document.activeElement);
    renderAll();
    if (key && (!document.activeElement || document.activeElement === document.body)) {
      const again = document.querySelector(key);
      if (again) again.focus();
    }
  }

  function renderAll() {
    if (!S.table) return;
    // A player in another tab sees at a glance that the game waits for them.
    S.baseTitle = S.baseTitle || document.title;
    document.title = (S.view && myTurnAction() ? "▶ " + t("title.your_turn") + " · " : "") + S.baseTitle;
    if (S.gameId === null || !S.view) {
      if (S.table.status === "waiting") renderWaiting();
      return;
    }
    $("waiting").classList.add("hidden");
    $("game").classList.remove("hidden");
    const v = S.view;
    document.body.dataset.ruleset = v.ruleset;
    $("game-title").textContent = t("ruleset." + v.ruleset + ".title") + " · " + t("table.round", { n: v.round });
    document.querySelectorAll(".rules-section").forEach((n) => n.classList.toggle("hidden", n.dataset.ruleset !== v.ruleset));
    // Drop selections of cards that left the hand; reset the builder when the phase changes.
    const ids = new Set(hand().map((c) => c.id));
    for (const id of [...S.selected]) if (!ids.has(id)) S.selected.delete(id);
    const key = v.round + ":" + JSON.stringify(v.my_phase || null);
    if (S.builderFor !== key || !(prompt() && prompt().can_lay)) {
      S.builder = null;
      S.builderFor = key;
    }
    if (S.builder) S.builder = S.builder.map((g) => g.filter((id) => ids.has(id)));
    if (v.ruleset === "board" && P10.renderBoard) {
      $("board").classList.remove("hidden");
      P10.renderBoard($("board"), v, { names: names(), seat: S.seat, send, setError });
    } else {
      $("board").classList.add("hidden");
    }
    renderTimer();
    renderPlayers();
    renderPiles();
    renderPrompt();
    renderHand();
    renderScores();
    maybeSummary();
  }

  /* The turn timer (issue 7's clock) as a countdown: the view carries the seconds left when it was built. */
  function renderTimer() {
    const timer = S.view.timer;
    if (!timer || !(timer.seats || []).length || S.view.over) { S.timerEnd = null; $("timer").classList.add("hidden"); return; }
    const key = S.version + ":" + timer.deadline;
    if (S.timerKey !== key) { S.timerKey = key; S.timerEnd = Date.now() + timer.remaining * 1000; }
    S.timerSeats = timer.seats;
    tickTimer();
  }

  function tickTimer() {
    const node = $("timer");
    if (!S.timerEnd) { node.classList.add("hidden"); return; }
    const left = Math.max(0, Math.round((S.timerEnd - Date.now()) / 1000));
    node.classList.remove("hidden");
    node.classList.toggle("urgent", left <= 10);
    node.textContent = "⏱ " + t("table.timer", { s: left, names: S.timerSeats.map(nameOf).join(", ") });
  }

  function hitOptions(group) {
    // Whether to offer hitting: my prompt allows it and exactly one hand card is selected.
    const p = prompt();
    return Boolean(p && p.action === "play" && p.can_hit && selectedIds().length === 1);
  }

  function groupEl(group, index) {
    const label = P10.groupLabel(group);
    const node = el("div", { class: "group", "data-group": index, "data-kind": group.kind, role: "group",
      "aria-label": t("table.group_n", { n: index + 1 }) + ": " + label },
    el("div", { class: "group-label" }, el("span", { class: "group-index" }, "#" + (index + 1)), " ", label),
    el("div", { class: "group-cards" }, group.cards.map((c) => P10.cardEl(c, { small: true }))));
    if (hitOptions(group)) {
      const hitBox = el("div", { class: "hit-buttons" });
      const isRun = group.kind === "run" || group.kind === "colour_run";
      const card = selectedIds()[0];
      if (isRun) {
        P10.add(hitBox, 
          el("button", { type: "button", class: "small hit", "data-hit": index, "data-end": "low",
            "aria-label": t("table.hit_on_low", { group: label }),
            onclick: () => send({ type: "hit", card, group: index, end: "low" }) }, t("table.hit_low")),
          el("button", { type: "button", class: "small hit", "data-hit": index, "data-end": "high",
            "aria-label": t("table.hit_on_high", { group: label }),
            onclick: () => send({ type: "hit", card, group: index, end: "high" }) }, t("table.hit_high")));
      } else {
        P10.add(hitBox, el("button", { type: "button", class: "small hit", "data-hit": index,
          "aria-label": t("table.hit_on", { group: label }),
          onclick: () => send({ type: "hit", card, group: index, end: null }) }, t("table.hit_here")));
      }
      node.appendChild(hitBox);
    }
    return node;
  }

  function renderPlayers() {
    const v = S.view;
    const box = clear($("players"));
    const awaited = new Set(v.awaited || []);
    v.players.forEach((p) => {
      const me = p.seat === S.seat;
      const onTurn = v.turn === p.seat && !v.over;
      const classes = ["player"];
      if (me) classes.push("me");
      if (onTurn) classes.push("on-turn");
      if (awaited.has(p.seat)) classes.push("awaited");
      const facts = [
        el("span", { class: "fact" }, t("table.cards_in_hand", { n: p.hand_size })),
        el("span", { class: "fact" }, t("table.phase", { n: p.phase }) + (p.phase_description ? " – " + P10.phaseText(p.phase, v) : "")),
      ];
      if (p.score !== undefined) {
        facts.push(el("span", { class: "fact" }, v.ruleset === "master" && v.scoring === "minus" ? t("table.minus", { n: p.score }) : t("table.score", { n: p.score })));
      }
      if (p.pawn !== undefined) facts.push(el("span", { class: "fact" }, t("board.pawn_on", { n: p.pawn })));
      if (p.finished) facts.push(el("span", { class: "fact ok" }, "🏁 " + t("board.finish")));
      if (p.keep_pending) facts.push(el("span", { class: "fact warn" }, t("table.keep_pending")));
      if (p.laid) facts.push(el("span", { class: "fact ok" }, "✓ " + t("table.phase_done")));
      if (p.skip_pending) facts.push(el("span", { class: "fact warn" }, "⊘ " + t("table.skip_pending")));
      const turned = (p.turned || []).length && p.seat !== S.seat
        ? el("div", { class: "in-front" }, el("span", { class: "muted" }, t("board.turned") + ": "),
          p.turned.map((c) => P10.cardEl(c, { small: true })))
        : null;
      const front = (p.in_front || []).length
        ? el("div", { class: "in-front" }, el("span", { class: "muted" }, t("table.in_front") + ": "),
          p.in_front.map((c) => P10.cardEl(c, { small: true })))
        : null;
      const groups = [];
      (v.table || []).forEach((g, i) => { if (g.owner === p.seat) groups.push(groupEl(g, i)); });
      box.appendChild(el("article", { class: classes.join(" "), "data-seat": p.seat,
        "aria-label": nameOf(p.seat) + (onTurn ? ", " + t("table.turn") : "") },
      el("header", { class: "player-head" },
        el("span", { class: "dot " + (connected(p.seat) ? "on" : "off"), role: "img",
          "aria-label": connected(p.seat) ? t("wait.online") : t("wait.offline") }),
        el("strong", { class: "player-name" }, nameOf(p.seat)),
        me ? el("span", { class: "badge you" }, t("table.you")) : null,
        onTurn ? el("span", { class: "badge turn" }, "▶ " + t("table.turn")) : null,
        !onTurn && awaited.has(p.seat) ? el("span", { class: "badge turn" }, "… " + t("table.awaited")) : null,
        standIn(p.seat) ? el("span", { class: "badge stand-in" }, "🤖 " + t("table.stand_in")) : null),
      el("div", { class: "facts" }, facts), front, turned,
      el("div", { class: "groups" }, groups.length ? groups : el("span", { class: "muted small-text" }, t("table.no_groups")))));
    });
  }

  P10.phaseText = function (number, v) {
    const entry = (v.phases || []).find((p) => p.number === number);
    return entry && entry.groups ? P10.describePhase(entry.groups) : "";
  };

  function pileButton(kind, label, card, size, enabled, onclick) {
    const inner = card ? P10.cardEl(card) : el("span", { class: "card back", "aria-hidden": "true" }, el("span", { class: "back-mark" }, "10"));
    const attrs = { type: "button", class: "pile pile-" + kind, id: "pile-" + kind,
      "aria-label": label + (card ? ": " + P10.cardLabel(card) : "") + ", " + t("table.cards", { n: size }) };
    if (!enabled) attrs.disabled = true;
    return el("div", { class: "pile-wrap" },
      el("button", Object.assign(attrs, { onclick }), inner),
      el("div", { class: "pile-caption" }, label, el("br"), el("span", { class: "muted" }, t("table.cards", { n: size }))));
  }

  function renderPiles() {
    const v = S.view;
    const box = clear($("piles"));
    const p = prompt();
    const piles = p && (p.action === "draw" || p.action === "take") ? p.piles || [] : [];
    P10.add(box, 
      pileButton("draw", t("table.draw_pile"), null, v.draw_size, piles.includes("draw"),
        () => send({ type: "draw", pile: "draw" })),
      pileButton("discard", t("table.discard_pile"), v.discard_top, v.discard_size, piles.includes("discard"),
        () => send({ type: "draw", pile: "discard" })));
    if (v.ruleset === "master") {
      P10.add(box, el("div", { class: "pile-wrap" },
        el("div", { class: "pile pile-blue", role: "img", "aria-label": t("table.blue_pile") + (v.blue_top ? ": " + P10.cardLabel(v.blue_top) : ": " + t("table.empty")) },
          v.blue_top ? P10.cardEl(v.blue_top) : el("span", { class: "card empty" })),
        el("div", { class: "pile-caption" }, t("table.blue_pile"), el("br"), el("span", { class: "muted" }, t("table.cards", { n: v.blue_size })))));
      if (v.give_me_five) {
        P10.add(box, el("div", { class: "offers" }, el("strong", null, t("action.give_me_five") + " → " + nameOf(v.give_me_five.taker)),
          el("div", { class: "group-cards" }, v.give_me_five.offers.map((o) => el("span", { class: "offer" },
            o.card ? P10.cardEl(o.card, { small: true }) : P10.cardEl(null, { small: true }), el("small", null, nameOf(o.seat)))))));
      }
    }
  }

  function waitingText(v) {
    const awaited = (v.awaited || []).map(nameOf);
    if (!awaited.length) return "";
    return awaited.length === 1 ? t("prompt.wait", { name: awaited[0] }) : t("prompt.wait_many", { names: awaited.join(", ") });
  }

  function renderPrompt() {
    const v = S.view;
    const p = prompt();
    const promptNode = $("prompt");
    const controls = clear($("prompt-controls"));
    const actions = clear($("actions"));
    const builder = $("builder");
    builder.classList.add("hidden");
    if (S.seat === null) promptNode.textContent = t("table.spectating") + " " + waitingText(v);
    if (v.over) { renderOver(promptNode, controls); return; }
    const action = myTurnAction();
    if (!action) { if (S.seat !== null) promptNode.textContent = waitingText(v); return; }
    if (v.ruleset === "board" && P10.renderBoardPrompt &&
        P10.renderBoardPrompt({ p, v, promptNode, controls, actions, send, setError, selectedIds, oneSelected, nameOf, render })) {
      return;
    }
    switch (action) {
      case "draw":
        promptNode.textContent = p.take_two ? t("prompt.draw_take_two") : p.piles.includes("discard") ? t("prompt.draw") : t("prompt.draw_only");
        P10.add(controls, 
          el("button", { type: "button", class: "primary", id: "act-draw", onclick: () => send({ type: "draw", pile: "draw" }) }, t("act.draw_pile")),
          p.piles.includes("discard") ? el("button", { type: "button", id: "act-take-discard", onclick: () => send({ type: "draw", pile: "discard" }) }, t("act.discard_pile")) : null);
        break;
      case "play":
        renderPlay(p, v, promptNode, actions);
        break;
      case "choose_take_two":
        promptNode.textContent = t("prompt.choose_take_two");
        P10.add(controls, el("div", { class: "choice-cards" }, p.cards.map((c) => el("div", { class: "choice" }, P10.cardEl(c),
          el("button", { type: "button", onclick: () => send({ type: "choose_take_two", keep: c.id }) }, t("act.keep"))))));
        break;
      case "offer":
        promptNode.textContent = t("prompt.offer", { name: nameOf(p.taker), count: p.count });
        P10.add(actions, el("button", { type: "button", class: "primary", id: "act-offer", onclick: () => {
          const id = oneSelected(); if (id !== null) send({ type: "offer_card", card: id });
        } }, t("act.offer")));
        break;
      case "take_offer":
        promptNode.textContent = t("prompt.take_offer");
        P10.add(controls, el("div", { class: "choice-cards" }, p.offers.filter((o) => o.card).map((o) => el("div", { class: "choice" },
          P10.cardEl(o.card), el("small", null, nameOf(o.seat)),
          el("button", { type: "button", onclick: () => send({ type: "take_offer", card: o.card.id }) }, t("act.take"))))));
        break;
      case "keep_hand":
        promptNode.textContent = t("prompt.keep_hand", { n: p.hand_size });
        P10.add(controls, 
          el("button", { type: "button", class: "primary", onclick: () => send({ type: "keep_hand", keep: true }) }, t("act.keep_hand")),
          el("button", { type: "button", onclick: () => send({ type: "keep_hand", keep: false }) }, t("act.return_hand")));
        break;
      default:
        promptNode.textContent = action;
    }
  }

  function renderPlay(p, v, promptNode, actions) {
    const master = v.ruleset === "master";
    promptNode.textContent = master ? t("prompt.play_master") : p.can_lay ? t("prompt.play") : t("prompt.play_laid");
    if (p.two_discards) promptNode.textContent += " " + t("prompt.two_discards");  // board B-7, said before the first
    if (p.can_lay && v.my_phase) renderBuilder(v);
    const ids = selectedIds();
    const single = ids.length === 1 ? cardById(ids[0]) : null;
    const isAction = single && single.kind === "action";
    const mattelSkip = single && !master && single.action === "skip";
    const needsTarget = (mattelSkip || (master && single && single.action === "skip")) && (p.skip_targets || []).length > 0;
    let targetSelect = null;
    if (needsTarget) {
      targetSelect = el("select", { id: "skip-target", "aria-label": t("act.skip_target") },
        p.skip_targets.map((s) => el("option", { value: s }, nameOf(s))));
      P10.add(actions, el("label", { for: "skip-target", class: "inline-label" }, t("act.skip_target")), targetSelect);
    }
    const target = () => (targetSelect ? parseInt(targetSelect.value, 10) : null);
    if (master && isAction) {
      if (single.action === "give_me_five") {
        P10.add(actions, 
          el("button", { type: "button", class: "primary", id: "act-play-action", onclick: () => send({ type: "play_action", card: single.id, target: null, ask: true }) }, t("act.ask")),
          el("button", { type: "button", id: "act-play-decline", onclick: () => send({ type: "play_action", card: single.id, target: null, ask: false }) }, t("act.decline")));
      } else {
        P10.add(actions, el("button", { type: "button", class: "primary", id: "act-play-action",
          onclick: () => send({ type: "play_action", card: single.id, target: target(), ask: true }) }, t("act.play_action")));
      }
    } else {
      P10.add(actions, el("button", { type: "button", class: "primary", id: "act-discard", disabled: ids.length !== 1 ? true : null,
        onclick: () => { const id = oneSelected(); if (id !== null) send({ type: "discard", card: id, target: target() }); } },
      t("act.discard")));
    }
  }

  function renderBuilder(v) {
    const box = clear($("builder"));
    box.classList.remove("hidden");
    const phase = v.my_phase;
    if (!S.builder || S.builder.length !== phase.length) S.builder = phase.map(() => []);
    P10.add(box, el("h3", null, t("builder.title", { phase: P10.describePhase(phase) })));
    const groups = el("div", { class: "builder-groups" });
    phase.forEach((spec, gi) => {
      const ids = S.builder[gi];
      const isRun = spec.kind.includes("run");
      const cards = ids.map((id, pos) => {
        const card = cardById(id);
        if (!card) return null;
        const name = P10.cardLabel(card);
        return el("div", { class: "slot" }, P10.cardEl(card, { small: true }),
          el("div", { class: "slot-controls" },
            isRun && pos > 0 ? el("button", { type: "button", class: "tiny", "aria-label": t("builder.left", { card: name }),
              onclick: () => { [ids[pos - 1], ids[pos]] = [ids[pos], ids[pos - 1]]; render(); } }, "◀") : null,
            el("button", { type: "button", class: "tiny", "aria-label": t("builder.remove", { card: name }),
              onclick: () => { ids.splice(pos, 1); render(); } }, "✕"),
            isRun && pos < ids.length - 1 ? el("button", { type: "button", class: "tiny", "aria-label": t("builder.right", { card: name }),
              onclick: () => { [ids[pos + 1], ids[pos]] = [ids[pos], ids[pos + 1]]; render(); } }, "▶") : null));
      });
      P10.add(groups, el("div", { class: "builder-group", "data-builder-group": gi, role: "group",
        "aria-label": t("builder.group", { n: gi + 1, kind: P10.describePhase([spec]) }) },
      el("div", { class: "group-label" }, t("builder.group", { n: gi + 1, kind: P10.describePhase([spec]) })),
      el("div", { class: "group-cards" }, cards),
      el("button", { type: "button", class: "small put", "data-put": gi, onclick: () => {
        for (const id of selectedIds()) ids.push(id);
        if (isRun) ids.sort((a, b) => sortValue(a) - sortValue(b));
        S.selected.clear();
        render();
      } }, t("builder.put"))));
    });
    P10.add(box, groups);
    if (phase.some((g) => g.kind.includes("run"))) P10.add(box, el("p", { class: "muted small-text" }, t("builder.run_order")));
    P10.add(box, el("div", { class: "builder-actions" },
      el("button", { type: "button", id: "builder-suggest", onclick: suggest }, "💡 " + t("builder.suggest")),
      el("button", { type: "button", id: "builder-clear", onclick: () => { S.builder = phase.map(() => []); render(); } }, t("builder.clear")),
      el("button", { type: "button", class: "primary", id: "builder-lay", onclick: () => {
        if (S.builder.some((g) => !g.length)) { setError(t("builder.incomplete")); return; }
        send({ type: "lay_phase", groups: S.builder.map((g) => [...g]) });
      } }, t("builder.lay"))));
  }

  function sortValue(id) {
    const c = cardById(id);
    // Naturals by number; jokers keep their place after the naturals (the player moves them with ◀ ▶).
    return c && c.kind === "number" ? c.number : 100;
  }

  async function suggest() {
    setError("");
    const result = await P10.api("GET", `/api/tables/${S.tableId}/hint`);
    if (!result.ok) { setError(P10.errorText(result.data.error)); return; }
    if (!result.data.groups) { setError(t("builder.no_suggestion")); return; }
    S.builder = result.data.groups.map((g) => [...g]);
    S.selected.clear();
    render();
  }

  function renderHand() {
    const box = clear($("hand"));
    const cards = P10.sortCards(hand().filter((c) => !inBuilder(c.id)), S.sort);
    $("sort-number").setAttribute("aria-pressed", String(S.sort === "number"));
    $("sort-colour").setAttribute("aria-pressed", String(S.sort === "colour"));
    $("hand-area").classList.toggle("hidden", S.seat === null);
    for (const card of cards) {
      box.appendChild(P10.cardEl(card, { button: true, selected: S.selected.has(card.id), onclick: () => {
        if (S.selected.has(card.id)) S.selected.delete(card.id); else S.selected.add(card.id);
        setError("");
        render();
      } }));
    }
  }

  /* ------------------------------------------------------------------ score sheet, summary and chart */
  function scoreTable(v) {
    const hist = v.history || [];
    if (!hist.length) return el("p", { class: "muted" }, t("scores.none"));
    const head = el("tr", null, el("th", { scope: "col" }, t("scores.round")), v.players.map((p) => el("th", { scope: "col" }, nameOf(p.seat))));
    const rows = hist.map((r) => el("tr", null, el("th", { scope: "row" }, String(r.round)),
      v.players.map((p) => el("td", null, String(r.points[p.seat]), el("small", { class: "muted" },
        " · " + (r.made[p.seat] ? t("summary.made", { n: r.made[p.seat] }) : t("summary.not_made")))))));
    const total = el("tr", { class: "total" }, el("th", { scope: "row" }, t("summary.total")), v.players.map((p) => el("td", null, String(p.score))));
    return el("table", { class: "scores" }, el("thead", null, head), el("tbody", null, rows, total));
  }

  function renderScores() {
    const v = S.view;
    const box = clear($("scores"));
    P10.add(box, el("h2", null, t("table.scores")), scoreTable(v));
    if ((v.history || []).length) P10.add(box, P10.chart(v, nameOf));
    P10.add(box, pastGames());
  }

  /* Two small SVG line charts: each player's total score and phase by round. */
  P10.chart = function (v, nameOf) {
    const hist = v.history || [];
    const palette = ["#d33", "#26a", "#2a2", "#c80", "#838", "#0aa"];
    const wrap = el("div", { class: "charts" });
    const series = (kind) => v.players.map((p) => {
      let total = 0, phase = 0;
      return [0].concat(hist.map((r) => {
        total += r.points[p.seat];
        if (r.made[p.seat]) phase = Math.max(phase, r.made[p.seat]);
        return kind === "score" ? total : phase;
      }));
    });
    for (const kind of ["score", "phase"]) {
      const data = series(kind);
      const max = Math.max(1, ...data.flat());
      const W = 260, H = 120, L = 28, B = 18;
      const x = (i) => L + (i * (W - L - 6)) / Math.max(1, hist.length);
      const y = (val) => H - B - (val * (H - B - 6)) / max;
      const svgNode = P10.svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
        "aria-label": t(kind === "score" ? "summary.chart_score" : "summary.chart_phase") + ": " +
          v.players.map((p, i) => nameOf(p.seat) + " " + data[i][data[i].length - 1]).join(", ") },
      P10.svg("line", { x1: L, y1: H - B, x2: W, y2: H - B, stroke: "#888" }),
      P10.svg("line", { x1: L, y1: 0, x2: L, y2: H - B, stroke: "#888" }),
      P10.svg("text", { x: 2, y: 10, "font-size": 9, text: String(max) }),
      P10.svg("text", { x: 2, y: H - B, "font-size": 9, text: "0" }),
      hist.map((r, i) => P10.svg("text", { x: x(i + 1) - 3, y: H - 4, "font-size": 9, text: String(r.round) })),
      data.map((points, i) => P10.svg("polyline", { fill: "none", stroke: palette[i % palette.length], "stroke-width": 2,
        "stroke-dasharray": i % 2 ? "4 2" : null, points: points.map((val, k) => `${x(k)},${y(val)}`).join(" ") })));
      P10.add(wrap, el("figure", null, el("figcaption", null, t(kind === "score" ? "summary.chart_score" : "summary.chart_phase")), svgNode));
    }
    P10.add(wrap, el("ul", { class: "legend" }, v.players.map((p, i) => el("li", null,
      el("span", { class: "swatch", style: `background:${palette[i % palette.length]}` }), nameOf(p.seat)))));
    return wrap;
  };

  function maybeSummary() {
    if (!S.pendingSummary) return;
    S.pendingSummary = false;
    openSummary();
  }

  function replayHref(number) { return `/tables/${S.tableId}/games/${number}/replay`; }
  function gameNumber() { return S.table && S.table.game ? S.table.game.number : 1; }

  async function rematch() {
    const result = await P10.api("POST", `/api/tables/${S.tableId}/rematch`);
    if (!result.ok) { P10.toast(P10.errorText(result.data.error)); return; }
    $("summary").close();
  }

  /* The end of a game stays usable after a refresh or a late arrival: the prompt offers the result, the
     replay and (to the seated players) the rematch; the score sheet links the replays of every finished game
     at this table. */
  function renderOver(promptNode, controls) {
    promptNode.textContent = t("prompt.over");
    P10.add(controls,
      el("button", { type: "button", id: "over-summary", onclick: openSummary }, t("summary.show")),
      el("a", { class: "button", id: "over-replay", href: replayHref(gameNumber()) }, t("summary.replay")),
      S.seat !== null ? el("button", { type: "button", id: "over-rematch", class: "primary", onclick: rematch }, t("summary.rematch")) : null);
  }

  function pastGames() {
    // every game at this table: a finished one in full, the running one as far as a spectator may see it
    const current = gameNumber();
    const links = [];
    for (let n = 1; n <= current; n++) {
      const live = n === current && !S.view.over;
      links.push(el("a", { href: replayHref(n), class: live ? "live" : null }, t(live ? "table.game_so_far" : "table.game_n", { n })));
    }
    return el("p", { id: "past-games" }, t("table.replays") + " ", ...links.flatMap((a, i) => (i ? [" · ", a] : [a])));
  }

  function openSummary() {
    const v = S.view;
    const hist = v.history || [];
    const dialog = $("summary");
    const body = clear($("summary-body"));
    if (v.over) {
      $("summary-title").textContent = t("summary.game");
      P10.add(body, el("p", { class: "winners" }, "🏆 " + t("summary.winners", { names: (v.winners || []).map(nameOf).join(", ") })));
      const link = $("summary-replay");
      link.href = replayHref(gameNumber());
      link.classList.remove("hidden");
      $("summary-rematch").classList.toggle("hidden", S.seat === null);
    } else {
      const last = hist[hist.length - 1];
      $("summary-title").textContent = t("summary.round", { n: last ? last.round : v.round - 1 });
      $("summary-replay").classList.add("hidden");
      $("summary-rematch").classList.add("hidden");
    }
    if (v.ruleset === "board") {
      P10.add(body, el("ul", null, v.players.map((p) => el("li", null, nameOf(p.seat) + ": " +
        (p.finished ? t("board.finish") : t("table.phase", { n: p.phase }))))));
    }
    // every rule set keeps a score sheet (the board game's "points" are the marker fields gained, B-8)
    if (hist.length) P10.add(body, scoreTable(v), P10.chart(v, nameOf));
    if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  /* ------------------------------------------------------------------ chat and reactions */
  function addChat(msg, fromHistory) {
    if (S.chatSeen.has(msg.id)) return;
    S.chatSeen.add(msg.id);
    const log = $("chat-log");
    const who = msg.name || t("seat.n", { n: (msg.seat ?? 0) + 1 });
    log.appendChild(el("li", { class: msg.emoji ? "reaction-line" : "" }, el("strong", null, who + ": "),
      msg.emoji ? el("span", { class: "big-emoji" }, msg.emoji) : msg.text));
    log.scrollTop = log.scrollHeight;
    if (msg.emoji && !fromHistory) floatEmoji(msg.emoji);
  }

  function floatEmoji(emoji) {
    const node = el("span", { class: "float-emoji", "aria-hidden": "true" }, emoji);
    document.body.appendChild(node);
    setTimeout(() => node.remove(), 1800);
  }

  async function loadChat() {
    const result = await P10.api("GET", `/api/tables/${S.tableId}/chat`);
    if (result.ok) (result.data.messages || []).forEach((m) => addChat(m, true));
  }

  async function postChat(body) {
    const result = await P10.api("POST", `/api/tables/${S.tableId}/chat`, body);
    if (!result.ok) { P10.toast(P10.errorText(result.data.error)); return; }
    addChat(result.data);
  }

  /* ------------------------------------------------------------------ start */
  document.addEventListener("DOMContentLoaded", async () => {
    S.tableId = $("app").dataset.table;
    $("sort-number").addEventListener("click", () => { S.sort = "number"; P10.store.set("sort", S.sort); render(); });
    $("sort-colour").addEventListener("click", () => { S.sort = "colour"; P10.store.set("sort", S.sort); render(); });
    const toggle = (button, panel) => button.addEventListener("click", () => {
      const hidden = panel.classList.toggle("hidden");
      button.setAttribute("aria-expanded", String(!hidden));
    });
    toggle($("help-button"), $("help"));
    toggle($("scores-button"), $("scores"));
    $("summary-close").addEventListener("click", () => $("summary").close());
    $("summary-rematch").addEventListener("click", rematch);
    $("start-button").addEventListener("click", () => hostCall("POST", "start"));
    $("add-bot").addEventListener("click", async () => {
      const result = await P10.api("POST", `/api/tables/${S.tableId}/bots`, { level: $("bot-level").value });
      if (!result.ok) { $("wait-error").textContent = P10.errorText(result.data.error); return; }
      if (result.data.table) { S.table = result.data.table; render(); }
    });
    const setClock = () => hostCall("PUT", "clock", { turn_timer: $("turn-timer").value, stand_in: $("stand-in").checked });
    $("turn-timer").addEventListener("change", setClock);
    $("stand-in").addEventListener("change", setClock);
    $("waiting-copy").addEventListener("click", () => P10.copy($("waiting-invite-link")));
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-input");
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      postChat({ text });
    });
    document.querySelectorAll(".reaction").forEach((b) => b.addEventListener("click", () => postChat({ emoji: b.dataset.emoji })));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && S.selected.size) { S.selected.clear(); render(); }
    });
    const info = await P10.api("GET", `/api/tables/${S.tableId}`);
    if (!info.ok) { $("page-error").textContent = P10.errorText(info.data.error); return; }
    S.table = info.data;
    const bots = await P10.api("GET", `/api/tables/${S.tableId}/bots`);
    S.botsEnabled = bots.ok;
    if (bots.ok) {
      if (bots.data.turn_timer) $("turn-timer").value = bots.data.turn_timer;
      $("stand-in").checked = Boolean(bots.data.stand_in);
    }
    loadChat();
    connect();
    setInterval(tickTimer, 1000);
  });
})(window.P10);
