// The Quixo page: a line of positions (undo, redo, jump), every legal move with its exact value,
// the verdict and where it came from, the line of perfect play to the end (copied as moves,
// opened as a URL), the value history, symmetries, a position box, the best move, and games
// against the engine on a clock. The rules live on the server: the position
// API gives each position's cells, legal moves and the positions they lead to.

import {element, getJSON, streamEvents} from "./api.js";
import {drawBoard, parseMove} from "./quixo-board.js";
import {drawChart} from "./quixo-chart.js";

const $ = (id) => document.getElementById(id);
const EMPTY = {3: "...", 4: "....", 5: "....."};
const OPPOSITE = {win: "loss", loss: "win", draw: "draw", unknown: "unknown"};

const state = {
  line: [],               // the positions of the line, line[0] its start
  moves: [],              // moves[i] leads from line[i] to line[i + 1]
  index: 0,               // the position shown
  info: new Map(),        // position -> the position API's answer
  mainlines: new Map(),   // position -> the mainline API's answer ({ok, status, data})
  results: new Map(),     // position -> {iteration, solve, analyze, error, done}
  selected: null,
  hover: null,
  search: null,           // the AbortController of the running live search
  engine: null,           // the game against the engine, when one is on
};

export const quixo = state;     // for the browser tests and the console

function urlPosition(position) {
  return position.replaceAll(" ", "_");
}

function emptyBoard(size, players) {
  return Array(size).fill(EMPTY[size]).join("/") + (players === 4 ? " X1" : " X");
}

function current() {
  return state.line[state.index];
}

async function positionInfo(position) {
  if (state.info.has(position)) return {ok: true, data: state.info.get(position)};
  const answer = await getJSON(`/api/v1/quixo/position?position=${encodeURIComponent(position)}`);
  if (answer.ok) {
    state.info.set(answer.data.position, answer.data);
    state.info.set(position, answer.data);
  }
  return answer;
}

// -- the URL: /quixo/<position>?from=<start>&moves=m1,m2 reproduces the line up to the position;
// /quixo/<position>?line=m1,m2 shows the position with the moves ahead (a line of perfect play)
function writeUrl(push) {
  let url = `/quixo/${urlPosition(current())}`;
  if (state.index > 0) {
    url += `?from=${encodeURIComponent(urlPosition(state.line[0]))}` +
           `&moves=${encodeURIComponent(state.moves.slice(0, state.index).join(","))}`;
  }
  if (url !== location.pathname + location.search) {
    history[push ? "pushState" : "replaceState"]({}, "", url);
  }
}

function readUrl() {
  const path = decodeURIComponent(location.pathname.replace(/^\/quixo\/?/, ""));
  const query = new URLSearchParams(location.search);
  const list = (name) => (query.get(name) || "").split(",").filter(Boolean);
  return {position: path ? path.replaceAll("_", " ") : emptyBoard(5, 2),
          from: query.get("from")?.replaceAll("_", " "),
          moves: list("moves"), ahead: list("line")};
}

// -- showing a position -------------------------------------------------------------------
async function show(index, {push = true} = {}) {
  state.index = index;
  state.selected = null;
  state.hover = null;
  const position = current();
  const answer = await positionInfo(position);
  if (!answer.ok) {
    $("position-error").textContent = answer.data.error;
    return;
  }
  render();
  writeUrl(push);
  analyse(position);
  showMainline(position);
}

function render() {
  const info = state.info.get(current());
  if (!info) return;
  const result = state.results.get(info.position);
  const values = !state.engine || $("engine-values").checked;
  renderBoard(info);
  renderVerdict(info, values ? result : null);
  renderMoves(info, values ? result : null);
  renderLine();
  renderChart(values);
  $("position-input").value = info.position;
  $("undo").disabled = state.index === 0;
  $("redo").disabled = state.index >= state.moves.length;
  $("pass").hidden = !info.moves.some((row) => row.move === "pass");
  $("best").disabled = info.game_over;
}

function legalFrom(info, square) {
  return info.moves.filter((row) => row.move !== "pass" && parseMove(row.move).source === square);
}

