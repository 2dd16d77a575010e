// The Qwixx page: advice for a roll (GET /api/v1/qwixx/advise, the answer of `qwixx advise
// --json`), and a tracker for a game at a real table (POST /api/v1/qwixx/track). The page holds
// no rule of the game: every mark is checked by the server, which refuses an illegal one with
// the rule's reason, and the game lives in the browser as the text of `qwixx track`'s save file
// (localStorage), which is also what Export downloads and Import reads.
import {element, getJSON, postJSON} from "./api.js";

const COLOURS = ["red", "yellow", "green", "blue"];
const range = (from, to) => Array.from({length: Math.abs(to - from) + 1},
                                       (_, i) => from < to ? from + i : from - i);
// the printed layout of a sheet (drawing only: which boxes are legal is the server's to say)
const ROW_NUMBERS = {red: range(2, 12), yellow: range(2, 12), green: range(12, 2), blue: range(12, 2)};
const DIE_NAMES = ["white", "white", "red", "yellow", "green", "blue"];
const STORAGE = "qwixx-track-save";
const $ = (id) => document.getElementById(id);

// -- dice ------------------------------------------------------------------------------------
function diceInputs(container, label) {
  const selects = DIE_NAMES.map((name, index) => {
    const select = element("select", {class: `die die-${name}`,
                                      "aria-label": `${label} ${index < 2 ? `white die ${index + 1}` : `${name} die`}`},
                           ...[1, 2, 3, 4, 5, 6].map((n) => element("option", {value: n}, n)));
    return select;
  });
  container.replaceChildren(...selects);
  return {
    selects,
    // the roll as `qwixx track` reads it ('-' for the die of a closed row)
    text: () => selects.map((s) => s.disabled ? "-" : s.value).join(","),
    // the roll as `qwixx advise` reads it (a closed row's die, never used, as 1)
    adviseText: () => selects.map((s) => s.disabled ? "1" : s.value).join(","),
    values: () => selects.map((s) => s.disabled ? null : Number(s.value)),
    set(values) { values.forEach((v, i) => { if (v) selects[i].value = String(v); }); },
    close(closed) {
      selects.forEach((select, index) => {
        const off = index >= 2 && closed.includes(DIE_NAMES[index]);
        select.disabled = off;
        select.title = off ? `${DIE_NAMES[index]} is closed: its die has left the game` : "";
      });
    },
  };
}

// -- sheets ----------------------------------------------------------------------------------
function readSheet(text) {
  // SPEC sheet notation, as the server writes it, for drawing
  const sheet = {rows: {red: [], yellow: [], green: [], blue: []}, penalties: 0, closed: []};
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const [key, value] = token.split(":");
    const items = value ? value.split(",").filter(Boolean) : [];
    if (key in sheet.rows) sheet.rows[key] = items.map(Number);
    else if (key === "penalties") sheet.penalties = Number(items[0] || 0);
    else if (key === "closed") sheet.closed = items;
  }
  return sheet;
}

function drawSheet(name, text, score, classes = "") {
  const sheet = readSheet(text);
  const rows = COLOURS.map((colour) => {
    const marks = sheet.rows[colour];
    const locked = marks.length > 0 && marks[marks.length - 1] === ROW_NUMBERS[colour][10];
    const cells = ROW_NUMBERS[colour].map((number) => element(
      "span", {class: "box" + (marks.includes(number) ? " marked" : "")}, number));
    cells.push(element("span", {class: "box lock" + (locked ? " marked" : ""),
                                title: "lock"}, "lock"));
    return element("div", {class: `sheet-row row-${colour}` +
                                  (sheet.closed.includes(colour) ? " closed" : ""),
                           "aria-label": `${colour}: ${marks.join(", ") || "no marks"}`}, cells);
  });
  const penalties = element("div", {class: "penalties"}, "penalties ",
    ...[0, 1, 2, 3].map((i) => element("span", {class: "box" + (i < sheet.penalties ? " marked" : "")},
                                       i < sheet.penalties ? "\u2715" : "")));
  return element("div", {class: "sheet " + classes},
                 element("div", {class: "sheet-head"}, element("strong", {}, name),
                         element("span", {class: "score"}, `${score} points`)),
                 rows, penalties);
}

// -- advice ----------------------------------------------------------------------------------
const advice = {dice: null, ticket: 0};

