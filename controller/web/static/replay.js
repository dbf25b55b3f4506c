// One past game replayed move by move on the board drawing: the buttons, the slider, the
// list of moves and the arrow keys step through it; its record and pictures to download. Under
// the board, the computer's review (GET api/games/NAME/review, asked for as the game opens): the
// first player's chance after every move as a graph, and a marked move's better move lit on the
// board as the board lights the computer's move (lift: vermillion, blinking; put: teal).
import { buildBoard, lightColour, lightSwatch, paint } from "./board.js";
import { gameInfo } from "./catalog.js";
import { $, $$, escapeHTML, toast } from "./dom.js";
import { headerWords } from "./header_words.js";
import { Side, _, dateTime, format, languageHeaders, ngettext, number, side } from "./i18n.js";
import { renderRecord } from "./move_list.js";
import { savePicture } from "./picture.js";
import { MARKS, drawReview, markShape, percent, plyAt } from "./review_graph.js";
import { cachedRulesPage, rulesPage } from "./rules.js";
import { headers } from "./owner_token.js";
import { state } from "./state.js";
import { el } from "./svg.js";

// the game replayed (GET api/games/NAME), the move shown, the marked move whose better move is lit
const replay = { data: null, name: "", ply: 0, chosen: null };
// the review of the game replayed: "waiting", "done" or "failed"; its answer, or why it failed
const review = { asked: 0, state: "", data: null, error: "", show: null, width: 0 };
const reviews = new Map();  // game -> its review, once had (the computer's work is not asked for twice)

export async function openGame(name) {
  let data;
  try {
    const response = await fetch(`api/games/${encodeURIComponent(name)}`, { headers: languageHeaders() });
    data = await response.json();
    if (!response.ok) { toast(data.error || _("cannot open the game")); return; }
  } catch (error) { toast(_("cannot open the game")); return; }
  replay.data = data;
  replay.name = name;
  replay.ply = data.record.length;
  replay.chosen = null;
  $("[data-role=replay]").hidden = false;
  showWords();
  $("[data-role=replay-download]").href = `api/games/${encodeURIComponent(name)}/record`;
  $("[data-role=replay-record-download]").href = `api/games/${encodeURIComponent(name)}/record?format=record`;
  const slider = $("[data-role=replay-slider]");
  slider.max = String(data.record.length);
  const svg = $("#replay-board");
  const board = buildBoard(svg, data.geometry, data.cells, data.players);
  state.boards.set(svg, board);
  showPly(replay.ply);
  rulesPage(data.game);  // its lights' colours, for the better moves
  // in view at once: on a phone it opens below the whole list and the statistics (a smooth
  // scroll there could be cut short, leaving it out of sight); its title takes the focus
  $("[data-role=replay]").scrollIntoView({ block: "start" });
  $("[data-role=replay-title]").focus({ preventScroll: true });
  askReview(name);
}

// The replayed game's title and result in the page's language.
function showWords() {
  const data = replay.data;
  const started = new Date(data.started || "");
  const when = Number.isNaN(started.getTime()) ? String(data.started || "").replace("T", " ").slice(0, 16) : dateTime(started);
  $("[data-role=replay-title]").textContent = `${data.title || gameInfo(data.game).title}, ${when}`;
  $("[data-role=replay-result]").textContent = (data.result || _("unfinished")) + (data.note ? ` · ${data.note}` : "");
  $("[data-role=replay-header]").innerHTML = data.header.slice(1).map((l) => `<div>${escapeHTML(headerWords(l, data.game))}</div>`).join("");
}

// The replay open, in the language just chosen.
export function showReplayAgain() {
  if (!replay.data || $("[data-role=replay]").hidden) return;
  showWords();
  drawReviewAgain();
  showPly(replay.ply, replay.chosen);
}

// The lights' colours as the page has them: the board's (the snapshot's), else the rules page's.
function lightsPalette() {
  const page = replay.data && cachedRulesPage(replay.data.game);
  return { ...(page && page.palette), ...(state.snap && state.snap.palette) };
}

