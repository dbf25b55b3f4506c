// The simulated board's hand and box, and the piece in hand following the pointer over the board.
import { $, escapeHTML } from "./dom.js";
import { _, format } from "./i18n.js";
import { pieceSVG } from "./pieces.js";
import { state } from "./state.js";
import { U } from "./svg.js";

function miniPiece(piece) {
  const board = state.boards.get($("#board"));
  return `<svg viewBox="${-0.45 * U} ${-0.45 * U} ${0.9 * U} ${0.9 * U}" class="mini">${pieceSVG(piece, "", board && board.look)}</svg>`;
}

// A stone lifted from a hollow whose stone the board has not identified yet is a "?" in the hand
// too: no number the simulated table made up is shown.
function inHand(h, snap) {
  const believed = h.from && snap.cells && snap.cells[h.from] ? snap.cells[h.from].piece : "";
  return believed && believed.endsWith("?") && h.piece[0] === believed[0] ? { ...h, piece: believed } : h;
}

export function renderTray(snap) {
  const tray = $("[data-role=tray]");
  tray.hidden = !snap.sim;
  if (!snap.sim) return;
  const hand = $("[data-role=hand]");
  const held = snap.hand.map((h) => inHand(h, snap));
  const selected = snap.selected == null ? 0 : snap.selected;
  const nothing = _("empty");
  const empty = `<span class="empty-note">${escapeHTML(nothing)}</span>`;
  const taking = (piece) => format(_("take {piece}"), { piece });
  const from = (h) => (h.from ? format(_("{piece} from {cell}"), { piece: h.piece, cell: h.from }) : h.piece);
  hand.innerHTML = held.length ? held.map((h, i) =>
    `<button type="button" class="held${i === selected ? " selected" : ""}" data-hand="${i}" data-piece="${escapeHTML(h.piece)}"`
    + ` title="${escapeHTML(from(h))}">${miniPiece(h.piece)}</button>`).join("")
    : empty;
  const box = $("[data-role=box]");
  const counts = new Map();
  snap.box.forEach((p, i) => { if (!counts.has(p)) counts.set(p, []); counts.get(p).push(i); });
  box.innerHTML = snap.box.length ? Array.from(counts.entries()).map(([p, idx]) =>
    `<button type="button" class="boxed" data-box="${idx[0]}" data-piece="${escapeHTML(p)}"`
    + ` title="${escapeHTML(taking(p))}">`
    + `${miniPiece(p)}${idx.length > 1 ? `<sub>×${idx.length}</sub>` : ""}</button>`).join("")
    : empty;
  $("[data-action=aside]").disabled = !state.control || !snap.hand.length;
  const cursor = $("[data-role=cursor]");
  const holding = held.length ? held[selected] || held[0] : null;
  cursor.innerHTML = holding ? miniPiece(holding.piece) : "";
  cursor.dataset.piece = holding ? holding.piece : "";
}

// the piece in hand follows the pointer over the board
let pointer = null;
export function positionCursor() {
  const cursor = $("[data-role=cursor]");
  const show = pointer && cursor.dataset.piece && state.control;
  cursor.hidden = !show;
  if (show) cursor.style.transform = `translate(${pointer[0] + 14}px, ${pointer[1] + 10}px)`;
}

export function followPointer(at) {
  pointer = at;
  positionCursor();
}