function adviceSheetInputs() {
  const players = Number($("advice-players").value);
  const box = $("advice-sheets");
  const old = [...box.querySelectorAll("input")].map((input) => input.value);
  box.replaceChildren(...range(0, players - 1).map((index) => element("label", {class: "sheet-input"},
    element("span", {}, index === 0 ? "You" : `Opponent ${index}`),
    element("input", {id: `advice-sheet-${index}`, spellcheck: "false", autocomplete: "off",
                      value: old[index] ?? "", placeholder: "red: yellow: green: blue: (empty)"}))));
  const roller = $("advice-roller");
  const chosen = roller.value;
  roller.replaceChildren(element("option", {value: "0"}, "you"),
                         ...range(1, players - 1).filter(() => players > 1).map(
                           (k) => element("option", {value: String(k)}, `opponent ${k}`)));
  if (Number(chosen) < players) roller.value = chosen;
}

function optionText(entry, dice, active) {
  const total = dice[0] + dice[1];
  const parts = [];
  if (entry.white) parts.push(`${total} in ${entry.white}`);
  if (entry.colour) parts.push(`${entry.colour.number} in ${entry.colour.row}`);
  if (!parts.length) return active ? "no mark: a penalty" : "no mark";
  return parts.join(", then ");
}

const percent = (x) => `${(100 * x).toFixed(1)}%`;

// With opponents the model's ranking comes at once (rollouts=0), then the chances measured
// by 1,000 games played on per option, which take seconds (a minute for 5 players).
async function adviseNow(event) {
  event?.preventDefault();
  const ticket = ++advice.ticket;
  const players = Number($("advice-players").value);
  const sheets = range(0, players - 1).map((i) => $(`advice-sheet-${i}`).value.trim());
  const roller = Number($("advice-roller").value);
  const query = new URLSearchParams({sheet: sheets[0], dice: advice.dice.adviseText(),
                                     lock_after: $("advice-lock").value});
  if (players > 1) {
    query.set("opponents", sheets.slice(1).join(";"));
    query.set("judge", $("advice-judge").value);
  }
  if (roller > 0) { query.set("passive", "1"); query.set("roller", String(roller)); }
  $("advice-error").textContent = "";
  $("advice").replaceChildren();
  $("advice-note").textContent = "\u2026";
  const ask = async (extra) => {
    const {ok, data} = await getJSON(`/api/v1/qwixx/advise?${query}${extra}`);
    if (ticket !== advice.ticket) return false;
    if (!ok) {
      $("advice-note").textContent = "";
      $("advice-error").textContent = data.error;
      return false;
    }
    showAdvice(data);
    return true;
  };
  try {
    if (players > 1 && await ask("&rollouts=0")) {
      $("advice-note").textContent += " Measuring each option's chance in 1,000 games played on\u2026";
      await ask("");
    } else if (players === 1) {
      await ask("");
    }
  } catch (error) {
    if (ticket !== advice.ticket) return;
    $("advice-note").textContent = "";
    $("advice-error").textContent = `the server cannot be reached (${error.message})`;
  }
}

function showAdvice(answer) {
  const dice = answer.dice.split(",").map(Number);
  const versus = answer.opponents !== undefined;
  $("advice-note").textContent = !versus
    ? "Best first by the expected final score of optimal single-player play."
    : answer.rollouts
    ? `Best first by the chance of winning measured in ${answer.rollouts.toLocaleString("en")} games ` +
      "played on per option (everyone playing the \u201cwin\u201d strategy), \u00b1 its standard " +
      "error; the race model's estimate and the single-player optimum's expected final score beside."
    : `Best first by ${$("advice-judge").selectedOptions[0].dataset.ranking}; the single-player ` +
      "optimum's expected final score beside.";
  $("advice").dataset.rollouts = versus ? String(answer.rollouts) : "solo";
  $("advice").replaceChildren(...answer.options.map((entry, index) => {
    const figures = [];
    if (versus) {
      if (entry.measured_win_chance !== undefined) {
        figures.push(element("span", {class: "chance"},
                             `win ${percent(entry.measured_win_chance)} \u00b1${(100 * entry.standard_error).toFixed(1)}`));
      }
      figures.push(element("span", {class: "model"}, `model ${percent(entry.win_chance)}`));
    }
    figures.push(element("span", {class: "expected"}, `expected ${entry.expected_score.toFixed(2)}`));
    return element("li", {class: index === 0 ? "best" : ""},
                   element("span", {class: "option"}, optionText(entry, dice, answer.active)),
                   element("span", {class: "figures"}, figures));
  }));
}

// -- the tracker -----------------------------------------------------------------------------
const tracker = {game: null, dice: null, first: [], second: null, checking: 0};

function storeGame(game) {
  tracker.game = game;
  try { localStorage.setItem(STORAGE, game.save); } catch { /* private mode: not kept */ }
}

