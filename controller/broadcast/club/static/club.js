// The club's page: every board as a small drawing with its players, score and last move, and the
// evening's standings, from the club's WebSocket (/ws). A click opens the board's own page.
// Its words are the page catalogue's, through the board page's i18n.js where the club serves it
// beside this file (with the catalogue at /api/language/LANG); a club without it shows English.
import { node, renderCard } from "/club/board_cards.js";
import { pageWords } from "/club/page_words.js";

const $ = (sel, root = document) => root.querySelector(sel);
const geometries = new Map();   // game id -> its geometry (GET /api/boards/NAME), or null while asked

const words = await pageWords();
const { _, N_, languageHeaders } = words;

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

function renderBoard(board) {
  renderCard($("[data-role=boards]"), board,
    { words, geometry: geometryOf, href: `/board/${encodeURIComponent(board.name)}/` });
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
  window.clubLatest = data;  // the tournament's part of the page (club_tournament.js) follows
  document.dispatchEvent(new CustomEvent("club-update", { detail: data }));
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
