// rebel-zero's page: play against an agent, replay recorded games, analyse positions. Talks to the
// JSON API of `rebel-zero serve`; the board is drawn as SVG from the cells the server sends.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const state = {
  mode: "play",
  rulesets: [],
  game: null,      // the open game (play mode)
  view: null,      // the position on the board
  selected: null,  // the cell clicked first
  record: null,    // the recorded game (replay mode)
  ply: 0,
  poll: null,
};

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(message) {
  const el = $("error");
  el.textContent = message || "";
  el.hidden = !message;
}

// ---------- the board ----------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/// The board, its piece counts and its legend, as `view` has them; `null` shows an empty board.
function drawBoard(view) {
  const svg = $("board");
  svg.replaceChildren();
  $("counts").textContent = view ? countsText(view) : "";
  $("legend").textContent = view ? view.board.legend : "";
  // What is drawn, for a test or a screenshot to wait on: the spec and the plies, or "none".
  document.body.dataset.drawn = view ? `${view.spec} ${(view.moves_from || 0) + view.moves.length}` : "none";
  if (!view) { delete svg.dataset.kind; return; }
  const board = view.board;
  const xs = board.cells.map((c) => c.x), ys = board.cells.map((c) => c.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const squares = board.kind === "squares";
  const span = Math.max(maxX - minX, maxY - minY) + (squares ? 1 : 0);
  const margin = 36;
  const unit = (560 - 2 * margin) / span;
  const px = (c) => margin + (c.x - minX + (squares ? 0.5 : 0)) * unit;
  const py = (c) => margin + (maxY - c.y + (squares ? 0.5 : 0)) * unit;
  svg.setAttribute("viewBox", "0 0 560 560");
  svg.dataset.kind = board.kind;
  const chess = board.checkered;

  if (squares) {
    board.cells.forEach((c, i) => {
      const cls = chess ? ((c.x + c.y) % 2 === 0 ? "square-dark" : "square-light")
        : (board.marked.includes(i) ? "square-marked" : "square-plain");
      el("rect", { x: px(c) - unit / 2, y: py(c) - unit / 2, width: unit, height: unit, class: cls }, svg);
    });
    board.cells.forEach((c) => {
      if (c.y === minY) el("text", { x: px(c), y: 560 - 10, class: "cell-label", "text-anchor": "middle" }, svg).textContent = c.label.replace(/\d+/, "");
      if (c.x === minX) el("text", { x: 12, y: py(c) + 4, class: "cell-label" }, svg).textContent = c.label.replace(/^[a-z]+/, "");
    });
  } else {
    board.marked.forEach((i) => el("circle", { cx: px(board.cells[i]), cy: py(board.cells[i]), r: unit * 0.2, class: "marked-point" }, svg));
    board.links.forEach(([a, b]) => {
      const [p, q] = [board.cells[a], board.cells[b]];
      el("line", { x1: px(p), y1: py(p), x2: px(q), y2: py(q), class: "link" }, svg);
    });
    // Each label below and right of its point, sized to the closest two points so that no two
    // labels meet however dense the board.
    const gap = closestGap(board.cells.map((c) => [px(c), py(c)]));
    const size = Math.min(11, gap * 0.3);
    board.cells.forEach((c) => {
      el("circle", { cx: px(c), cy: py(c), r: Math.min(4, gap * 0.12), class: "point" }, svg);
      el("text", { x: px(c) + gap * 0.1, y: py(c) + size * 1.3, class: "cell-label", style: `font-size: ${size}px` }, svg).textContent = c.label;
    });
  }

  if (view.last) {
    for (const i of view.last) {
      const c = board.cells[i];
      if (squares) el("rect", { x: px(c) - unit / 2, y: py(c) - unit / 2, width: unit, height: unit, class: "last" }, svg);
      else el("circle", { cx: px(c), cy: py(c), r: unit * 0.36, class: "last" }, svg);
    }
  }
  const radius = unit * (squares ? 0.38 : 0.3);
  for (const piece of view.pieces) {
    const c = board.cells[piece.cell];
    const g = el("g", { class: `piece side-${piece.side}`, "data-cell": piece.cell, "data-piece": piece.letter }, svg);
    const shape = chess && CHESS_PIECES[piece.letter];
    if (shape) {
      // The 100 × 100 drawing scaled to 90% of a square, centred on it.
      const size = unit * 0.9;
      g.classList.add("chess");
      g.setAttribute("transform", `translate(${px(c) - size / 2} ${py(c) - size / 2}) scale(${size / 100})`);
      for (const [name, attrs] of shape) el(name, attrs, g);
      el("title", {}, g).textContent = `${view.sides[piece.side]} ${CHESS_NAMES[piece.letter]}`;
    } else {
      el("circle", { cx: px(c), cy: py(c), r: radius }, g);
      el("text", { x: px(c), y: py(c) }, g).textContent = piece.letter;
    }
  }
  const playable = playableMoves();
  if (state.selected !== null) {
    const c = board.cells[state.selected];
    el("circle", { cx: px(c), cy: py(c), r: radius + 4, class: "selected" }, svg);
    for (const m of playable.filter((m) => m.from === state.selected)) {
      const t = board.cells[m.to];
      el("circle", { cx: px(t), cy: py(t), r: unit * 0.12, class: "target", "data-target": t.label }, svg);
    }
  }
  board.cells.forEach((c, i) => {
    const hit = squares
      ? el("rect", { x: px(c) - unit / 2, y: py(c) - unit / 2, width: unit, height: unit, class: "hit" }, svg)
      : el("circle", { cx: px(c), cy: py(c), r: unit * 0.4, class: "hit" }, svg);
    hit.dataset.cell = i;
    hit.dataset.label = c.label;
    el("title", {}, hit).textContent = c.label;
    hit.addEventListener("click", () => clickCell(i));
  });
}

/// The shortest distance between two of `points` ([x, y] pairs; a board has a few dozen).
function closestGap(points) {
  let best = Infinity;
  points.forEach(([x, y], i) => {
    for (const [u, v] of points.slice(i + 1)) best = Math.min(best, Math.hypot(x - u, y - v));
  });
  return Number.isFinite(best) ? best : 40;
}

/// Chess pieces drawn as shapes on a 100 × 100 box, so that they need no font: each part an SVG
/// element with its attributes; a "detail" part (the bishop's slit, the knight's eye) is drawn in the
/// other side's colour.
const CHESS_PIECES = {
  P: [["circle", { cx: 50, cy: 30, r: 11 }],
    ["path", { d: "M37 82 C37 64 43 58 44 47 L56 47 C57 58 63 64 63 82 Z" }],
    ["ellipse", { cx: 50, cy: 46, rx: 12, ry: 4 }],
    ["rect", { x: 27, y: 80, width: 46, height: 9, rx: 2 }]],
  N: [["path", { d: "M30 88 H72 C72 62 70 42 60 29 L62 15 L53 22 L46 16 L44 22 C34 28 27 40 22 51 C19 57 24 63 30 59 L38 50 C42 52 47 50 50 47 C46 60 33 67 30 80 Z" }],
    ["circle", { cx: 44, cy: 32, r: 2.8, class: "detail-dot" }]],
  B: [["circle", { cx: 50, cy: 15, r: 5 }],
    ["path", { d: "M50 20 C34 32 33 54 40 64 H60 C67 54 66 32 50 20 Z" }],
    ["path", { d: "M56 32 L45 46", class: "detail" }],
    ["path", { d: "M36 64 H64 L66 73 H34 Z" }],
    ["path", { d: "M24 89 C34 80 43 81 50 76 C57 81 66 80 76 89 Z" }]],
  R: [["path", { d: "M27 20 H36 V28 H45 V20 H55 V28 H64 V20 H73 V38 H27 Z" }],
    ["path", { d: "M33 38 H67 L69 78 H31 Z" }],
    ["rect", { x: 25, y: 78, width: 50, height: 11, rx: 2 }]],
  Q: [["path", { d: "M27 74 L17 33 L34 55 L38 23 L50 52 L62 23 L66 55 L83 33 L73 74 Z" }],
    ["circle", { cx: 17, cy: 33, r: 5 }], ["circle", { cx: 38, cy: 23, r: 5 }],
    ["circle", { cx: 62, cy: 23, r: 5 }], ["circle", { cx: 83, cy: 33, r: 5 }],
    ["path", { d: "M27 74 H73 L76 88 H24 Z" }]],
  K: [["path", { d: "M47 9 H53 V16 H60 V22 H53 V31 H47 V22 H40 V16 H47 Z" }],
    ["path", { d: "M50 58 C43 48 43 38 50 33 C57 38 57 48 50 58 Z" }],
    ["path", { d: "M27 74 C13 60 22 40 38 47 L50 58 L62 47 C78 40 87 60 73 74 Z" }],
    ["path", { d: "M27 74 H73 L76 88 H24 Z" }]],
};
const CHESS_NAMES = { P: "pawn", N: "knight", B: "bishop", R: "rook", Q: "queen", K: "king" };

/// "general 1 · rebels 14 (2 taken)": each side's pieces on the board, and those taken.
function countsText(view) {
  return view.sides.map((name, i) =>
    `${name} ${view.counts[i]}${view.taken[i] ? ` (${view.taken[i]} taken)` : ""}`).join(" · ");
}

// ---------- playing by clicks ----------

/// The moves the person may play now: in play mode, on their turn, while the agent is not thinking.
function playableMoves() {
  const g = state.game;
  if (state.mode !== "play" || !g || state.view !== g || g.thinking || g.resigned || g.outcome) return [];
  return g.to_move === g.human ? g.legal : [];
}

function clickCell(cell) {
  const moves = playableMoves();
  $("chooser").hidden = true;
  if (state.selected !== null) {
    const chosen = moves.filter((m) => m.from === state.selected && m.to === cell);
    if (chosen.length === 1) return playMove(chosen[0].text);
    if (chosen.length > 1) return choose(chosen);
  }
  state.selected = moves.some((m) => m.from === cell) ? cell : null;
  drawBoard(state.view);
}

/// Several moves share the two cells clicked (captures to choose, a promotion, a squirm): ask which.
function choose(moves) {
  const box = $("choices");
  box.replaceChildren();
  for (const m of moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.textContent = m.text;
    b.addEventListener("click", () => { $("chooser").hidden = true; playMove(m.text); });
    box.appendChild(b);
  }
  $("chooser").hidden = false;
}

async function playMove(text) {
  state.selected = null;
  try { showGame(await api("POST", gamePath("move"), { move: text })); }
  catch (e) { showError(e.message); }
}

/// The open game's route (its `action`, or the game itself), asking only for the moves not yet here.
function gamePath(action) {
  const g = state.game;
  return `/api/games/${g.id}${action ? "/" + action : ""}?since=${g.moves.length}`;
}

/// A game's answer with the moves it left out (those this page has) put back.
function withKnownMoves(game) {
  const known = state.game;
  if (game.moves_from > 0 && known && known.id === game.id) {
    game.moves = known.moves.slice(0, game.moves_from).concat(game.moves);
    game.move_labels = known.move_labels.slice(0, game.moves_from).concat(game.move_labels);
    game.moves_from = 0;
  }
  return game;
}

function showGame(answer) {
  const game = withKnownMoves(answer);
  state.game = game;
  state.view = game;
  showError(game.error);
  drawBoard(game);
  showMoves(game.move_labels);
  const names = game.sides;
  let status;
  if (game.resigned) status = `You resigned: ${names[1 - game.human]} win.`;
  else if (game.outcome) status = `Game over: ${game.outcome}.`;
  else if (game.thinking) status = `${names[1 - game.human]} (${game.agent}) is thinking…`;
  else if (game.to_move === game.human) status = `Your move (${names[game.human]}).`;
  else status = `${names[game.to_move]} to move.`;
  if (game.saved_as !== null && game.saved_as !== undefined) status += ` Saved as game ${game.saved_as} of played.jsonl.`;
  $("status").textContent = status;
  const bar = $("thinking");
  bar.hidden = !game.thinking;
  if (game.thinking) {
    bar.max = Math.max(1, game.thinking.planned);
    bar.value = game.thinking.done;
  }
  const notes = [];
  if (game.note) notes.push(`Agent: ${game.note}`);
  if (game.open_games >= game.max_open_games && !game.outcome) {
    notes.push(`The server is full (${game.max_open_games} games open): a new game anywhere closes the least recently used idle one, which may be this.`);
  }
  $("agent-note").textContent = notes.join(" ");
  $("undo").disabled = game.moves.length === 0;
  $("resign").disabled = Boolean(game.outcome || game.resigned);
  clearTimeout(state.poll);
  if (game.thinking) state.poll = setTimeout(refreshGame, 250);
}

async function refreshGame() {
  if (!state.game || state.mode !== "play") return;
  try { showGame(await api("GET", gamePath())); }
  catch (e) { showError(e.message); }
}

function showMoves(moves) {
  const list = $("moves");
  list.replaceChildren();
  for (const m of moves) {
    const li = document.createElement("li");
    li.textContent = m;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

// ---------- new game ----------

function currentRuleset() {
  return state.rulesets.find((r) => r.name === $("ruleset").value);
}

function showRuleset() {
  const r = currentRuleset();
  $("summary").textContent = r.summary;
  const box = $("options");
  box.replaceChildren();
  for (const o of r.options) {
    const label = document.createElement("label");
    label.textContent = `${o.key} `;
    label.title = o.meaning;
    let input;
    if (o.values.includes("|")) {
      input = document.createElement("select");
      for (const v of o.values.split("|")) {
        const opt = document.createElement("option");
        opt.value = opt.textContent = v;
        input.appendChild(opt);
      }
      input.value = o.default;
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.placeholder = `${o.default} (${o.values})`;
    }
    input.id = `option-${o.key}`;
    input.dataset.key = o.key;
    input.dataset.default = o.default;
    label.appendChild(input);
    box.appendChild(label);
  }
  const side = $("side");
  side.replaceChildren();
  const first = document.createElement("option");
  first.value = "";
  first.textContent = "the side that moves first";
  side.appendChild(first);
  for (const s of r.sides) {
    const opt = document.createElement("option");
    opt.value = opt.textContent = s;
    side.appendChild(opt);
  }
  $("agent").placeholder = r.agent;
  return preview();
}

/// The chosen ruleset's start position, shown when the ruleset or its options change; an open game
/// waits until it is shown again (New game, or back from Replay).
async function preview() {
  state.selected = null;
  clearTimeout(state.poll);
  try {
    const spec = chosenSpec();
    const view = await api("POST", "/api/position", { spec });
    // A later choice (or the Replay tab) has taken the board meanwhile.
    if (state.mode !== "play" || spec !== chosenSpec()) return;
    state.view = view;
    showError("");
    drawBoard(view);
    showMoves([]);
    $("thinking").hidden = true;
    $("status").textContent = `Press New game to play ${view.spec}.`;
  } catch (e) { showError(e.message); }
}

function chosenSpec() {
  const r = currentRuleset();
  const options = [];
  for (const input of $("options").querySelectorAll("[data-key]")) {
    const value = input.value.trim();
    if (value && value !== input.dataset.default) options.push(`${input.dataset.key}=${value}`);
  }
  return options.length ? `${r.name}:${options.join(",")}` : r.name;
}

async function newGame() {
  showError("");
  state.selected = null;
  const body = { spec: chosenSpec() };
  if ($("side").value) body.side = $("side").value;
  if ($("agent").value.trim()) body.agent = $("agent").value.trim();
  const old = state.game;
  try {
    $("status").textContent = "Opening the game…";
    showGame(await api("POST", "/api/games", body));
    $("analysis").replaceChildren();
    if (old) api("DELETE", `/api/games/${old.id}`).catch(() => {});
  } catch (e) { showError(e.message); $("status").textContent = ""; }
}

async function gameAction(action) {
  if (!state.game) return;
  state.selected = null;
  try { showGame(await api("POST", gamePath(action))); }
  catch (e) { showError(e.message); }
}

// ---------- replay ----------

async function loadRecords() {
  const query = new URLSearchParams();
  if ($("filter-file").value) query.set("file", $("filter-file").value);
  if ($("filter-group").value) query.set("cell", $("filter-group").value);
  if ($("filter-result").value) query.set("result", $("filter-result").value);
  // The games of the family being played (or chosen) come first.
  query.set("prefer", state.game ? state.game.spec : chosenSpec());
  try {
    const data = await api("GET", `/api/records?${query}`);
    const file = $("filter-file");
    if (file.options.length === 1) {
      data.files.forEach((f, i) => {
        const opt = document.createElement("option");
        opt.value = i;
        opt.textContent = f.split("/").slice(-2).join("/");
        file.appendChild(opt);
      });
    }
    const group = $("filter-group");
    const chosen = group.value;
    group.replaceChildren();
    for (const g of ["", ...data.groups]) {
      const opt = document.createElement("option");
      opt.value = g;
      opt.textContent = g || "any";
      group.appendChild(opt);
    }
    group.value = data.groups.includes(chosen) ? chosen : "";
    $("records-count").textContent = data.total === 0
      ? "No games: start the server with --games FILE (a match's or a study's games.jsonl)."
      : `${data.total} games${data.total > data.records.length ? `, the first ${data.records.length} listed` : ""}`;
    const list = $("records");
    list.replaceChildren();
    for (const r of data.records) {
      const li = document.createElement("li");
      li.dataset.id = r.id;
      li.textContent = `${r.group} — ${r.winner ? `${r.winner} win` : "draw"} by ${r.reason}, ${r.plies} plies`;
      li.addEventListener("click", () => openRecord(r.id));
      list.appendChild(li);
    }
    updateResultFilter();
  } catch (e) { showError(e.message); }
}

function updateResultFilter() {
  const select = $("filter-result");
  if (select.options.length > 1) return;
  const sides = new Set();
  for (const r of state.rulesets) r.sides.forEach((s) => sides.add(s));
  for (const s of [...sides, "draw"]) {
    const opt = document.createElement("option");
    opt.value = s;
    opt.textContent = s === "draw" ? "draws" : `${s} wins`;
    select.appendChild(opt);
  }
}

async function openRecord(id) {
  try {
    state.record = await api("GET", `/api/records/${id}`);
    for (const li of $("records").children) li.classList.toggle("current", li.dataset.id === String(id));
    await showPly(0);
  } catch (e) { showError(e.message); }
}

async function showPly(ply) {
  const r = state.record;
  if (!r) return;
  state.ply = Math.max(0, Math.min(ply, r.moves.length));
  try {
    const view = await api("POST", "/api/position", { spec: r.spec, start: r.start, moves: r.moves.slice(0, state.ply) });
    state.view = view;
    showError("");
    drawBoard(view);
    showMoves(view.move_labels);
    const result = r.winner ? `${r.winner} win by ${r.reason}` : `draw by ${r.reason}`;
    $("ply").textContent = `Move ${state.ply} of ${r.moves.length} (${result}); ${r.spec}`;
    $("status").textContent = view.outcome ? `Game over: ${view.outcome}.` : `${view.sides[view.to_move]} to move.`;
  } catch (e) { showError(e.message); }
}

// ---------- analysis ----------

async function analyse() {
  const v = state.view;
  if (!v) return;
  const box = $("analysis");
  box.textContent = "Analysing…";
  const body = { spec: v.spec, moves: v.moves };
  if (state.mode === "replay" && state.record) body.start = state.record.start;
  try {
    const a = await api("POST", "/api/analyse", body);
    box.replaceChildren();
    const p = (text) => { const e = document.createElement("p"); e.className = "small"; e.textContent = text; box.appendChild(e); return e; };
    p(`${a.agent}, ${a.simulations} simulations, for ${v.sides[v.to_move]}`);
    if (a.network) {
      const w = a.network;
      p(`Network: win ${(100 * w.win).toFixed(1)}%, draw ${(100 * w.draw).toFixed(1)}%, loss ${(100 * w.loss).toFixed(1)}%`);
      const bar = document.createElement("div");
      bar.className = "wdl";
      for (const [share, colour] of [[w.win, "#43a047"], [w.draw, "#bdbdbd"], [w.loss, "#e53935"]]) {
        const d = document.createElement("div");
        d.style.width = `${100 * share}%`;
        d.style.background = colour;
        bar.appendChild(d);
      }
      box.appendChild(bar);
    }
    if (a.value !== null) p(`Search value ${a.value.toFixed(2)} (−1 loss … +1 win)`);
    if (a.top.length) box.appendChild(table(["move", "visits", "value"], a.top.map((m) => [m.move, m.visits, m.value === null ? "" : m.value.toFixed(2)]), "top-moves"));
    if (a.table) box.appendChild(table(["move", "exact value"], a.table.map((m) => [m.move, m.verdict]), "table-moves"));
    if (a.table_note) p(a.table_note);
  } catch (e) { box.textContent = ""; showError(e.message); }
}

function table(head, rows, id) {
  const t = document.createElement("table");
  t.id = id;
  const tr = t.insertRow();
  for (const h of head) { const th = document.createElement("th"); th.textContent = h; tr.appendChild(th); }
  for (const row of rows) {
    const r = t.insertRow();
    for (const cell of row) r.insertCell().textContent = cell;
  }
  return t;
}

// ---------- tabs and start ----------

function setMode(mode) {
  state.mode = mode;
  state.selected = null;
  $("tab-play").classList.toggle("active", mode === "play");
  $("tab-replay").classList.toggle("active", mode === "replay");
  $("play-panel").hidden = mode !== "play";
  $("replay-panel").hidden = mode !== "replay";
  $("game-controls").hidden = mode !== "play";
  $("replay-controls").hidden = mode !== "replay";
  $("thinking").hidden = true;
  $("chooser").hidden = true;
  $("analysis").replaceChildren();
  clearTimeout(state.poll);
  if (mode === "replay") {
    loadRecords();
    if (state.record) showPly(state.ply);
    else {
      state.view = null;
      drawBoard(null);
      showMoves([]);
      $("status").textContent = "Choose a recorded game.";
    }
  } else if (state.game) {
    refreshGame();
  } else {
    preview();
  }
}

async function start() {
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("tab-replay").addEventListener("click", () => setMode("replay"));
  $("ruleset").addEventListener("change", showRuleset);
  $("options").addEventListener("change", preview);
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", () => gameAction("undo"));
  $("resign").addEventListener("click", () => gameAction("resign"));
  $("analyse").addEventListener("click", analyse);
  $("filter-file").addEventListener("change", () => { $("filter-group").value = ""; loadRecords(); });
  $("filter-group").addEventListener("change", loadRecords);
  $("filter-result").addEventListener("change", loadRecords);
  $("first").addEventListener("click", () => showPly(0));
  $("prev").addEventListener("click", () => showPly(state.ply - 1));
  $("next").addEventListener("click", () => showPly(state.ply + 1));
  $("last").addEventListener("click", () => showPly(Infinity));
  try {
    state.rulesets = await api("GET", "/api/rulesets");
    const select = $("ruleset");
    for (const r of state.rulesets) {
      const opt = document.createElement("option");
      opt.value = r.name;
      opt.textContent = r.label || r.name;
      select.appendChild(opt);
    }
    // Ready once the first ruleset's start is drawn: a screenshot taken then shows a board.
    await showRuleset();
    document.body.dataset.ready = "true";
  } catch (e) { showError(e.message); }
}

start();