// The move `ply` of the game shown; `chosen`: a marked move (its review point) whose better move
// is lit on the position before it, as the board lights the computer's move.
function showPly(ply, chosen = null) {
  const data = replay.data;
  if (!data) return;
  ply = Math.max(0, Math.min(ply, data.record.length));
  replay.ply = ply;
  replay.chosen = chosen && chosen.ply === ply + 1 ? chosen : null;
  const better = replay.chosen && replay.chosen.cells;
  const lift = new Set((better && better.from) || []), put = new Set((better && better.to) || []);
  const position = data.positions[ply];
  const cells = {};
  for (const cell of data.cells) {
    const piece = position.pieces[cell] || "";
    if (lift.has(cell)) cells[cell] = { piece, light: "empty", blink: true };
    else if (put.has(cell)) cells[cell] = { piece, light: "dest" };
    else cells[cell] = { piece, light: !better && position.last.includes(cell) ? "last" : "" };
  }
  paint(state.boards.get($("#replay-board")), cells, lightsPalette(), false);
  $("[data-role=replay-ply]").textContent = format(_("move {ply} of {moves}"),
    { ply: number(ply), moves: number(data.record.length) });
  $("[data-role=replay-slider]").value = String(ply);
  $("[data-role=replay-turn]").textContent = ply === data.record.length && data.result ? data.result
    : format(_("{player} to move"), { player: side(position.turn) });
  $("[data-role=replay-score]").textContent = position.score
    ? data.players.map((p) => `${side(p)} ${number(position.score[p])}`).join(" · ") : "";
  renderRecord($("[data-role=replay-record]"), data.record, data.players, ply - 1);
  if (review.show) review.show(ply, replay.chosen ? replay.chosen.ply : null);
  showBetter();
}

// --- the computer's review -----------------------------------------------------------------------------
async function askReview(name) {
  const asked = ++review.asked;
  review.data = null;
  review.show = null;
  const kept = reviews.get(name);
  if (kept) { reviewHad(kept); return; }
  review.state = "waiting";
  review.error = "";
  showReview();
  let answer, failed = "";
  try {
    // with the owner's token: a review not worked out yet is the owner's (a spectator has a few)
    const response = await fetch(`api/games/${encodeURIComponent(name)}/review`, { headers: headers() });
    answer = await response.json().catch(() => ({}));
    if (!response.ok || !Array.isArray(answer.points)) failed = answer.error || _("the computer could not review this game");
  } catch (error) { failed = _("the computer could not review this game"); }
  if (asked !== review.asked) return;  // another game opened meanwhile
  if (failed) {
    review.state = "failed";
    review.error = failed;
    showReview();
    return;
  }
  reviews.set(name, answer);
  reviewHad(answer);
}

function reviewHad(answer) {
  review.state = "done";
  review.data = answer;
  review.error = "";
  showReview();
  drawReviewAgain();
  showPly(replay.ply, replay.chosen);
}

// The review's card: waiting, failed (and asked again by a button) or drawn.
function showReview() {
  const card = $("[data-role=review]");
  card.dataset.state = review.state;
  const status = $("[data-role=review-status]");
  const nodes = review.data && Number(review.data.nodes);
  status.textContent = review.state === "waiting" ? _("the computer is reviewing…")
    : review.state === "failed" ? review.error
      : nodes ? ngettext("the computer searched {n} position for each move", "the computer searched {n} positions for each move", nodes) : "";
  status.setAttribute("role", review.state === "failed" ? "alert" : "status");
  $("[data-action=review]").hidden = review.state !== "failed";
  $("[data-role=review-body]").hidden = review.state !== "done";
  if (review.state !== "done") $("[data-role=review-better]").hidden = true;
}

// The graph drawn as wide as it stands now, in the page's language; the marker that had the
// keyboard's focus keeps it.
function drawReviewAgain() {
  if (review.state !== "done" || !review.data) return;
  const svg = $("[data-role=review-graph]");
  const width = svg.getBoundingClientRect().width;
  if (!width) return;  // not shown now: drawn when it is
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".review-marker");
  const focusedPly = focused && svg.contains(focused) ? focused.dataset.ply : null;
  review.width = Math.round(width);
  review.show = drawReview(svg, review.data);
  review.show(replay.ply, replay.chosen ? replay.chosen.ply : null);
  if (focusedPly) { const again = $(`.review-marker[data-ply="${focusedPly}"]`, svg); if (again) again.focus(); }
  renderLegend();
}

function renderLegend() {
  const points = review.data.points || [];
  const count = (mark) => points.filter((p) => p.mark === mark).length;
  const first = review.data.first || (replay.data && replay.data.players[0]);
  const key = (mark) => {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "-9 -9 18 18");
    svg.setAttribute("class", "review-key");
    svg.setAttribute("aria-hidden", "true");
    const g = el("g", { class: "review-key-mark", "data-mark": mark }, svg);
    markShape(mark, g);
    return svg.outerHTML;
  };
  const said = {
    blunder: ngettext("{n} blunder", "{n} blunders", count("blunder")),
    mistake: ngettext("{n} mistake", "{n} mistakes", count("mistake")),
  };
  const chance = format(_("{colour}'s chance to win"), { colour: Side(first) }), even = _("even chances");
  $("[data-role=review-legend]").innerHTML = `<span class="review-legend-line"><i class="line-key"></i>`
    + `${escapeHTML(chance)}</span><span><i class="half-key"></i>${escapeHTML(even)}</span>`
    + MARKS.map((mark) => `<span data-legend="${mark}">${key(mark)}${escapeHTML(said[mark])}</span>`).join("");
}

