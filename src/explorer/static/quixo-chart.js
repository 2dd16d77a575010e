// The value history of the line played, as GamesmanUni draws it: one point per position, by move
// number; above the axis X (team X) wins, below O wins, at the height of the plies left; draws on
// the axis in yellow, unknown values as hollow grey points on the axis.

import {svgElement} from "./api.js";

const WIDTH = 480, HEIGHT = 200, LEFT = 34, RIGHT = 10, TOP = 14, BOTTOM = 24;

// The point of one position: its side's value turned into X's point of view.
export function valueForX(entry) {
  if (!entry || !entry.value) return {kind: "pending", height: 0};
  if (entry.value === "draw") return {kind: "draw", height: 0};
  if (entry.value === "unknown") return {kind: "unknown", height: 0};
  const plies = entry.plies ?? entry.plies_at_most ?? 0;
  const xWins = (entry.value === "win") === (entry.team === "X");
  return {kind: xWins ? "x" : "o", height: xWins ? plies : -plies};
}

export function drawChart(svg, entries, current, onPick) {
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  svg.replaceChildren();
  const points = entries.map(valueForX);
  const highest = Math.max(4, ...points.map((point) => Math.abs(point.height)));
  const count = Math.max(entries.length - 1, 1);
  const x = (index) => LEFT + (WIDTH - LEFT - RIGHT) * index / count;
  const y = (height) => TOP + (HEIGHT - TOP - BOTTOM) * (highest - height) / (2 * highest);
  svg.append(svgElement("rect", {x: LEFT, y: TOP, width: WIDTH - LEFT - RIGHT,
                                 height: (HEIGHT - TOP - BOTTOM) / 2, class: "zone-x"}));
  svg.append(svgElement("rect", {x: LEFT, y: y(0), width: WIDTH - LEFT - RIGHT,
                                 height: (HEIGHT - TOP - BOTTOM) / 2, class: "zone-o"}));
  svg.append(svgElement("line", {x1: LEFT, x2: WIDTH - RIGHT, y1: y(0), y2: y(0), class: "axis"}));
  svg.append(svgElement("text", {x: LEFT + 4, y: TOP + 12, class: "zone-label"}, "X wins in"));
  svg.append(svgElement("text", {x: LEFT + 4, y: HEIGHT - BOTTOM - 4, class: "zone-label"},
                        "O wins in"));
  for (const level of [highest, Math.round(highest / 2)]) {
    for (const sign of [1, -1]) {
      svg.append(svgElement("text", {x: LEFT - 4, y: y(sign * level) + 4, class: "tick"},
                            String(level)));
    }
  }
  svg.append(svgElement("text", {x: LEFT - 4, y: y(0) + 4, class: "tick"}, "0"));
  const step = Math.max(1, Math.ceil(count / 10));
  for (let index = 0; index <= count; index += step) {
    svg.append(svgElement("text", {x: x(index), y: HEIGHT - 6, class: "tick tick-x"},
                          String(index)));
  }
  const known = points.map((point, index) => [index, point]).filter(([, p]) => p.kind !== "pending");
  if (known.length > 1) {
    svg.append(svgElement("polyline", {
      points: known.map(([index, p]) => `${x(index)},${y(p.height)}`).join(" "),
      class: "history-line"}));
  }
  points.forEach((point, index) => {
    const dot = svgElement("circle", {cx: x(index), cy: y(point.height),
                                      r: index === current ? 6 : 4,
                                      class: `history-point point-${point.kind}` +
                                             (index === current ? " current" : "")});
    const entry = entries[index];
    const label = entry && entry.value ? `move ${index}: ${entry.team} to move, ${entry.value}` +
      (entry.plies !== null && entry.plies !== undefined ? ` in ${entry.plies}` : "") :
      `move ${index}: not known yet`;
    dot.append(svgElement("title", {}, label));
    if (onPick) dot.addEventListener("click", () => onPick(index));
    svg.append(dot);
  });
  svg.append(svgElement("text", {x: WIDTH - RIGHT, y: HEIGHT - 6, class: "tick tick-end"},
                        "move"));
}
