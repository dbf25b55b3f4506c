// Statistics of the archive: per game and per player, drawn as bars, and month by month.
import { gameInfo } from "./catalog.js";
import { $, escapeHTML, toast } from "./dom.js";

let asked = null;  // the player whose statistics were asked for last ("" for everyone)

const RESULT_PARTS = [["wins", "won"], ["draws", "drawn"], ["losses", "lost"], ["unfinished", "unfinished"]];

// A bar of parts (each [key, count, words]) side by side, as wide as their total.
function bar(parts, label) {
  const total = parts.reduce((sum, [, n]) => sum + n, 0);
  let x = 0;
  const rects = parts.filter(([, n]) => n > 0).map(([key, n, words]) => {
    const width = (100 * n) / total;
    const rect = `<rect data-part="${key}" data-count="${n}" x="${x.toFixed(2)}" width="${width.toFixed(2)}" height="10"><title>${n} ${escapeHTML(words)}</title></rect>`;
    x += width;
    return rect;
  }).join("");
  return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${escapeHTML(label)}">`
    + (total ? rects : `<rect class="nothing" width="100" height="10"/>`) + `</svg>`;
}

// "3 games: 2 finished, 10 moves on average; 1 unfinished": the average is the finished games'
function gamesText(g) {
  const finished = g.finished == null ? g.games : g.finished, open = g.games - finished;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (!open) return plural(g.games, "game") + (g.average_moves !== null ? `, ${g.average_moves} moves on average` : "");
  return `${plural(g.games, "game")}: ${finished} finished`
    + (g.average_moves !== null ? `, ${g.average_moves} moves on average` : "") + `; ${open} unfinished`;
}

function countsText(entry, keys) {
  return keys.filter(([key]) => entry[key]).map(([key, words]) => `${entry[key]} ${words}`).join(" · ") || "none";
}

export async function loadStats(player) {
  asked = player;
  let stats;
  try {
    const response = await fetch(`api/stats${player ? `?player=${encodeURIComponent(player)}` : ""}`);
    stats = await response.json();
    if (!response.ok) { toast(stats.error || "cannot load the statistics"); return; }
  } catch (error) { toast("cannot load the statistics"); return; }
  if (asked === player) renderStats(stats);
}

function renderStats(stats) {
  const card = $("[data-role=stats]");
  $("[data-role=stats-who]").textContent = stats.player ? `· ${stats.player}` : "";
  if (!stats.player) {  // the names the search knows
    const names = [...new Set(stats.players.map((p) => p.player))];
    $("[data-role=archive-players]").innerHTML = names.map((n) => `<option value="${escapeHTML(n)}">`).join("");
  }
  $("[data-role=stats-games]").innerHTML = stats.games.map((g) => {
    const first = g.first;
    const colours = Object.entries(g.colours);
    return `<div class="stats-game" data-stats-game="${escapeHTML(g.game)}">`
      + `<h3>${escapeHTML(gameInfo(g.game).title)} <span class="muted">${gamesText(g)}</span></h3>`
      + `<div class="stats-line" data-stats="first"><span class="stats-label">first player</span>`
      + bar([["wins", first.wins, "won"], ["draws", first.draws, "drawn"], ["losses", first.losses, "lost"]],
        `the first player: ${countsText(first, RESULT_PARTS)}`)
      + `<span class="stats-counts">${first.wins}–${first.draws}–${first.losses}</span></div>`
      + `<div class="stats-line" data-stats="colours"><span class="stats-label">wins by colour</span>`
      + bar(colours.map(([colour, n]) => [colour, n, `won by ${colour}`]), `wins by colour`)
      + `<span class="stats-counts">${colours.map(([colour, n]) => `${escapeHTML(colour)} ${n}`).join(" · ")}</span></div></div>`;
  }).join("") || `<p class="empty-note">no finished games yet</p>`;
  const rows = stats.players.map((p) => `<tr data-stats-player="${escapeHTML(p.player)}" data-stats-game="${escapeHTML(p.game)}">`
    + `<td>${escapeHTML(p.player)}</td><td>${escapeHTML(gameInfo(p.game).title)}</td><td>${p.games}</td>`
    + `<td class="stats-bar">${bar(RESULT_PARTS.map(([key, words]) => [key, p[key], words]), `${p.player}: ${countsText(p, RESULT_PARTS)}`)}</td>`
    + `<td class="stats-counts" title="won–drawn–lost">${p.wins}–${p.draws}–${p.losses}</td></tr>`).join("");
  $("[data-role=stats-months]").innerHTML = monthsChart(stats.months || [], Boolean(stats.player));
  $("[data-role=stats-players]").innerHTML = rows
    ? `<table class="stats-table"><thead><tr><th>player</th><th>game</th><th>games</th><th>results</th><th>W–D–L</th></tr></thead><tbody>${rows}</tbody></table>`
      + `<p class="legend">${RESULT_PARTS.map(([key, words]) => `<span class="key" data-part="${key}"></span>${words}`).join(" ")}</p>`
    : `<p class="empty-note">no named players yet</p>`;
  card.dataset.player = stats.player || "";
}

// Results over time: a column a month (the last MONTHS_SHOWN with games), its parts stacked, as
// tall as its games against the busiest month's.
const MONTHS_SHOWN = 12;
const MONTH_PARTS = {
  player: [["wins", "won"], ["draws", "drawn"], ["losses", "lost"], ["unfinished", "unfinished"]],
  all: [["decided", "won by someone"], ["draws", "drawn"], ["unfinished", "unfinished"]],
};

function monthsChart(months, forPlayer) {
  if (!months.length) return "";
  const shown = months.slice(-MONTHS_SHOWN);
  const most = Math.max(...shown.map((m) => m.games));
  const parts = forPlayer ? MONTH_PARTS.player : MONTH_PARTS.all;
  const columns = shown.map((m) => {
    let y = 100;
    const rects = parts.filter(([key]) => m[key] > 0).map(([key, words]) => {
      const height = (100 * m[key]) / most;
      y -= height;
      return `<rect data-part="${key}" data-count="${m[key]}" x="0" y="${y.toFixed(2)}" width="10" height="${height.toFixed(2)}"><title>${m[key]} ${escapeHTML(words)}</title></rect>`;
    }).join("");
    const [year, month] = m.month.split("-").map(Number);
    const label = new Date(year, month - 1, 1).toLocaleString("en", { month: "short" }) + ` ${year}`;
    return `<div class="month" data-month="${escapeHTML(m.month)}" title="${escapeHTML(m.month)}: ${m.games} game${m.games === 1 ? "" : "s"}">`
      + `<span class="month-count">${m.games}</span>`
      + `<svg class="column" viewBox="0 0 10 100" preserveAspectRatio="none" aria-hidden="true">${rects}</svg>`
      + `<span class="month-name">${escapeHTML(label)}</span></div>`;
  }).join("");
  const legend = `<p class="legend">${parts.map(([key, words]) => `<span class="key" data-part="${key}"></span>${words}`).join(" ")}</p>`;
  // a player's months share the colours of the players' table below, and its legend
  return `<h3>Results by month</h3><div class="months" role="img" aria-label="results by month">${columns}</div>`
    + (forPlayer ? "" : legend);
}