function renderBoard(info) {
  const sources = [...new Set(info.moves.filter((row) => row.move !== "pass")
                                        .map((row) => parseMove(row.move).source))];
  const targets = state.selected ? legalFrom(info, state.selected)
                                   .map((row) => parseMove(row.move).target) : [];
  const last = state.index > 0 ? parseMove(state.moves[state.index - 1]) : null;
  drawBoard($("board"), info, {
    selected: state.selected, targets, sources, hover: state.hover,
    lastMove: last && !last.pass ? last : null,
    onSquare: (square) => clickSquare(info, square)});
  if (!performance.getEntriesByName("board-drawn").length) performance.mark("board-drawn");
}

function clickSquare(info, square) {
  if (enginesTurn()) return;
  $("dot-choice").hidden = true;
  if (state.selected) {
    const rows = legalFrom(info, state.selected).filter((row) => parseMove(row.move).target === square);
    if (rows.length === 1) return play(rows[0].move);
    if (rows.length > 1) return chooseDot(info, rows);
  }
  state.selected = state.selected !== square && legalFrom(info, square).length ? square : null;
  renderBoard(info);
}

function chooseDot(info, rows) {
  rows = [...rows].sort((a, b) => Number(parseMove(a.move).toMate) - Number(parseMove(b.move).toMate));
  const mate = {X1: "X2", X2: "X1", O1: "O2", O2: "O1"}[info.turn];
  const box = $("dot-choice");
  box.replaceChildren(
    element("span", {}, "The dot points at: "),
    ...rows.map((row) => element("button", {type: "button", onclick: () => play(row.move)},
                                 parseMove(row.move).toMate ? `${mate} (${row.move})`
                                                            : `${info.turn} (${row.move})`)));
  box.hidden = false;
}

// -- playing ------------------------------------------------------------------------------
async function play(move) {
  const info = state.info.get(current());
  const row = info.moves.find((candidate) => candidate.move === move);
  if (!row) return;
  $("dot-choice").hidden = true;
  if (state.engine) state.engine.charge(info.turn);
  if (state.moves[state.index] !== move) {
    state.line = state.line.slice(0, state.index + 1).concat([row.position]);
    state.moves = state.moves.slice(0, state.index).concat([move]);
  }
  seedChild(info, move, row.position);
  await show(state.index + 1);
  if (state.engine) state.engine.next();
}

// A child's value follows from its parent's analysis: the move's value for the other side.
function seedChild(info, move, child) {
  const parent = state.results.get(info.position);
  const row = parent?.analyze?.moves.find((candidate) => candidate.move === move);
  if (!row || state.results.has(child) || row.value === "unknown") return;
  state.results.set(child, {seeded: {value: OPPOSITE[row.value],
                                     plies: row.plies === null ? null : row.plies - 1}});
}

function newLine(position) {
  stopEngine();
  state.line = [position];
  state.moves = [];
  return show(0);
}