async function trackRequest(body) {
  try {
    return await postJSON("/api/v1/qwixx/track", body);
  } catch (error) {
    return {ok: false, data: {error: `the server cannot be reached (${error.message})`}};
  }
}

async function adopt(body, errorBox = "track-error") {
  const {ok, data} = await trackRequest(body);
  $(errorBox).textContent = ok ? "" : data.error;
  if (ok) {
    storeGame(data);
    startTurn();
    drawTracker(data.report);
  }
  return ok;
}

function meOptions() {
  const players = Number($("track-players").value);
  const me = $("track-me");
  const chosen = me.value;
  me.replaceChildren(element("option", {value: ""}, "not playing"),
                     ...range(1, players).map((seat) => element("option", {value: seat}, `player ${seat}`)));
  me.value = chosen === "" && !me.dataset.set ? "1" : Number(chosen) <= players ? chosen : "1";
  me.dataset.set = "1";
}

function startTurn() {
  const game = tracker.game;
  tracker.first = Array(game.players).fill(null);
  tracker.second = null;
  tracker.dice.close(game.closed);
  $("turn-error").textContent = "";
}

function currentTurn() {
  return {dice: tracker.dice.text(), first: [...tracker.first], second: tracker.second};
}

function drawTracker(report) {
  const game = tracker.game;
  $("track-status").textContent = game.over ? game.final
    : `Turn ${game.turns + 1}: ${game.names[game.active - 1]} rolls` +
      (game.closed.length ? ` \u00b7 closed: ${game.closed.join(", ")}` : "") +
      ` \u00b7 lock after ${game.lock_after} marks`;
  $("track-standings").textContent = game.over ? "" : game.standings;
  $("track-sheets").replaceChildren(...game.sheets.map((text, seat) => drawSheet(
    game.names[seat], text, game.scores[seat],
    (seat + 1 === game.active && !game.over ? "active" : "") +
    (game.winners.includes(seat + 1) ? " winner" : ""))));
  $("turn-form").hidden = game.over;
  $("advise-me").hidden = game.me === null;
  $("turn-title").textContent = `Turn ${game.turns + 1}: ${game.names[game.active - 1]} rolled`;
  drawChoices();
  $("track-history").replaceChildren(...game.history.map((turn, index) => {
    const total = turn.dice.split(",").slice(0, 2).map(Number).reduce((a, b) => a + b);
    const marks = turn.first.map((row, seat) => {
      const parts = row ? [`${total} in ${row}`] : [];
      if (seat + 1 === turn.player && turn.second) parts.push(`${turn.second[1]} in ${turn.second[0]}`);
      if (seat + 1 === turn.player && turn.penalty) parts.push("a penalty");
      return `${game.names[seat]}: ${parts.join(", ") || "no mark"}`;
    });
    return element("li", {}, `${game.names[turn.player - 1]} rolled ${turn.dice} \u2014 ${marks.join("; ")}`);
  }).reverse());
  $("track-undo").disabled = game.turns === 0;
  if (report?.length) $("track-status").title = report.join("\n");
}

function drawChoices() {
  const game = tracker.game;
  $("first-actions").replaceChildren(element("p", {class: "legend"},
    `Action 1: who marks the white sum ${whiteSum() ?? ""} in which row`),
    ...range(0, game.players - 1).map((seat) => element("div", {class: "choice-row"},
      element("span", {class: "who"}, game.names[seat]),
      element("div", {class: "segmented", role: "group", "aria-label": `${game.names[seat]} action 1`},
        [null, ...COLOURS].map((row) => element("button", {
          type: "button", class: `choice row-${row ?? "none"}` + (tracker.first[seat] === row ? " chosen" : ""),
          "aria-pressed": String(tracker.first[seat] === row), "data-seat": seat, "data-row": row ?? "-",
          title: row ? `${game.names[seat]} marks the white sum in ${row}` : "no mark",
          onclick: () => chooseFirst(seat, row)}, row ? row[0].toUpperCase() : "\u2013"))))));
  const values = tracker.dice.values();
  const options = [element("option", {value: ""}, "no mark")];
  for (const [index, colour] of COLOURS.entries()) {
    const die = values[index + 2];
    if (die === null) continue;
    for (const sum of [...new Set([values[0] + die, values[1] + die])]) {
      options.push(element("option", {value: `${colour} ${sum}`}, `${sum} in ${colour}`));
    }
  }
  const select = element("select", {id: "second-choice", onchange: (event) => chooseSecond(event.target.value)},
                         options);
  select.value = tracker.second ? `${tracker.second[0]} ${tracker.second[1]}` : "";
  $("second-action").replaceChildren(element("label", {},
    `Action 2 (${game.names[game.active - 1]}): a white die + a coloured die `, select));
}

