// The Quixo board as SVG: cubes with their symbols (and, in the team game, the dot that points
// at a player), coordinates, the selected cube, the squares it can be pushed in at, the last
// move and a hovered move. Clicks report the square's name ("a1").

import {svgElement} from "./api.js";

const CELL = 64;
const MARGIN = 26;
// the team game's seats: X1 south, O1 west, X2 north, O2 east (team-mates face each other);
// a cube's dot sits on its side toward the player it points at
const DOT_SIDE = {X: "south", x: "north", O: "west", o: "east"};

export function squareName(size, row, column) {
  return String.fromCharCode(97 + column) + String(size - row);
}

export function squarePlace(size, name) {
  return {row: size - Number(name.slice(1)), column: name.charCodeAt(0) - 97};
}

export function parseMove(text) {
  if (text === "pass") return {pass: true};
  return {pass: false, source: text.slice(0, 2), target: text.slice(2, 4),
          toMate: text.endsWith("+")};
}

function symbol(cell, x, y, teams) {
  const team = cell.toUpperCase();
  const middle = CELL / 2 - 4;
  const parts = [];
  if (team === "X") {
    const r = 15;
    parts.push(svgElement("path", {d: `M${x + middle - r} ${y + middle - r}L${x + middle + r} ` +
      `${y + middle + r}M${x + middle + r} ${y + middle - r}L${x + middle - r} ${y + middle + r}`,
      class: "mark mark-x"}));
  } else {
    parts.push(svgElement("circle", {cx: x + middle, cy: y + middle, r: 16, class: "mark mark-o"}));
  }
  if (teams) parts.push(dot(DOT_SIDE[cell], x, y));
  return parts;
}

function dot(side, x, y) {
  const inner = CELL - 8;
  const at = {south: [inner / 2, inner - 7], north: [inner / 2, 7],
              west: [7, inner / 2], east: [inner - 7, inner / 2]}[side];
  return svgElement("circle", {cx: x + at[0], cy: y + at[1], r: 4.5, class: "dot"});
}

// Draws `info` (the position API's answer) into `svg`. `view`: {selected: square or null,
// targets: [squares], lastMove: {source, target} or null, hover: move text or null,
// sources: [squares that can be taken], onSquare(name)}.
export function drawBoard(svg, info, view) {
  const size = info.size;
  const teams = info.players === 4;
  const extent = size * CELL + 2 * MARGIN;
  svg.setAttribute("viewBox", `0 0 ${extent} ${extent}`);
  svg.replaceChildren(arrowDefinitions());
  svg.append(svgElement("rect", {x: MARGIN - 6, y: MARGIN - 6, width: size * CELL + 12,
                                 height: size * CELL + 12, rx: 10, class: "frame"}));
  const hover = view.hover && view.hover !== "pass" ? parseMove(view.hover) : null;
  const sources = new Set(view.sources || []);
  const targets = new Set(view.targets || []);
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const name = squareName(size, row, column);
      const cell = info.rows[row][column];
      const x = MARGIN + column * CELL + 4, y = MARGIN + row * CELL + 4;
      const classes = ["cube"];
      if (cell !== ".") classes.push(cell.toUpperCase() === "X" ? "cube-x" : "cube-o");
      if (sources.has(name)) classes.push("can-take");
      if (view.selected === name) classes.push("selected");
      if (targets.has(name)) classes.push("target");
      if (view.lastMove && (view.lastMove.target === name)) classes.push("last");
      if (hover && (hover.source === name)) classes.push("hover-source");
      if (hover && (hover.target === name)) classes.push("hover-target");
      const group = svgElement("g", {class: classes.join(" "), "data-square": name,
                                     role: "button", "aria-label": `${name} ${cell}`});
      group.append(svgElement("rect", {x, y, width: CELL - 8, height: CELL - 8, rx: 7}));
      if (cell !== ".") group.append(...symbol(cell, x, y, teams));
      if (view.onSquare) group.addEventListener("click", () => view.onSquare(name));
      svg.append(group);
    }
  }
  if (hover) svg.append(arrow(size, hover));
  for (let index = 0; index < size; index++) {
    const middle = MARGIN + index * CELL + CELL / 2;
    svg.append(svgElement("text", {x: middle, y: extent - 6, class: "coordinate"},
                          String.fromCharCode(97 + index)));
    svg.append(svgElement("text", {x: 9, y: middle + 5, class: "coordinate"},
                          String(size - index)));
  }
  if (info.players === 4) {
    const half = extent / 2;
    for (const [seat, x, y] of [["X1", half, extent - 1], ["X2", half, 11],
                                ["O1", 2, 14], ["O2", extent - 18, 14]]) {
      svg.append(svgElement("text", {x, y, class: "seat" + (info.turn === seat ? " seat-turn" : "")},
                            seat));
    }
  }
}

function arrow(size, move) {
  const from = squarePlace(size, move.source), to = squarePlace(size, move.target);
  const centre = ({row, column}) => [MARGIN + column * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2];
  const [x1, y1] = centre(from), [x2, y2] = centre(to);
  return svgElement("line", {x1, y1, x2, y2, class: "move-arrow",
                             "marker-end": "url(#arrow-head)"});
}

function arrowDefinitions() {
  return svgElement("defs", {},
    svgElement("marker", {id: "arrow-head", viewBox: "0 0 10 10", refX: 6, refY: 5,
                          markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"},
               svgElement("path", {d: "M0 0L10 5L0 10z", class: "arrow-head"})));
}
