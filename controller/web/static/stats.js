// Statistics of the archive: per game and per player, drawn as bars, and month by month.
import { gameInfo } from "./catalog.js";
import { $, escapeHTML, toast } from "./dom.js";
import { N_, _, date, format, languageHeaders, ngettext, number, side } from "./i18n.js";

let asked = null;  // the player whose statistics were asked for last ("" for everyone)

const RESULT_PARTS = [["wins", N_("won")], ["draws", N_("drawn")], ["losses", N_("lost")], ["unfinished", N_("unfinished")]];
// the first player's games: won, drawn, lost, in words under its bar, each with its colour (its legend)
const FIRST_PARTS = RESULT_PARTS.slice(0, 3);

// "3 won": a count of games of one part, its words agreeing with the count.
function counted(n, key) {
  if (key === "wins") return ngettext("{n} won", "{n} won", n);
  if (key === "draws") return ngettext("{n} drawn", "{n} drawn", n);
  if (key === "losses") return ngettext("{n} lost", "{n} lost", n);
  if (key === "unfinished") return ngettext("{n} unfinished", "{n} unfinished", n);
  if (key === "decided") return ngettext("{n} won by someone", "{n} won by someone", n);
  return ngettext("{n} won by {colour}", "{n} won by {colour}", n, { colour: side(key) });  // a colour's wins
}

// A bar of parts (each [key, count]) side by side, as wide as their total.
function bar(parts, label) {
  const total = parts.reduce((sum, [, n]) => sum + n, 0);
  let x = 0;
  const rects = parts.filter(([, n]) => n > 0).map(([key, n]) => {
    const width = (100 * n) / total;
    const rect = `<rect data-part="${escapeHTML(key)}" data-count="${n}" x="${x.toFixed(2)}" width="${width.toFixed(2)}" height="10">`
      + `<title>${escapeHTML(counted(n, key))}</title></rect>`;
    x += width;
    return rect;
  }).join("");
  return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${escapeHTML(label)}">`
    + (total ? rects : `<rect class="nothing" width="100" height="10"/>`) + `</svg>`;
}

// "3 games: 2 finished, 10 moves on average; 1 unfinished": the average is the finished games'
function gamesText(g) {
  const finished = g.finished == null ? g.games : g.finished, open = g.games - finished;
  const games = ngettext("{n} game", "{n} games", g.games);
  const moves = ngettext("{n} move on average", "{n} moves on average", g.average_moves || 0);
  const average = g.average_moves === null ? "" : `, ${moves}`;
  if (!open) return games + average;
  const done = ngettext("{n} finished", "{n} finished", finished);
  const unfinished = counted(open, "unfinished");
  return `${games}: ${done}${average}; ${unfinished}`;
}

// A player as the table names them: the computer's key ("computer:LEVEL") in words, as the games list says it.
function playerWords(player) {
  const computer = /^computer:(\d+)$/.exec(player);
  return computer ? format(_("computer, level {level}"), { level: number(Number(computer[1])) }) : player;
}

function countsText(entry, keys) {
  return keys.filter(([key]) => entry[key]).map(([key]) => counted(entry[key], key)).join(" · ") || _("none");
}

export async function loadStats(player) {
  asked = player;
  let stats;
  try {
    const query = player ? `?player=${encodeURIComponent(player)}` : "";
    const response = await fetch(`api/stats${query}`, { headers: languageHeaders() });
    stats = await response.json();
    if (!response.ok) { toast(stats.error || _("cannot load the statistics")); return; }
  } catch (error) { toast(_("cannot load the statistics")); return; }
  if (asked === player) renderStats(stats);
}

