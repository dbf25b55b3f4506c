// The club's page: every board as a small drawing with its players, score and last move, and the
// evening's standings, from the club's WebSocket (/ws). A click opens the board's own page.
// Its words are the page catalogue's, through the board page's i18n.js where the club serves it
// beside this file (with the catalogue at /api/language/LANG); a club without it shows English.
const SVGNS = "http://www.w3.org/2000/svg";
const U = 64;
const $ = (sel, root = document) => root.querySelector(sel);
const geometries = new Map();   // game id -> its geometry (GET /api/boards/NAME), or null while asked
const COLOURS = { white: "#f4f1ea", black: "#23262b", red: "#c0392b", yellow: "#f1c40f", ball: "#a9b2bc" };

// The words in English, until (or unless) the page's languages are there.
const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
let words = {
  _: (text) => text,
  N_: (text) => text,
  format: fill,
  ngettext: (one, many, n, values = {}) => fill(n === 1 ? one : many, { n, ...values }),
  side: (colour) => String(colour || ""),
  languageHeaders: () => ({}),
  onLanguage: () => {},
  startLanguage: async () => {},
};
try {
  words = await import("/club/i18n.js");
} catch (error) { /* a club server that does not serve the page's languages: English */ }
const { _, N_, format, ngettext, side, languageHeaders } = words;

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// An element with its text (never HTML: names and moves come from the boards).
function node(tag, className, text) {
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

function drawBoard(svg, geometry, position, colours) {
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

async function geometryOf(board) {
  if (!board.game) return null;
  if (geometries.has(board.game)) return geometries.get(board.game);
  geometries.set(board.game, null);
  try {
    const response = await fetch(`/api/boards/${encodeURIComponent(board.name)}`, { headers: languageHeaders() });
    const detail = await response.json();
    if (detail.game === board.game) geometries.set(board.game, detail.geometry);
    else geometries.delete(board.game);
  } catch (error) {
    geometries.delete(board.game);
  }
  return geometries.get(board.game);
}

// "Ann (black) – Bo (white)": each side's player, or its colour.
function showPlayers(holder, board) {
  holder.replaceChildren();
  (board.colours || []).forEach((c, i) => {
    if (i) holder.append(" – ");
    holder.append(board.players[c] || side(c), " ", node("span", "title", `(${side(c)})`));
  });
}

function card(board) {
  let found = document.querySelector(`[data-board="${CSS.escape(board.name)}"]`);
  if (!found) {
    found = document.createElement("a");
    found.className = "card";
    found.dataset.board = board.name;
    found.href = `/board/${encodeURIComponent(board.name)}/`;
    found.innerHTML = `<h3><span class="name"></span><span class="dot"></span></h3><div class="title"></div>`
      + `<svg xmlns="${SVGNS}" role="img"></svg><div class="players"></div><div class="score"></div><div class="last"></div>`;
    const list = $("[data-role=boards]");
    const after = [...list.children].find((c) => c.dataset.board > board.name);
    list.insertBefore(found, after || null);
  }
  return found;
}

function renderBoard(board) {
  const shown = card(board);
  $(".name", shown).textContent = board.name;
  const dot = $(".dot", shown);
  dot.dataset.online = board.online === false ? "no" : board.online ? "yes" : "";
  dot.textContent = board.online === false ? _("offline") : board.online ? _("live") : "";
  const moves = ngettext("{n} move", "{n} moves", board.moves);
  $(".title", shown).textContent = board.title ? `${board.title} · ${moves}` : _("no game yet");
  showPlayers($(".players", shown), board);
  $(".score", shown).textContent = board.score
    ? Object.entries(board.score).map(([p, n]) => `${side(p)} ${n}`).join(" · ") : "";
  const last = $(".last", shown);
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
  const svg = $("svg", shown);
  const key = `${board.game}|${board.seq}`;
  if (svg.dataset.key === key) return;
  geometryOf(board).then((geometry) => {
    if (!geometry) return;
    drawBoard(svg, geometry, board.position || {}, board.colours);
    svg.dataset.key = key;
  });
}

function renderStandings(rows) {
  $("[data-role=standings] tbody").replaceChildren(...rows.map((r, i) => {
    const row = document.createElement("tr");
    for (const value of [i + 1, r.player, r.games, r.wins, r.draws, r.losses, r.points]) row.append(node("td", "", String(value)));
    return row;
  }));
}

// The club's link to the broker, and this page's to the club.
const LINK_WORDS = {
  live: N_("broker connected"), down: N_("broker unreachable: waiting"), away: N_("club server unreachable: reconnecting"),
};
const boards = new Map();  // each board as last told (drawn again in another language)
let linkState = null;

function showLink(state) {
  linkState = state;
  const link = $("[data-role=link]");
  link.dataset.state = state === "live" ? "live" : "down";
  link.dataset.i18nText = LINK_WORDS[state];
  link.textContent = _(LINK_WORDS[state]);
}

function render(data) {
  showLink(data.connected ? "live" : "down");
  for (const board of data.boards) {  // every board at first ("full"), then those changed
    boards.set(board.name, board);
    renderBoard(board);
  }
  $("[data-role=empty]").hidden = document.querySelector("[data-board]") !== null;
  renderStandings(data.standings);
}

let retry = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { retry = 500; };
  ws.onmessage = (event) => render(JSON.parse(event.data));
  ws.onclose = () => {
    showLink("away");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

words.onLanguage(() => {
  for (const board of boards.values()) renderBoard(board);
  if (linkState) showLink(linkState);
});
await words.startLanguage();
connect();