function whiteSum() {
  const values = tracker.dice.values();
  return values[0] + values[1];
}

// A change to the turn being entered: checked by the server at once; a refused mark is not
// taken (the reason is shown), as `qwixx track` refuses a line and asks again.
async function checkChange(apply, undo) {
  apply();
  drawChoices();
  const ticket = ++tracker.checking;
  const {ok, data} = await trackRequest({save: tracker.game.save, turn: currentTurn(), check: true});
  if (ticket !== tracker.checking) return;
  if (ok) {
    $("turn-error").textContent = "";
    $("turn-preview").textContent = data.report ? data.report.join(" \u00b7 ") : "";
  } else {
    undo();
    drawChoices();
    $("turn-error").textContent = data.error;
  }
}

function chooseFirst(seat, row) {
  const before = tracker.first[seat];
  checkChange(() => { tracker.first[seat] = row; }, () => { tracker.first[seat] = before; });
}

function chooseSecond(value) {
  const before = tracker.second;
  const [row, number] = value ? value.split(" ") : [];
  checkChange(() => { tracker.second = value ? [row, Number(number)] : null; },
              () => { tracker.second = before; });
}

async function playTurn(event) {
  event.preventDefault();
  $("play-turn").disabled = true;
  try {
    const {ok, data} = await trackRequest({save: tracker.game.save, turn: currentTurn()});
    if (!ok) { $("turn-error").textContent = data.error; return; }
    storeGame(data);
    startTurn();
    drawTracker(data.report);
    $("turn-preview").textContent = data.report.join(" \u00b7 ");
  } finally {
    $("play-turn").disabled = false;
  }
}

function exportGame() {
  const blob = new Blob([tracker.game.save], {type: "application/json"});
  const link = element("a", {href: URL.createObjectURL(blob), download: "qwixx-game.json"});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function importGame(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = "";
  await adopt({save: text});
}

function adviseMe() {
  const game = tracker.game;
  const me = game.me - 1;
  const order = range(0, game.players - 1).map((k) => (me + k) % game.players);
  $("advice-players").value = String(game.players);
  adviceSheetInputs();
  order.forEach((seat, index) => { $(`advice-sheet-${index}`).value = game.sheets[seat]; });
  $("advice-lock").value = String(game.lock_after);
  $("advice-roller").value = String((game.active - 1 - me + game.players) % game.players);
  advice.dice.close([]);
  advice.dice.set(tracker.dice.values().map((v) => v ?? 1));
  $("advice-title").scrollIntoView();
  adviseNow();
}

// -- start -----------------------------------------------------------------------------------
async function start() {
  advice.dice = diceInputs($("advice-dice"), "advice");
  advice.dice.set([3, 4, 6, 1, 2, 5]);
  adviceSheetInputs();
  $("advice-players").addEventListener("change", adviceSheetInputs);
  $("advice-form").addEventListener("submit", adviseNow);

  tracker.dice = diceInputs($("track-dice"), "turn");
  for (const select of tracker.dice.selects) {
    select.addEventListener("change", () => {
      const before = [...tracker.first], second = tracker.second;
      checkChange(() => { tracker.first.fill(null); tracker.second = null; },
                  () => { tracker.first = before; tracker.second = second; });
    });
  }
  $("second-action").after(element("p", {id: "turn-preview", class: "muted preview", "aria-live": "polite"}));
  meOptions();
  $("track-players").addEventListener("change", meOptions);
  $("new-track").addEventListener("submit", (event) => {
    event.preventDefault();
    const me = $("track-me").value;
    adopt({new: {players: Number($("track-players").value), lock_after: Number($("track-lock").value),
                 me: me ? Number(me) : null}});
  });
  $("turn-form").addEventListener("submit", playTurn);
  $("track-undo").addEventListener("click", () => adopt({save: tracker.game.save, undo: true}));
  $("track-export").addEventListener("click", exportGame);
  $("track-import").addEventListener("change", importGame);
  $("advise-me").addEventListener("click", adviseMe);

  let saved = null;
  try { saved = localStorage.getItem(STORAGE); } catch { saved = null; }
  if (!(saved && await adopt({save: saved}))) {
    const refused = $("track-error").textContent;
    await adopt({new: {players: 2, lock_after: 5, me: 1}});
    if (refused) $("track-error").textContent = `the saved game cannot be read (${refused}): a new game is started`;
  }
  document.body.dataset.ready = "1";
}

start();