// -- the live search of the shown position ---------------------------------------------------
function searchSeconds() {
  const seconds = Number($("search-time").value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 4;
}

function analyse(position) {
  const known = state.results.get(position);
  if (known && (known.done || known.running)) return;
  if (state.search) state.search.abort();
  if (enginesTurn() || (state.engine && !$("engine-values").checked)) return;
  const controller = new AbortController();
  state.search = controller;
  const result = {running: true, seeded: known?.solve ?? known?.seeded};
  state.results.set(position, result);
  const url = `/api/v1/quixo/live?position=${encodeURIComponent(position)}&analyze=1` +
              `&time=${searchSeconds()}`;
  const update = () => { if (current() === position) render(); };
  streamEvents(url, (name, data) => {
    if (name === "iteration") result.iteration = data;
    else if (name === "solve") result.solve = data;
    else if (name === "analyze") result.analyze = data;
    else if (name === "error") result.error = data.error;
    update();
  }, controller.signal).then((answer) => {
    result.running = false;
    if (answer.ok) {
      result.done = !result.error;
    } else {
      result.error = answer.data.error;
      if (answer.status === 503 && answer.retryAfter) {
        result.error += ` (trying again in ${answer.retryAfter} s)`;
        setTimeout(() => { if (current() === position) analyse(position); },
                   answer.retryAfter * 1000);
      }
    }
    update();
  }).catch(() => {
    // aborted: the page moved on and the server stopped the search; ask again on return
    if (!result.done) state.results.set(position, {seeded: result.seeded});
  });
}

// -- the verdict ------------------------------------------------------------------------------
function side(info) {
  return info.players === 4 ? `Team ${info.team}` : info.team;
}

function describe(info, answer) {
  const who = side(info);
  const plies = answer.plies ?? answer.plies_at_most;
  const within = answer.plies === null && answer.plies_at_most !== null ? "at most " : "";
  if (answer.value === "win") return `${who} wins in ${within}${plies} plies`;
  if (answer.value === "loss") return `${who} loses in ${within}${plies} plies`;
  if (answer.value === "draw") return "draw";
  return `unknown, searched to depth ${answer.depth}`;
}

function renderVerdict(info, result) {
  const verdict = $("verdict"), source = $("source");
  verdict.className = "verdict";
  if (info.game_over) {
    verdict.textContent = `${info.winner} has won: the game is over`;
    source.textContent = "a finished game";
    return;
  }
  if (!result) {
    verdict.textContent = `${side(info)} to move`;
    source.textContent = state.engine ? "values hidden during the game" : "";
    return;
  }
  const answer = result.solve;
  if (answer) {
    verdict.textContent = describe(info, answer);
    verdict.classList.add(`value-${answer.value}`);
    source.textContent = sourceText(answer);
  } else if (result.iteration) {
    verdict.textContent = `unknown, searched to depth ${result.iteration.depth}` +
                          (result.running ? " …" : "");
    verdict.classList.add("value-unknown");
    source.textContent = `searching: ${result.iteration.nodes.toLocaleString()} nodes, ` +
                         `best so far ${result.iteration.best_move}`;
  } else if (result.seeded) {
    verdict.textContent = describe(info, {...result.seeded, depth: 0});
    verdict.classList.add(`value-${result.seeded.value}`);
    source.textContent = "from the previous position's analysis";
  } else {
    verdict.textContent = `${side(info)} to move`;
    source.textContent = result.running ? "searching …" : "";
  }
  if (result.error) source.textContent = result.error;
}

function sourceText(answer) {
  if (answer.source === "tablebase") return "from the tablebase: exact";
  if (answer.source === "terminal") return "the game is over";
  if (answer.value !== "unknown") {
    const how = answer.proof_search && answer.proof_search.startsWith("proven")
      ? "proven by the proof search" : `proven by search to depth ${answer.depth}`;
    return `${how} (${answer.nodes.toLocaleString()} nodes, ${answer.seconds.toFixed(2)} s)`;
  }
  return `heuristic: the engine would play ${answer.best_move} ` +
         `(${answer.nodes.toLocaleString()} nodes, ${answer.seconds.toFixed(2)} s)`;
}

// -- the move list ----------------------------------------------------------------------------
function valueText(row) {
  if (row.value === "unknown") return "unknown";
  if (row.value === "draw") return "draw";
  return `${row.value} in ${row.plies}`;
}

function renderMoves(info, result) {
  const list = $("moves");
  const rows = result?.analyze?.moves ??
               info.moves.map((row) => ({move: row.move, value: null, plies: null}));
  $("moves-note").textContent = info.game_over ? "(the game is over)" :
    result?.analyze ? `(${rows.length}, best first)` :
    result?.running ? `(${rows.length}, analysing …)` : `(${rows.length})`;
  const exact = rows.length > 0 && rows.every((row) => row.value && row.value !== "unknown");
  list.replaceChildren(...rows.map((row) => element("li", {
      class: `move value-${row.value ?? "pending"}` +
             (exact && row.value === rows[0].value && row.plies === rows[0].plies ? " best" : ""),
      style: exact ? `--strength: ${strength(rows, row).toFixed(2)}` : "",
      onmouseenter: () => { state.hover = row.move; renderBoard(info); },
      onmouseleave: () => { state.hover = null; renderBoard(info); }},
    element("button", {type: "button", onclick: () => play(row.move),
                       disabled: enginesTurn()}, row.move),
    element("span", {class: "value"}, row.value ? valueText(row) : "…"))));
}

// How good a move is among the moves of its value, from 1 (the fastest win, the longest loss)
// down to 0.3 (the slowest win, the quickest loss); draws are all alike.
function strength(rows, row) {
  const plies = rows.filter((other) => other.value === row.value).map((other) => other.plies);
  const low = Math.min(...plies), high = Math.max(...plies);
  if (row.value === "draw" || high === low) return 1;
  const worse = row.value === "win" ? row.plies - low : high - row.plies;
  return 1 - 0.7 * worse / (high - low);
}

// -- the line of perfect play ------------------------------------------------------------------
async function mainlineOf(position) {
  if (!state.mainlines.has(position)) {
    state.mainlines.set(position, getJSON(
      `/api/v1/quixo/mainline?position=${encodeURIComponent(position)}`));
  }
  return state.mainlines.get(position);
}

async function showMainline(position) {
  const answer = await mainlineOf(position);
  if (current() !== position) return;
  const list = $("mainline"), note = $("mainline-note"), tools = $("mainline-tools");
  $("mainline-copied").textContent = "";
  if (!answer.ok) {
    list.replaceChildren();
    tools.hidden = true;
    note.textContent = answer.status === 404
      ? "(not known exactly here: the tables do not hold this position)" : `(${answer.data.error})`;
    return;
  }
  const line = answer.data;
  const info = state.info.get(position);
  if (!line.moves.length) {
    list.replaceChildren();
    tools.hidden = true;
    note.textContent = "(the game is over)";
    return;
  }
  // the value of each position of the line for its player to move: win and loss take turns
  let value = line.value;
  list.replaceChildren(...line.moves.map((move, index) => {
    const item = element("li", {class: `value-${value}`,
                                title: value === "draw" ? "a draw" : `${value} for the player to move`},
                         `${index + 1}. ${move}`);
    value = OPPOSITE[value];
    return item;
  }));
  note.textContent = line.value === "draw"
    ? `(a draw: ${line.moves.length} moves, until a position comes back)`
    : `(${describe(info, {...line, depth: 0})}${line.complete ? ", to the end" :
                                                   ", as far as the tables reach"})`;
  $("mainline-text").value = line.moves.join(" ");
  $("mainline-link").href = `/quixo/${urlPosition(position)}?line=${line.moves.join(",")}`;
  tools.hidden = false;
}

async function copyMainline() {
  const text = $("mainline-text").value;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    $("mainline-text").select();       // no clipboard for this page: the old way
    copied = document.execCommand("copy");
  }
  $("mainline-copied").textContent = copied ? "copied" : "selected: copy it with Ctrl+C";
}

