// The club's tournament on its page: the round's pairings with their results, the standings
// with their tie-breaks (Buchholz, Sonneborn-Berger, direct encounter) and each player's rating,
// and for the organiser (the page opened with ?token=...) the next round's pairing, a result
// entered by hand and a result corrected with its reason. Fed by club.js's updates.
const $ = (sel, root = document) => root.querySelector(sel);
let words = { _: (t) => t, format: (t, v) => String(t).replace(/\{(\w+)\}/g, (w, k) => (k in v ? String(v[k]) : w)),
  side: (c) => String(c || ""), onLanguage: () => {}, number: (n) => String(n) };
try {
  words = await import("/club/i18n.js");
} catch (error) { /* English */ }
const { _, format, side } = words;
const number = words.number || ((n) => String(n));
const token = new URLSearchParams(location.search).get("token");
let latest = null;

function cell(row, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text == null ? "" : String(text);
  row.append(td);
  return td;
}

function withRating(name, players) {
  const found = players.find((p) => p.name === name);
  return found && found.now != null ? `${name} (${found.now})` : name;  // a rating: no thousands' separator
}

async function act(action, body) {
  const answer = await fetch(`/api/tournament/${action}`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Reedboard-Token": token,
      ...(words.languageHeaders ? words.languageHeaders() : {}) },  // a refusal in the page's language
    body: JSON.stringify(body || {}),
  });
  const said = await answer.json().catch(() => ({}));
  $("[data-role=problem]").textContent = answer.ok ? "" : (said.error || String(answer.status));
}

function resultCell(row, game, colours) {
  const td = cell(row, "", "result");
  const shown = game.result || "–";
  if (!token) {
    td.textContent = game.corrected ? `${shown} *` : shown;
    if (game.corrected) td.title = _("corrected by the organiser");
    return;
  }
  const choose = document.createElement("select");
  choose.setAttribute("aria-label", format(_("result of board {number}"), { number: game.number }));
  for (const value of ["", "1-0", "1/2-1/2", "0-1"]) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = value || "–";
    option.selected = value === (game.result || "");
    choose.append(option);
  }
  choose.addEventListener("change", () => {
    if (!choose.value) return;
    if (!game.result) {
      act("result", { round: game.round, number: game.number, result: choose.value });
      return;
    }
    const reason = prompt(_("Why is this result corrected?"));
    if (reason) act("correct", { round: game.round, number: game.number, result: choose.value, reason });
    else choose.value = game.result;
  });
  td.append(choose);
}

function render(data) {
  const t = data && data.tournament;
  const section = $("[data-role=tournament]");
  section.hidden = !t || !t.tournament;
  if (section.hidden) return;
  latest = data;
  const info = t.tournament;
  $("[data-role=t-name]").textContent = info.name;
  $("[data-role=t-round]").textContent = info.finished ? _("finished")
    : format(_("round {round} of {rounds}"), { round: info.round, rounds: info.planned_rounds });
  $("[data-role=organiser]").hidden = !token;
  const [first, second] = info.colours;
  $("[data-role=first-colour]").textContent = side(first);
  $("[data-role=second-colour]").textContent = side(second);
  const round = t.rounds[t.rounds.length - 1];
  $("[data-role=pairings] tbody").replaceChildren(...(round ? round.games : []).map((game) => {
    const row = document.createElement("tr");
    row.dataset.board = game.board;
    cell(row, `${game.number} · ${game.board}`);
    cell(row, withRating(game.first, t.players), "who");
    resultCell(row, game, info.colours);
    cell(row, withRating(game.second, t.players), "who");
    return row;
  }));
  $("[data-role=bye]").textContent = round && round.bye ? format(_("Bye: {player}"), { player: round.bye }) : "";
  $("[data-role=t-standings] tbody").replaceChildren(...t.standings.map((r) => {
    const row = document.createElement("tr");
    for (const value of [r.place, r.name, r.rating == null ? "–" : String(r.rating), number(r.points),
      number(r.buchholz), number(r.sonneborn_berger), number(r.direct), r.games]) cell(row, value);
    if (r.withdrawn) row.classList.add("withdrawn");
    return row;
  }));
}

$("[data-action=pair]").addEventListener("click", () => act("pair"));
document.addEventListener("club-update", (event) => render(event.detail));
words.onLanguage(() => render(latest));
if (window.clubLatest) render(window.clubLatest);