// Under the graph: the marked move chosen, its better move in words and the lights that show it.
function showBetter() {
  const line = $("[data-role=review-better]");
  const chosen = replay.chosen;
  line.hidden = !chosen;
  if (!chosen) { line.innerHTML = ""; return; }
  const palette = lightsPalette();
  // the words, each move in them kept on one line
  const moves = { "\u0001": chosen.better, "\u0002": chosen.move };
  const values = { better: "\u0001", played: "\u0002", loss: percent(chosen.loss || 0), player: Side(chosen.mover) };
  // "roll": rolling the die was better; `rolled`: the roll was the mistake, the better move one without the die
  const template = !chosen.better ? _("The move played, {played}, lost {loss} of {player}'s chance")
    : chosen.better === "roll" ? _("Better: roll the die — the move played, {played}, lost {loss} of {player}'s chance")
    : chosen.rolled ? _("Better: {better}, not a roll — the roll and the move played, {played}, lost {loss} of {player}'s chance")
    : _("Better: {better} — the move played, {played}, lost {loss} of {player}'s chance");
  const words = escapeHTML(format(template, values))
    .replace(/[\u0001\u0002]/g, (token) => `<span class="move-name">${escapeHTML(moves[token] || "")}</span>`);
  const lift = _("lift here"), put = _("put here");
  const lights = chosen.cells
    ? `<span class="review-lights"><span>${lightSwatch("empty", lightColour("empty", palette), true)}${escapeHTML(lift)}</span>`
      + `<span>${lightSwatch("dest", lightColour("dest", palette), false)}${escapeHTML(put)}</span></span>` : "";
  line.innerHTML = `<span class="review-words" data-mark="${escapeHTML(chosen.mark || "")}">${words}</span>${lights}`;
}

// A marked move chosen: the position before it, its better move lit.
function choose(ply) {
  const point = review.data && (review.data.points || []).find((p) => p.ply === ply);
  if (point && point.mark) showPly(ply - 1, point);
  else showPly(ply);
}

function wireReview() {
  const svg = $("[data-role=review-graph]");
  svg.addEventListener("click", (event) => {
    if (!review.data) return;
    const marker = event.target.closest(".review-marker");
    if (marker) choose(Number(marker.dataset.ply));
    else showPly(plyAt(svg, review.data, event.clientX));
  });
  svg.addEventListener("keydown", (event) => {
    const marker = event.target.closest(".review-marker");
    if (marker && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(Number(marker.dataset.ply));
    }
  });
  $("[data-action=review]").addEventListener("click", () => { if (replay.name) askReview(replay.name); });
  // as wide as its place: drawn again when the place changes (a phone turned, the window resized)
  new ResizeObserver(() => {
    const width = Math.round(svg.getBoundingClientRect().width);
    if (width && width !== review.width) drawReviewAgain();
  }).observe($("[data-role=review]"));
}

// Back to the list: the replay closed, the game's row in view and its Replay button focused.
function closeReplay() {
  const name = replay.name;
  $("[data-role=replay]").hidden = true;
  const row = $$("[data-role=games] tr[data-game]").find((tr) => tr.dataset.game === name);
  const target = row || $("[data-role=games]");
  target.scrollIntoView({ block: "center" });
  const button = row && $("[data-open]", row);
  if (button) button.focus({ preventScroll: true });
}

export function wireReplay() {
  $("[data-action=replay-close]").addEventListener("click", closeReplay);
  for (const a of $$("[data-role=replay-picture]")) {
    a.addEventListener("click", (event) => { event.preventDefault(); savePicture(replay.data, replay.ply, a.dataset.kind); });
  }
  const step = { first: () => 0, prev: () => replay.ply - 1, next: () => replay.ply + 1, last: () => Infinity };
  for (const b of $$("[data-replay]")) b.addEventListener("click", () => showPly(step[b.dataset.replay]()));
  $("[data-role=replay-slider]").addEventListener("input", (event) => showPly(Number(event.target.value)));
  $("[data-role=replay-record]").addEventListener("click", (event) => {
    const li = event.target.closest("li");
    if (li) showPly(Number(li.dataset.ply));
  });
  wireReview();
  document.addEventListener("keydown", (event) => {
    if ($("#games").hidden || !replay.data || event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft") showPly(replay.ply - 1);
    if (event.key === "ArrowRight") showPly(replay.ply + 1);
  });
}
