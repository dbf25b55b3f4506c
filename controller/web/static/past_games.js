// Past games: the archive (GET api/games) found by player, game, days and result, a page of
// games at a time, newest first; a game opened to replay, deleted, a player renamed.
import { games, gameInfo } from "./catalog.js";
import { $, $$, escapeHTML, toast } from "./dom.js";
import { _, dateTime, format, languageHeaders, ngettext, number, side } from "./i18n.js";
import { openGame } from "./replay.js";
import { post } from "./server.js";
import { loadStats } from "./stats.js";

const GAMES_PAGE = 25;
const archive = { query: "", offset: 0, total: 0 };

function searchQuery() {
  const form = $("[data-role=games-search]");
  const params = new URLSearchParams();
  for (const name of ["player", "game", "since", "until", "result"]) {
    const value = form.elements[name].value.trim();
    if (value) params.set(name, value);
  }
  return params;
}

function fillSearchGames() {
  const select = $("[data-role=search-games]");
  const known = new Set($$("option", select).map((o) => o.value));
  for (const game of games()) {
    if (known.has(game.name)) continue;
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title || game.name;
    select.appendChild(option);
  }
}

export async function loadGames(offset = 0) {
  fillSearchGames();
  const params = searchQuery();
  const query = params.toString();
  params.set("limit", String(GAMES_PAGE));
  params.set("offset", String(offset));
  let listed;
  try {
    const response = await fetch(`api/games?${params}`, { headers: languageHeaders() });
    listed = await response.json();
    if (!response.ok) { toast(listed.error || _("cannot list the games")); return; }
    archive.total = Number(response.headers.get("X-Total-Count") || listed.length);
  } catch (error) { toast(_("cannot list the games")); return; }
  archive.query = query;
  archive.offset = offset;
  renderGames(listed);
  if (offset === 0) loadStats(params.get("player") || "");  // a new search, or the tab shown again
}

// The list and the statistics as they are, in the language just chosen.
export function showGamesAgain() {
  loadGames(archive.offset);
  if (archive.offset !== 0) loadStats(searchQuery().get("player") || "");
}

// When a game started ("2026-11-01T20:05:00", the board's time), as the language writes it.
function startedText(started) {
  const moment = new Date(started || "");
  return Number.isNaN(moment.getTime()) ? (started || "").replace("T", " ").slice(0, 16) : dateTime(moment);
}

function playerNames(game) {
  const names = { ...(game.players || {}) };
  const computer = game.computer;
  if (computer && !names[computer.plays]) {
    names[computer.plays] = format(_("computer, level {level}"), { level: number(computer.level) });
  }
  return (game.colours || Object.keys(names)).filter((c) => names[c])
    .map((c) => `<span class="who" data-colour="${escapeHTML(c)}" title="${escapeHTML(side(c))}">${escapeHTML(names[c])}</span>`)
    .join(" – ");
}

function gameRow(g) {
  if (g.error) {
    return `<tr class="bad" data-damaged="${escapeHTML(g.name)}"><td colspan="5">${escapeHTML(g.error)}</td><td></td></tr>`;
  }
  const id = encodeURIComponent(g.name);
  const shown = {
    replay: _("Replay"), moves: _("moves"), record: _("record"), recordTitle: _("the game record (docs/records.md)"),
    remove: _("delete"), removeTitle: _("delete this game"),
  };
  const note = (title, words) => ` <span class="damaged" data-role="game-note" title="${escapeHTML(title)}">${escapeHTML(words)}</span>`;
  const damaged = g.damaged ? note(g.damaged, _("(read up to a damaged line)"))
    : g.note ? note(g.note, _("(a torn last line left out)")) : "";
  return `<tr data-game="${escapeHTML(g.name)}" data-outcome="${escapeHTML(g.outcome || "")}">`
    + `<td>${escapeHTML(startedText(g.started))}</td>`
    + `<td>${escapeHTML(g.title || gameInfo(g.game).title)}</td><td>${playerNames(g)}</td>`
    + `<td data-label="${escapeHTML(shown.moves)}">${escapeHTML(number(g.moves))}</td>`
    + `<td>${escapeHTML(g.result || _("unfinished"))}${damaged}</td>`
    + `<td class="row-actions"><button type="button" class="small" data-open="${escapeHTML(g.name)}">${escapeHTML(shown.replay)}</button> `
    + `<a href="api/games/${id}/record?format=record" download title="${escapeHTML(shown.recordTitle)}">`
    + `${escapeHTML(shown.record)}</a> <button type="button" class="small" data-owner-only data-delete="${escapeHTML(g.name)}"`
    + ` title="${escapeHTML(shown.removeTitle)}">${escapeHTML(shown.remove)}</button></td></tr>`;
}

function renderGames(listed) {
  const body = $("[data-role=games] tbody");
  const empty = archive.query ? _("no game matches the search") : _("no games yet");
  body.innerHTML = listed.length ? listed.map(gameRow).join("")
    : `<tr><td colspan="6" class="empty-note">${escapeHTML(empty)}</td></tr>`;
  const first = listed.length ? archive.offset + 1 : 0;
  $("[data-role=games-count]").textContent = archive.total
    ? ngettext("{first}–{last} of {n} game", "{first}–{last} of {n} games", archive.total,
      { first: number(first), last: number(archive.offset + listed.length) }) : "";
  $("[data-page=newer]").disabled = archive.offset === 0;
  $("[data-page=older]").disabled = archive.offset + listed.length >= archive.total;
}

export function wirePastGames() {
  $("[data-role=games]").addEventListener("click", async (event) => {
    const b = event.target.closest("[data-open]");
    if (b) openGame(b.dataset.open);
    const doomed = event.target.closest("[data-delete]");
    const question = doomed && format(_("Delete the game {name}? Its journal and trace are removed."),
      { name: doomed.dataset.delete });
    if (doomed && confirm(question)) {
      if (await post("api/archive/delete", { id: doomed.dataset.delete })) loadGames(archive.offset);
    }
  });
  $("[data-role=rename-player]").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const done = await post("api/archive/rename-player", { old: form.elements.old.value, new: form.elements.new.value });
    if (done) {
      toast(ngettext("renamed in {n} game", "renamed in {n} games", done.renamed));
      form.reset();
      loadGames(archive.offset);
    }
  });
  const form = $("[data-role=games-search]");
  form.addEventListener("submit", (event) => { event.preventDefault(); loadGames(0); });
  form.addEventListener("reset", () => setTimeout(() => loadGames(0)));  // once the fields are cleared
  $("[data-page=newer]").addEventListener("click", () => loadGames(Math.max(0, archive.offset - GAMES_PAGE)));
  $("[data-page=older]").addEventListener("click", () => loadGames(archive.offset + GAMES_PAGE));
}