async function followMainline() {
  const position = current();
  const answer = await mainlineOf(position);
  if (!answer.ok || current() !== position) return;
  const ahead = await walk(position, answer.data.moves);
  if (!ahead || current() !== position) return;
  state.line = state.line.slice(0, state.index).concat(ahead);
  state.moves = state.moves.slice(0, state.index).concat(answer.data.moves);
  render();
}

// The positions from `start` through each of the moves (null if one is not legal).
async function walk(start, moves) {
  const line = [start];
  for (const move of moves) {
    const answer = await positionInfo(line[line.length - 1]);
    const row = answer.ok && answer.data.moves.find((candidate) => candidate.move === move);
    if (!row) return null;
    line.push(row.position);
  }
  if (!(await positionInfo(line[line.length - 1])).ok) return null;
  return line.map((position) => state.info.get(position)?.position ?? position);
}

function renderLine() {
  const list = $("line");
  const items = [element("li", {class: state.index === 0 ? "current" : ""},
                         element("button", {type: "button", onclick: () => show(0)}, "start"))];
  state.moves.forEach((move, index) => items.push(element("li", {
      class: index + 1 === state.index ? "current" : index + 1 > state.index ? "ahead" : ""},
    element("button", {type: "button", onclick: () => show(index + 1)},
            `${index + 1}. ${move}`))));
  list.replaceChildren(...items);
}

function renderChart(values) {
  const entries = state.line.map((position) => {
    const info = state.info.get(position);
    const result = state.results.get(position);
    const answer = result?.solve ?? result?.seeded;
    if (!info || !answer || !values) return null;
    if (info.game_over) return null;
    return {value: answer.value, plies: answer.plies, plies_at_most: answer.plies_at_most,
            team: info.team};
  });
  drawChart($("chart"), entries, state.index, (index) => show(index));
}

// -- the game against the engine ------------------------------------------------------------
function enginesTurn() {
  const info = state.info.get(current());
  return Boolean(state.engine && info && !info.game_over && state.engine.plays(info));
}