function renderStats(stats) {
  const card = $("[data-role=stats]");
  const say = {
    first: _("first player"), colours: _("wins by colour"), noGames: _("no finished games yet"),
    noPlayers: _("no named players yet"), counts: _("won–drawn–lost"),
  };
  $("[data-role=stats-who]").textContent = stats.player ? `· ${playerWords(stats.player)}` : "";
  if (!stats.player) {  // the names the search knows
    const names = [...new Set(stats.players.map((p) => p.player))];
    $("[data-role=archive-players]").innerHTML = names.map((n) => `<option value="${escapeHTML(n)}">`).join("");
  }
  $("[data-role=stats-games]").innerHTML = stats.games.map((g) => {
    const first = g.first;
    const colours = Object.entries(g.colours);
    return `<div class="stats-game" data-stats-game="${escapeHTML(g.game)}">`
      + `<h3>${escapeHTML(gameInfo(g.game).title)} <span class="muted">${escapeHTML(gamesText(g))}</span></h3>`
      + `<div class="stats-line" data-stats="first"><span class="stats-label">${escapeHTML(say.first)}</span>`
      + bar(FIRST_PARTS.map(([key]) => [key, first[key]]),
        format(_("the first player: {counts}"), { counts: countsText(first, RESULT_PARTS) }))
      + `<span class="legend stats-words">${FIRST_PARTS.map(([key]) => `<span class="stats-part"><span class="key"`
        + ` data-part="${key}"></span>${escapeHTML(counted(first[key] || 0, key))}</span>`).join(" · ")}</span></div>`
      + `<div class="stats-line" data-stats="colours"><span class="stats-label">${escapeHTML(say.colours)}</span>`
      + bar(colours, say.colours)
      + `<span class="stats-counts">${colours.map(([colour, n]) => `${escapeHTML(side(colour))} ${number(n)}`).join(" · ")}</span>`
      + `</div></div>`;
  }).join("") || `<p class="empty-note">${escapeHTML(say.noGames)}</p>`;
  const rows = stats.players.map((p) => `<tr data-stats-player="${escapeHTML(p.player)}" data-stats-game="${escapeHTML(p.game)}">`
    + `<td>${escapeHTML(playerWords(p.player))}</td><td>${escapeHTML(gameInfo(p.game).title)}</td><td>${number(p.games)}</td>`
    + `<td class="stats-bar">${bar(RESULT_PARTS.map(([key]) => [key, p[key]]), `${playerWords(p.player)}: ${countsText(p, RESULT_PARTS)}`)}</td>`
    + `<td class="stats-counts" title="${escapeHTML(say.counts)}">${p.wins}–${p.draws}–${p.losses}</td></tr>`).join("");
  $("[data-role=stats-months]").innerHTML = monthsChart(stats.months || [], Boolean(stats.player));
  const heads = [_("player"), _("game"), _("games"), _("results"), _("W–D–L")];
  $("[data-role=stats-players]").innerHTML = rows
    ? `<table class="stats-table"><thead><tr>${heads.map((h) => `<th>${escapeHTML(h)}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`
      + legendOf(RESULT_PARTS)
    : `<p class="empty-note">${escapeHTML(say.noPlayers)}</p>`;
  card.dataset.player = stats.player || "";
}

// Results over time: a column a month (the last MONTHS_SHOWN with games), its parts stacked, as
// tall as its games against the busiest month's.
const MONTHS_SHOWN = 12;
const MONTH_PARTS = {
  player: RESULT_PARTS,
  all: [["decided", N_("won by someone")], ["draws", N_("drawn")], ["unfinished", N_("unfinished")]],
};

function legendOf(parts) {
  return `<p class="legend">${parts.map(([key, words]) => `<span class="key" data-part="${escapeHTML(key)}"></span>`
    + escapeHTML(_(words))).join(" ")}</p>`;
}

function monthsChart(months, forPlayer) {
  if (!months.length) return "";
  const shown = months.slice(-MONTHS_SHOWN);
  const most = Math.max(...shown.map((m) => m.games));
  const parts = forPlayer ? MONTH_PARTS.player : MONTH_PARTS.all;
  const columns = shown.map((m) => {
    let y = 100;
    const rects = parts.filter(([key]) => m[key] > 0).map(([key]) => {
      const height = (100 * m[key]) / most;
      y -= height;
      return `<rect data-part="${escapeHTML(key)}" data-count="${m[key]}" x="0" y="${y.toFixed(2)}" width="10"`
        + ` height="${height.toFixed(2)}"><title>${escapeHTML(counted(m[key], key))}</title></rect>`;
    }).join("");
    const [year, month] = m.month.split("-").map(Number);
    const label = date(new Date(year, month - 1, 1), { month: "short", year: "numeric" });
    const title = `${m.month}: ${ngettext("{n} game", "{n} games", m.games)}`;
    return `<div class="month" data-month="${escapeHTML(m.month)}" title="${escapeHTML(title)}">`
      + `<span class="month-count">${number(m.games)}</span>`
      + `<svg class="column" viewBox="0 0 10 100" preserveAspectRatio="none" aria-hidden="true">${rects}</svg>`
      + `<span class="month-name">${escapeHTML(label)}</span></div>`;
  }).join("");
  // a player's months share the colours of the players' table below, and its legend
  const heading = _("Results by month"), label = _("results by month");
  return `<h3>${escapeHTML(heading)}</h3>`
    + `<div class="months" role="img" aria-label="${escapeHTML(label)}">${columns}</div>`
    + (forPlayer ? "" : legendOf(parts));
}
