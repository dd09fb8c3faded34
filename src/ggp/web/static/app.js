// ggp web: the play page and the match viewer. Plain DOM, no build step.
// Views come from the server (ggp.render): {parts: [grid | cards | fields]}.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
};

async function api(url, body) {
  const opts = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(body)};
  const response = await fetch(url, opts);
  const data = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
  if (!response.ok || data.error) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// ------------------------------------------------------------------ rendering
const SUITS = {c: ["♣", false], d: ["♦", true], h: ["♥", true], s: ["♠", false]};

function card(text) {
  const m = /^(10|[2-9TJQKA]|\d+)([CDHScdhs])$/.exec(text);
  if (!m) return el("span", {class: "card", text});
  const [symbol, red] = SUITS[m[2].toLowerCase()];
  return el("span", {class: "card" + (red ? " red" : ""), title: text, text: m[1] + symbol});
}

// The legal move a board cell stands for: the one move whose numbers are the cell's row and
// column labels ("x(1,2)", "(mark 1 2)"), else the one whose only number is its column
// ("x3", "(drop 3)"); null when none or several do (then the buttons are the way to move).
// Only when every legal move is one pattern with numbers in it ("x(_,_)"): in generalized
// chess "A2_to_B2" is not a move to a cell (2,2).
function cellMove(legal, row, col) {
  const patterns = new Set(legal.map((m) => m.replace(/\d+/g, "#")));
  if (patterns.size !== 1 || !legal[0].match(/\d/)) return null;
  const numbers = (m) => (m.match(/\d+/g) || []).join(",");
  for (const key of [`${row},${col}`, `${col}`]) {
    const found = legal.filter((m) => numbers(m) === key);
    if (found.length === 1) return found[0];
    if (found.length > 1) return null;
  }
  return null;
}

function renderView(view, legal = [], onMove = null) {
  const box = el("div", {class: "view"});
  if (!view) return box;
  const clickable = onMove && legal.length && view.parts.filter((p) => p.kind === "grid").length === 1;
  for (const part of view.parts) {
    if (part.kind === "grid") {
      const table = el("table", {class: "grid"});
      table.append(el("tr", {}, el("th"), ...part.cols.map((c) => el("th", {text: c}))));
      part.cells.forEach((row, i) => table.append(el("tr", {}, el("th", {text: part.rows[i]}),
        ...row.map((c, j) => {
          const td = el("td", {text: c});
          const move = clickable ? cellMove(legal, part.rows[i], part.cols[j]) : null;
          if (move) { td.className = "playable"; td.title = move; td.onclick = () => onMove(move); }
          return td;
        }))));
      box.append(el("div", {class: "label", text: part.label}), table);
    } else if (part.kind === "cards") {
      const row = el("div", {class: "cards"}, el("span", {class: "label", text: part.label}));
      part.cards.forEach((c) => row.append(card(c)));
      if (!part.cards.length) row.append("(none)");
      box.append(row);
    } else {
      const table = el("table", {class: "fields"});
      part.items.forEach(([k, v]) => table.append(el("tr", {}, el("td", {text: k}), el("td", {text: v}))));
      box.append(table);
    }
  }
  return box;
}

// A readable, collapsible tree of any JSON value.
function jsonTree(value, key) {
  const label = key === undefined ? "" : key + ": ";
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const short = JSON.stringify(value);
    if (short.length <= 60) return el("div", {class: "json"}, el("span", {class: "k", text: label}), short);
    const details = el("details", {class: "json"});
    details.open = short.length < 400;
    details.append(el("summary", {}, el("span", {class: "k", text: label}),
                      Array.isArray(value) ? `[${entries.length} items]` : `{${entries.length} keys}`));
    entries.forEach(([k, v]) => details.append(jsonTree(v, k)));
    return details;
  }
  return el("div", {class: "json"}, el("span", {class: "k", text: label}), JSON.stringify(value));
}