class EngineGame {
  constructor(team, control) {
    this.team = team;
    this.control = control;
    const info = state.info.get(current());
    this.clocks = Object.fromEntries(info.player_names.map((name) => [name, control.seconds]));
    this.started = performance.now();
    this.over = null;
    this.timer = setInterval(() => this.tick(), 100);
    this.controller = null;
  }

  plays(info) { return info.team === this.team; }

  left(player) {
    const info = state.info.get(current());
    const running = !this.over && info && !info.game_over && info.turn === player;
    return this.clocks[player] - (running ? (performance.now() - this.started) / 1000 : 0);
  }

  // the player who just moved: their time is spent, the increment added
  charge(player) {
    this.clocks[player] = this.left(player) + this.control.increment;
    this.started = performance.now();
  }

  tick() {
    const info = state.info.get(current());
    if (!info || this.over) return;
    if (info.game_over) {
      this.finish(`${info.winner} wins`);
    } else if (this.left(info.turn) <= 0) {
      this.clocks[info.turn] = 0;
      this.finish(`${info.turn} loses on time`);
    }
    this.draw();
  }

  draw() {
    const info = state.info.get(current());
    const box = $("clocks");
    box.hidden = false;
    box.replaceChildren(...Object.keys(this.clocks).map((name) => element("span", {
      class: "clock" + (info && info.turn === name && !this.over ? " running" : "") +
             (name.startsWith(this.team) ? " engine" : "")},
      `${name} ${formatClock(Math.max(0, this.left(name)))}`)),
      this.over ? element("strong", {}, ` ${this.over}`) : "");
  }

  finish(text) {
    this.over = text;
    clearInterval(this.timer);
    if (this.controller) this.controller.abort();
    $("engine-stop").hidden = true;
    $("engine-start").hidden = false;
    render();
  }

  async next() {
    const info = state.info.get(current());
    this.draw();
    if (this.over || !info || info.game_over || !this.plays(info)) return;
    if (state.search) state.search.abort();
    const position = info.position;
    const controller = this.controller = new AbortController();
    const clock = `${Math.max(0.05, this.left(info.turn)).toFixed(2)}+${this.control.increment}`;
    let move = null;
    $("verdict").textContent = `the engine (${info.turn}) is thinking …`;
    try {
      const answer = await streamEvents(
        `/api/v1/quixo/live?position=${encodeURIComponent(position)}` +
        `&clock=${encodeURIComponent(clock)}`,
        (name, data) => { if (name === "solve") move = data.best_move; }, controller.signal);
      if (!answer.ok) { $("engine-error").textContent = answer.data.error; return; }
    } catch {
      return;     // the game was stopped, or the page moved on
    }
    if (move && current() === position && !this.over) await play(move);
  }

  stop() {
    clearInterval(this.timer);
    if (this.controller) this.controller.abort();
    $("clocks").hidden = true;
  }
}

function formatClock(seconds) {
  const tenths = Math.floor(seconds * 10);      // a clock shows the time it has left: down
  const minutes = Math.floor(tenths / 600);
  return `${minutes}:${((tenths - 600 * minutes) / 10).toFixed(1).padStart(4, "0")}`;
}

function stopEngine() {
  if (state.engine) state.engine.stop();
  state.engine = null;
  $("engine-stop").hidden = true;
  $("engine-start").hidden = false;
}

async function startEngine(event) {
  event.preventDefault();
  $("engine-error").textContent = "";
  const answer = await getJSON(`/api/v1/quixo/clock?clock=${encodeURIComponent($("engine-clock").value)}`);
  if (!answer.ok) {
    $("engine-error").textContent = answer.data.error;
    return;
  }
  stopEngine();
  state.engine = new EngineGame($("engine-side").value, answer.data);
  $("engine-stop").hidden = false;
  $("engine-start").hidden = true;
  render();
  state.engine.draw();
  state.engine.next();
}

// -- the controls ---------------------------------------------------------------------------
function symmetry(index) {
  const info = state.info.get(current());
  if (info) newLine(info.symmetries[index]);
}

