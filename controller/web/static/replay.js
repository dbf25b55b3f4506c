// One past game replayed move by move on the board drawing: the buttons, the slider, the
// list of moves and the arrow keys step through it; its record and pictures to download.
import { buildBoard, paint } from "./board.js";
import { gameInfo } from "./catalog.js";
import { $, $$, escapeHTML, toast } from "./dom.js";
import { _, dateTime, format, languageHeaders, number, side } from "./i18n.js";
import { renderRecord } from "./move_list.js";
import { savePicture } from "./picture.js";
import { state } from "./state.js";

const replay = { data: null, ply: 0 };  // the game replayed (GET api/games/NAME), the move shown

export async function openGame(name) {
  let data;
  try {
    const response = await fetch(`api/games/${encodeURIComponent(name)}`, { headers: languageHeaders() });
    data = await response.json();
    if (!response.ok) { toast(data.error || _("cannot open the game")); return; }
  } catch (error) { toast(_("cannot open the game")); return; }
  replay.data = data;
  replay.ply = data.record.length;
  $("[data-role=replay]").hidden = false;
  showWords();
  $("[data-role=replay-download]").href = `api/games/${encodeURIComponent(name)}/record`;
  $("[data-role=replay-record-download]").href = `api/games/${encodeURIComponent(name)}/record?format=record`;
  $("[data-role=replay-header]").innerHTML = data.header.slice(1).map((l) => `<div>${escapeHTML(l)}</div>`).join("");
  const slider = $("[data-role=replay-slider]");
  slider.max = String(data.record.length);
  const svg = $("#replay-board");
  const board = buildBoard(svg, data.geometry, data.cells, data.players);
  state.boards.set(svg, board);
  showPly(replay.ply);
  $("[data-role=replay]").scrollIntoView({ block: "start", behavior: "smooth" });
}

// The replayed game's title and result in the page's language.
function showWords() {
  const data = replay.data;
  const started = new Date(data.started || "");
  const when = Number.isNaN(started.getTime()) ? String(data.started || "").replace("T", " ").slice(0, 16) : dateTime(started);
  $("[data-role=replay-title]").textContent = `${data.title || gameInfo(data.game).title}, ${when}`;
  $("[data-role=replay-result]").textContent = (data.result || _("unfinished")) + (data.note ? ` · ${data.note}` : "");
}

// The replay open, in the language just chosen.
export function showReplayAgain() {
  if (!replay.data || $("[data-role=replay]").hidden) return;
  showWords();
  showPly(replay.ply);
}

function showPly(ply) {
  const data = replay.data;
  if (!data) return;
  ply = Math.max(0, Math.min(ply, data.record.length));
  replay.ply = ply;
  const position = data.positions[ply];
  const cells = {};
  for (const cell of data.cells) {
    cells[cell] = { piece: position.pieces[cell] || "", light: position.last.includes(cell) ? "last" : "" };
  }
  paint(state.boards.get($("#replay-board")), cells, {}, false);
  $("[data-role=replay-ply]").textContent = format(_("move {ply} of {moves}"),
    { ply: number(ply), moves: number(data.record.length) });
  $("[data-role=replay-slider]").value = String(ply);
  $("[data-role=replay-turn]").textContent = ply === data.record.length && data.result ? data.result
    : format(_("{player} to move"), { player: side(position.turn) });
  $("[data-role=replay-score]").textContent = position.score
    ? data.players.map((p) => `${side(p)} ${number(position.score[p])}`).join(" · ") : "";
  renderRecord($("[data-role=replay-record]"), data.record, data.players, ply - 1);
}

export function wireReplay() {
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
  document.addEventListener("keydown", (event) => {
    if ($("#games").hidden || !replay.data || event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft") showPly(replay.ply - 1);
    if (event.key === "ArrowRight") showPly(replay.ply + 1);
  });
}