// ------------------------------------------------------------------ play page
function initPlay() {
  let options = null, match = null, timer = null;

  function seatsChanged() {
    const n = Math.max(1, parseInt($("players").value || "2", 10));
    const seat = $("seat");
    const keep = seat.value;
    seat.replaceChildren(...Array.from({length: n}, (_, i) => el("option", {value: i, text: `seat ${i}`})));
    if (keep && keep < n) seat.value = keep;
    const box = $("opponents");
    const old = Array.from(box.querySelectorAll("input")).map((i) => i.value);
    box.replaceChildren();
    let k = 0;
    for (let s = 0; s < n; s++) {
      if (String(s) === seat.value) continue;
      const input = el("input", {list: "agent-names", size: 36, "data-seat": s, id: `opponent-${s}`});
      input.value = old[k++] || "random";
      box.append(el("div", {class: "row"}, el("label", {for: `opponent-${s}`, text: `Seat ${s} agent`}), input));
    }
  }

  function gameChanged() {
    const choice = options.games.find((g) => g.spec === $("game").value);
    if (choice && choice.players) $("players").value = choice.players;
    seatsChanged();
  }

  async function load() {
    options = await api("/api/options");
    const groups = {};
    for (const g of options.games) {
      groups[g.group] = groups[g.group] || el("optgroup", {label: g.group});
      groups[g.group].append(el("option", {value: g.spec, text: g.label}));
    }
    $("game").replaceChildren(...Object.values(groups));
    $("game").value = "tic_tac_toe";
    $("seed").value = Math.floor(Math.random() * 1e6);  // a new deal each time unless set
    $("agent-names").replaceChildren(...options.agents.map((a) => el("option", {value: a})));
    gameChanged();
  }

  async function start() {
    $("setup-error").textContent = "";
    const game = $("game-path").value.trim() || $("game").value;
    const opponents = Array.from($("opponents").querySelectorAll("input")).map((i) => i.value.trim());
    $("start").disabled = true;
    try {
      match = await api("/api/play", {game, seat: parseInt($("seat").value, 10), opponents,
                                      seed: parseInt($("seed").value || "0", 10)});
      $("setup").hidden = true; $("match").hidden = false;
      show(match);
    } catch (e) {
      $("setup-error").textContent = e.message;
    } finally {
      $("start").disabled = false;
    }
  }

  function poll() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try { show(await api(`/api/play/${match.id}`)); } catch (e) { $("status").textContent = e.message; }
    }, 250);
  }

  async function play(action) {
    $("move-error").textContent = "";
    try { show(await api(`/api/play/${match.id}/move`, {action})); }
    catch (e) { $("move-error").textContent = e.message; }
  }

  function show(m) {
    match = m;
    document.body.dataset.status = m.status;
    $("title").textContent = `${m.game} — you are seat ${m.seat} (${m.seat_name})`;
    $("rules").hidden = !m.rules;
    $("rules-text").textContent = m.rules || "";
    const status = {starting: "Starting the agents…", your_turn: "Your move.", waiting: "Waiting…",
                    thinking: "The opponent is thinking…", over: "The match is over.",
                    error: "The match stopped with an error: " + m.error}[m.status];
    $("status").textContent = status;
    $("seats").replaceChildren(...m.players.map((p) => el("tr", {class: p.seat === m.seat ? "you" : ""},
      el("td", {text: `seat ${p.seat}`}), el("td", {text: p.name}), el("td", {text: p.agent}))));
    $("view").replaceChildren(renderView(m.view, m.legal, play));
    $("raw-json").replaceChildren(m.observation === null ? "" : jsonTree(m.observation));
    // thinking progress
    $("thinking").hidden = !m.thinking;
    if (m.thinking) {
      const t = m.thinking, fill = $("thinking-fill");
      fill.className = t.limit ? "" : "busy";
      fill.style.width = t.limit ? `${Math.min(100, 100 * t.seconds / t.limit)}%` : "";
      $("thinking-text").textContent = `${t.agent} (seat ${t.seat}) thinking: ${t.seconds.toFixed(1)} s` +
        (t.limit ? ` of ${t.limit} s` : "");
    }
    // moves
    const moves = $("moves");
    moves.replaceChildren();
    if (m.status === "your_turn") {
      if (m.legal.length <= 30) {
        m.legal.forEach((a) => { const b = el("button", {class: "move", text: a}); b.onclick = () => play(a); moves.append(b); });
      } else {
        const input = el("input", {list: "legal-moves", size: 30, id: "move-input", placeholder: `${m.legal.length} legal moves: type one`});
        const list = el("datalist", {id: "legal-moves"}, ...m.legal.map((a) => el("option", {value: a})));
        const go = el("button", {text: "Play", id: "move-go"});
        go.onclick = () => play(input.value.trim());
        input.onkeydown = (e) => { if (e.key === "Enter") play(input.value.trim()); };
        moves.append(input, list, go);
      }
    }
    // history
    $("history-list").replaceChildren(...m.history.map((h) => el("li", {},
      el("b", {text: h.action}), el("details", {}, el("summary", {text: "observation"}), jsonTree(h.observation)))));
    // result
    const result = $("result");
    result.replaceChildren();
    if (m.status === "over") {
      if (m.outcome) result.append(el("p", {id: "outcome", class: "outcome", text: m.outcome}));
      const table = el("table", {class: "returns"});
      m.players.forEach((p) => table.append(el("tr", {class: p.seat === m.seat ? "you" : ""},
        el("td", {text: `seat ${p.seat} (${p.agent})`}), el("td", {text: (m.returns[p.seat] >= 0 ? "+" : "") + m.returns[p.seat]}))));
      result.append(el("h3", {text: "Final returns"}), table);
      if (m.forfeit) result.append(el("p", {text: `Seat ${m.forfeit.player} forfeited: ${m.forfeit.reason} ${m.forfeit.detail}`}));
      const again = el("button", {text: "New match", id: "again"});
      again.onclick = () => {
        $("seed").value = parseInt($("seed").value || "0", 10) + 1;  // the next deal
        $("match").hidden = true; $("setup").hidden = false;
      };
      result.append(again);
    }
    if (["starting", "waiting", "thinking"].includes(m.status)) poll();
  }

  $("game").onchange = gameChanged;
  $("players").onchange = seatsChanged;
  $("seat").onchange = seatsChanged;
  $("start").onclick = start;
  $("leave").onclick = async () => {
    clearTimeout(timer);
    if (match) await api(`/api/play/${match.id}/quit`, {}).catch(() => {});
    $("match").hidden = true; $("setup").hidden = false;
  };
  load().catch((e) => { $("setup-error").textContent = e.message; });
}

