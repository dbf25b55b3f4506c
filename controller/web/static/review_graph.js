// The computer's review of a past game drawn as a graph (plain SVG): the first player's chance
// to win after every move, the even line, the move shown now, and the moves that lost most
// (blunders, mistakes) as markers of their own shape and colour that a click or a key chooses.
import { Side, _, format, language, number } from "./i18n.js";
import { el } from "./svg.js";

const HEIGHT = 150, PHONE_HEIGHT = 128;
const MARGIN = { left: 44, right: 12, top: 12, bottom: 22 };
export const MARKS = ["blunder", "mistake"];

// 0.31 as "31 %" (or "31%"), as the page's language writes a share.
export function percent(p) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(p);
}

// A marker's shape around (0, 0): a blunder a triangle pointing down, a mistake a diamond.
export function markShape(mark, parent, size = 8) {
  if (mark === "blunder") {
    return el("path", { class: "shape", d: `M${-size} ${-size * 0.75} L${size} ${-size * 0.75} L0 ${size} Z` }, parent);
  }
  const s = size * 0.9;
  return el("path", { class: "shape", d: `M0 ${-s} L${s} 0 L0 ${s} L${-s} 0 Z` }, parent);
}

// What a marked move was, in words: its mark, the move, what it lost of its mover's chance.
export function markWords(point) {
  const values = { ply: number(point.ply), move: point.move, loss: percent(point.loss || 0), player: Side(point.mover) };
  const said = point.mark === "blunder"
    ? format(_("Blunder at move {ply}, {move}: it lost {loss} of {player}'s chance"), values)
    : format(_("Mistake at move {ply}, {move}: it lost {loss} of {player}'s chance"), values);
  const better = !point.better ? "" : point.better === "roll" ? _("better: roll the die")
    : point.rolled ? format(_("better: {move}, not a roll"), { move: point.better })
    : format(_("better: {move}"), { move: point.better });
  return better ? `${said}; ${better}` : said;
}

// The graph of `review` (GET api/games/NAME/review) drawn into `svg` as wide as it stands;
// `pick(ply, point)`: a point clicked (point: a marked move's). Returns show(ply, chosen): the
// move shown now and the marked move chosen (its ply, or null), marked without drawing anew.
export function drawReview(svg, review) {
  svg.innerHTML = "";
  const width = Math.max(200, Math.round(svg.getBoundingClientRect().width || svg.parentNode.clientWidth || 600));
  const height = width < 500 ? PHONE_HEIGHT : HEIGHT;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("height", String(height));
  const points = review.points || [];
  const last = Math.max(1, points.length ? points[points.length - 1].ply : 1);
  const plot = { x: MARGIN.left, y: MARGIN.top, w: width - MARGIN.left - MARGIN.right, h: height - MARGIN.top - MARGIN.bottom };
  const X = (ply) => plot.x + (plot.w * ply) / last;
  const Y = (p) => plot.y + plot.h * (1 - Math.max(0, Math.min(1, p)));

  el("rect", { class: "review-plot", x: plot.x, y: plot.y, width: plot.w, height: plot.h }, svg);
  // anywhere on the graph: the nearest move (the points and markers, drawn over it, are their own)
  el("rect", { class: "review-hit", x: plot.x - 6, y: 0, width: plot.w + 12, height, "data-hit": "1" }, svg);
  for (const p of [0, 0.5, 1]) {
    el("line", { class: p === 0.5 ? "review-half" : "review-grid", x1: plot.x, x2: plot.x + plot.w, y1: Y(p), y2: Y(p) }, svg);
    el("text", { class: "review-axis", x: plot.x - 6, y: Y(p), "text-anchor": "end", "dominant-baseline": "middle" }, svg)
      .textContent = percent(p);
  }
  // the moves along the bottom: every tenth (every fifth in a short game)
  const every = last <= 20 ? 5 : last <= 60 ? 10 : last <= 150 ? 25 : 50;
  for (let ply = 0; ply <= last; ply += every) {
    el("text", { class: "review-axis", x: X(ply), y: plot.y + plot.h + 15, "text-anchor": "middle" }, svg).textContent = number(ply);
  }

  const line = points.map((pt, i) => `${i ? "L" : "M"}${X(pt.ply).toFixed(1)} ${Y(pt.p).toFixed(1)}`).join(" ");
  if (points.length) {
    const area = `${line} L${X(points[points.length - 1].ply).toFixed(1)} ${Y(0)} L${X(points[0].ply).toFixed(1)} ${Y(0)} Z`;
    el("path", { class: "review-area", d: area }, svg);
    el("path", { class: "review-line", d: line }, svg);
  }
  const now = el("g", { class: "review-now" }, svg);
  el("line", { y1: plot.y, y2: plot.y + plot.h }, now);
  const nowDot = el("circle", { r: 5 }, now);

  const dots = el("g", { class: "review-points" }, svg);
  for (const pt of points) {
    el("circle", { class: "review-point", r: 2.5, cx: X(pt.ply).toFixed(1), cy: Y(pt.p).toFixed(1), "data-ply": pt.ply }, dots);
  }

  const markers = el("g", { class: "review-markers" }, svg);
  for (const pt of points.filter((p) => MARKS.includes(p.mark))) {
    const words = markWords(pt);
    const g = el("g", {
      class: "review-marker", "data-mark": pt.mark, "data-ply": pt.ply, role: "button", tabindex: "0",
      "aria-label": words, "aria-pressed": "false", transform: `translate(${X(pt.ply).toFixed(1)} ${Y(pt.p).toFixed(1)})`,
    }, markers);
    el("title", {}, g).textContent = words;
    el("circle", { class: "marker-hit", r: 12 }, g);
    markShape(pt.mark, g);
  }

  return function show(ply, chosen) {
    const at = points.find((pt) => pt.ply === ply);
    now.setAttribute("transform", `translate(${X(ply).toFixed(1)} 0)`);
    nowDot.setAttribute("cy", at ? Y(at.p).toFixed(1) : String(-99));
    svg.dataset.ply = String(ply);
    for (const g of markers.children) {
      const on = chosen != null && Number(g.dataset.ply) === chosen;
      g.setAttribute("aria-pressed", on ? "true" : "false");
      g.classList.toggle("chosen", on);
    }
  };
}

// The ply nearest to a click at clientX on the graph.
export function plyAt(svg, review, clientX) {
  const box = svg.getBoundingClientRect();
  const [, , width] = (svg.getAttribute("viewBox") || "0 0 1 1").split(" ").map(Number);
  const x = ((clientX - box.left) * width) / (box.width || 1);
  const points = review.points || [];
  const last = Math.max(1, points.length ? points[points.length - 1].ply : 1);
  const plotW = width - MARGIN.left - MARGIN.right;
  return Math.max(0, Math.min(last, Math.round(((x - MARGIN.left) * last) / plotW)));
}