function wire() {
  $("undo").addEventListener("click", () => {
    if (state.index > 0) { stopEngine(); show(state.index - 1); }
  });
  $("redo").addEventListener("click", () => {
    if (state.index < state.moves.length) show(state.index + 1);
  });
  $("best").addEventListener("click", playBest);
  $("pass").addEventListener("click", () => play("pass"));
  $("rotate-right").addEventListener("click", () => symmetry(1));
  $("rotate-left").addEventListener("click", () => symmetry(3));
  $("mirror-files").addEventListener("click", () => symmetry(4));
  $("mirror-ranks").addEventListener("click", () => symmetry(6));
  $("swap").addEventListener("click", () => newLine(state.info.get(current()).swapped));
  $("pass-turn").addEventListener("click", () => newLine(state.info.get(current()).turn_passed));
  $("position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("position-input").value.trim();
    const answer = await positionInfo(text);
    if (!answer.ok) {
      $("position-error").textContent = answer.data.error;
      $("position-input").setAttribute("aria-invalid", "true");
      return;
    }
    $("position-error").textContent = "";
    $("position-input").removeAttribute("aria-invalid");
    newLine(answer.data.position);
  });
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    newLine(emptyBoard(Number($("new-size").value), Number($("new-players").value)));
  });
  $("engine-form").addEventListener("submit", startEngine);
  $("engine-stop").addEventListener("click", () => { stopEngine(); render(); });
  $("engine-values").addEventListener("change", () => { render(); analyse(current()); });
  $("mainline-copy").addEventListener("click", copyMainline);
  $("mainline-follow").addEventListener("click", followMainline);
  window.addEventListener("popstate", () => load());
  // leaving the page ends its searches on the server at once (a page kept in the browser's
  // back-forward cache would otherwise keep its connections open)
  window.addEventListener("pagehide", () => {
    if (state.search) state.search.abort();
    if (state.engine) state.engine.stop();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") $("undo").click();
    if (event.key === "ArrowRight") $("redo").click();
  });
}

async function playBest() {
  const info = state.info.get(current());
  if (!info || info.game_over || enginesTurn()) return;
  const result = state.results.get(info.position);
  const best = result?.analyze?.moves[0]?.move ?? result?.solve?.best_move;
  if (best) return play(best);
  $("source").textContent = "searching for the best move …";
  if (state.search) state.search.abort();
  const controller = state.search = new AbortController();
  let move = null;
  try {
    await streamEvents(`/api/v1/quixo/live?position=${encodeURIComponent(info.position)}` +
                       `&time=${searchSeconds()}`,
                       (name, data) => { if (name === "solve") move = data.best_move; },
                       controller.signal);
  } catch {
    return;
  }
  if (move && current() === info.position) play(move);
}

// Rebuilds the line of the URL: its start, then each move (the positions come from the server).
async function load() {
  stopEngine();
  const wanted = readUrl();
  const first = await positionInfo(wanted.position);
  if (!first.ok) {
    $("position-error").textContent = first.data.error;
    $("position-input").value = wanted.position;
    state.line = [emptyBoard(5, 2)];
    state.moves = [];
    await show(0, {push: false});
    $("position-error").textContent = first.data.error;
    return;
  }
  state.line = [first.data.position];
  state.moves = [];
  state.index = 0;
  await show(0, {push: false});
  if (wanted.ahead.length) {
    const ahead = await walk(first.data.position, wanted.ahead);
    if (!ahead || current() !== first.data.position) return;
    state.line = ahead;
    state.moves = wanted.ahead;
    render();
    return;
  }
  if (!wanted.from || !wanted.moves.length) return;
  const line = await walk(wanted.from, wanted.moves);
  if (!line || line[line.length - 1] !== first.data.position) return;
  state.line = line;
  state.moves = wanted.moves;
  state.index = wanted.moves.length;
  render();
  fillHistory();
}

// The values of the line's earlier positions for the chart (tables answer at once).
async function fillHistory() {
  for (const position of state.line) {
    if (state.results.get(position)?.solve) continue;
    const answer = await getJSON(`/api/v1/quixo/solve?position=${encodeURIComponent(position)}&time=1`);
    if (answer.ok && !state.results.get(position)?.solve) {
      // a value for the chart; visiting the position still analyses its moves
      state.results.set(position, {...state.results.get(position), solve: answer.data});
      render();
    }
  }
}

wire();
load();
