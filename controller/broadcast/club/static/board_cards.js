// A board as a card: its name, live or offline, its game and moves, a small drawing of the
// position, its players, score and last move or result. The club's page (club.js, from the
// club's WebSocket) and the spectators' page (spectate.js, from the broker) both draw with it.
// A board is given as the club's /api/boards says it: name, online, game, seq, title, colours,
// players, score, to_move, roll, moves, last_move, result, position. Everything a board sent goes
// in as text (names and moves come from the boards), and the drawing's numbers as numbers.
export const SVGNS = "http://www.w3.org/2000/svg";
const U = 64;
const COLOURS = { white: "#f4f1ea", black: "#23262b", red: "#c0392b", yellow: "#f1c40f", ball: "#a9b2bc" };

export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// An element with its text (never HTML).
export function node(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text != null) made.textContent = text;
  return made;
}

function pieceColour(piece, geometry, colours) {
  if (piece === "ball") return ["ball", ""];
  const marbles = geometry.marbles || {};
  if (marbles[piece]) return [marbles[piece], ""];
  const player = (colours || []).find((p) => p[0].toUpperCase() === piece[0]);
  return [player || (piece[0] === "B" ? "black" : "white"), piece.slice(1)];
}

// Where each cell is drawn: its place, or for a scoring trough the middle of its points.
function places(geometry) {
  const at = new Map(Object.entries(geometry.cells || {}));
  for (const sector of geometry.sectors || []) {
    const n = sector.points.length || 1;
    at.set(sector.name, [sector.points.reduce((s, p) => s + p[0], 0) / n, sector.points.reduce((s, p) => s + p[1], 0) / n]);
  }
  return at;
}

export function drawBoard(svg, geometry, position, colours) {
  const at = places(geometry);
  const xs = [...at.values()].map((p) => p[0] * U), ys = [...at.values()].map((p) => p[1] * U);
  const pad = 0.8 * U;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", `${minX} ${minY} ${Math.max(...xs) - minX + pad} ${Math.max(...ys) - minY + pad}`);
  const outline = (geometry.outline || []).map(([x, y]) => `${x * U},${y * U}`).join(" ");
  let out = outline ? `<polygon class="wood" points="${outline}" stroke-linejoin="round" stroke-width="${1.3 * U}" stroke="#6b4a2b"/>` : "";
  for (const [cell, [x, y]] of at) {
    out += `<circle class="hollow" cx="${x * U}" cy="${y * U}" r="${0.3 * U}"/>`;
    const piece = position[cell];
    if (!piece) continue;
    const [colour, number] = pieceColour(piece, geometry, colours);
    out += `<g class="pc stone ${escapeHTML(colour)}" data-cell="${escapeHTML(cell)}" transform="translate(${x * U} ${y * U})">`
      + `<circle r="${0.36 * U}" fill="${COLOURS[colour] || COLOURS.ball}" stroke="#000" stroke-opacity=".4"/>`
      + (number ? `<text class="num">${escapeHTML(number)}</text>` : "") + "</g>";
  }
  svg.innerHTML = out;
}

// "Ann (black) – Bo (white)": each side's player, or its colour.
function showPlayers(holder, board, side) {
  holder.replaceChildren();
  (board.colours || []).forEach((c, i) => {
    if (i) holder.append(" – ");
    holder.append((board.players || {})[c] || side(c), " ", node("span", "title", `(${side(c)})`));
  });
}

function card(list, board, href) {
  let found = [...list.children].find((c) => c.dataset.board === board.name);
  if (!found) {
    found = document.createElement(href ? "a" : "div");
    found.className = "card";
    found.dataset.board = board.name;
    if (href) found.href = href;
    found.innerHTML = `<h3><span class="name"></span><span class="dot"></span></h3><div class="title"></div>`
      + `<svg xmlns="${SVGNS}" role="img"></svg><div class="players"></div><div class="score"></div><div class="last"></div>`;
    const after = [...list.children].find((c) => c.dataset.board > board.name);
    list.insertBefore(found, after || null);
  }
  return found;
}

// The board's card in `list` (made the first time, in name order), drawn with `words` (the
// page's _, format, ngettext, side); `geometry(board)`: its game's geometry, or a promise of it
// (null: not known yet); `href`: where a click on the card leads (none: no link).
export function renderCard(list, board, { words, geometry, href }) {
  const { _, format, ngettext, side } = words;
  const shown = card(list, board, href);
  shown.querySelector(".name").textContent = board.name;
  const dot = shown.querySelector(".dot");
  dot.dataset.online = board.online === false ? "no" : board.online ? "yes" : "";
  dot.textContent = board.online === false ? _("offline") : board.online ? _("live") : "";
  const moves = ngettext("{n} move", "{n} moves", board.moves || 0);
  shown.querySelector(".title").textContent = board.title ? `${board.title} · ${moves}` : _("no game yet");
  showPlayers(shown.querySelector(".players"), board, side);
  shown.querySelector(".score").textContent = board.score
    ? Object.entries(board.score).map(([p, n]) => `${side(p)} ${n}`).join(" · ") : "";
  const last = shown.querySelector(".last");
  last.replaceChildren();
  if (board.result) {
    const how = board.result.winner ? format(_("{player} wins"), { player: side(board.result.winner) }) : _("draw");
    last.append(node("span", "result", `${board.result.line} · ${how}`));
  } else {
    if (board.last_move) last.append(_("last:"), " ", node("b", "", board.last_move), " · ");
    if (board.to_move) {
      const toMove = format(_("{player} to move"), { player: side(board.to_move) });
      const roll = board.roll ? format(_("(rolled {value})"), { value: board.roll }) : "";
      last.append(node("span", "to-move", roll ? `${toMove} ${roll}` : toMove));
    }
  }
  shown.dataset.seq = board.seq;
  shown.dataset.moves = board.moves;
  const svg = shown.querySelector("svg");
  const key = `${board.game}|${board.seq}`;
  if (svg.dataset.key === key) return shown;
  Promise.resolve(geometry(board)).then((found) => {
    if (!found) return;
    drawBoard(svg, found, board.position || {}, board.colours);
    svg.dataset.key = key;
  });
  return shown;
}