// ------------------------------------------------------------------ viewer
function initViewer() {
  let record = null, match = null;

  async function open(path) {
    $("record-error").textContent = "";
    try {
      record = await api(`/api/record?path=${encodeURIComponent(path)}`);
    } catch (e) { $("record-error").textContent = e.message; return; }
    $("match-select").replaceChildren(...record.matches.map((m, i) => el("option", {value: i, text: m})));
    $("pick").hidden = false;
    $("plots").hidden = !record.plots.length;
    $("plot-list").replaceChildren(...record.plots.map((name) => el("img", {alt: name, title: name,
      src: `/api/record/plot?path=${encodeURIComponent(record.path)}&name=${encodeURIComponent(name)}`})));
    await loadMatch(0);
  }

  async function loadMatch(index) {
    try {
      match = await api(`/api/record/match?path=${encodeURIComponent(record.path)}&index=${index}`);
    } catch (e) { $("record-error").textContent = e.message; return; }
    $("match").hidden = false;
    $("title").textContent = match.title;
    $("result").textContent = match.returns ? "Returns: " + match.players.map((p, i) => `${p} ${match.returns[i]}`).join(", ") : "";
    $("notes").replaceChildren(...match.notes.map((n) => el("li", {text: n})));
    $("step").max = Math.max(0, match.steps.length - 1);
    $("stepper").hidden = !match.steps.length;
    showStep(0);
  }

  function showStep(i) {
    $("step").value = i;
    const step = match.steps[i];
    if (!step) { $("state").replaceChildren(); $("player-views").replaceChildren(); $("step-text").textContent = ""; $("step-action").textContent = ""; return; }
    $("step-text").textContent = `step ${i + 1} of ${match.steps.length}`;
    $("step-action").textContent = `${step.actor}: ${step.action === null ? "(end)" : step.action}`;
    $("state").replaceChildren(step.state === null ? "not recorded" : renderView(step.state_view),
                               step.state === null ? "" : jsonTree(step.state));
    $("player-views").replaceChildren(...match.players.map((p, k) => el("div", {class: "pview"},
      el("h3", {text: `${p}'s view`}), step.views[k] === null || step.views[k] === undefined ? "—" :
        el("div", {}, renderView(step.view_views[k]), jsonTree(step.views[k])))));
  }

  const go = (d) => showStep(Math.min(Math.max(0, parseInt($("step").value, 10) + d), match.steps.length - 1));
  $("open").onclick = () => open($("path").value.trim());
  $("path").onkeydown = (e) => { if (e.key === "Enter") open($("path").value.trim()); };
  $("match-select").onchange = () => loadMatch(parseInt($("match-select").value, 10));
  $("step").oninput = () => showStep(parseInt($("step").value, 10));
  $("prev").onclick = () => go(-1); $("next").onclick = () => go(1);
  $("first").onclick = () => showStep(0); $("last").onclick = () => showStep(match.steps.length - 1);
  const fromUrl = new URLSearchParams(location.search).get("path");
  api("/api/options").then((o) => {
    const initial = fromUrl || o.record;
    if (initial) { $("path").value = initial; open(initial); }
  }).catch(() => {});
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.page === "play") initPlay(); else initViewer();
});
