// The live game: each snapshot drawn on the page (the board, whose turn, the die, the score,
// the messages, the record, the end), and beside the board what its lights mean now. The
// board's own words (the prompt, the notes, how the game ended) come in the snapshot in the
// page's language (`words`; the club's copy brings every language); a snapshot without them
// (an older board in the club) brings English.
import { buildBoard, lightColour, lightSwatch, paint } from "./board.js";
import { gameInfo } from "./catalog.js";
import { renderClock } from "./clock.js";
import { $, $$, escapeHTML } from "./dom.js";
import { headerWords } from "./header_words.js";
import { N_, Side, _, format, language, number, side } from "./i18n.js";
import { renderRecord } from "./move_list.js";
import { renderNewGame } from "./new_game.js";
import { cachedRulesPage, renderRulesGames, rulesPage } from "./rules.js";
import { state } from "./state.js";
import { positionCursor, renderTray } from "./tray.js";
import { announce, storeVoiceSetting, voiceSetting } from "./voice.js";
import { fitZoom } from "./zoom.js";

const examples = new Map();  // game -> a geometry from its rules page, when the snapshot has none

// Does the snapshot bring the board's words in the page's language? One of the same number that
// does is drawn again over one that does not (the page's language just changed).
function inPageLanguage(snap) { return Boolean(snap && snap.words && snap.words[language()]); }

// The board's words in the page's language: the snapshot's, else its English lines, else the
// language it came in (until the snapshot in the page's new language arrives).
function boardWords(snap) {
  const all = snap.words || {};
  const words = all[language()] || all.en || Object.values(all)[0];
  const notes = (words && words.notes) || {};
  return {
    message: words ? words.message : snap.message,
    note: (n) => (n && Object.prototype.hasOwnProperty.call(notes, n.n) ? notes[n.n] : (n && n.text) || ""),
    ending: (outcome) => (words && words.ending) || outcome.words || outcome.reason,
  };
}

// The current snapshot drawn again (the language changed).
export function renderAgain() {
  if (!state.snap) return;
  const snap = state.snap;
  state.seq = 0;
  render(snap);
}

// A waiting ball by its colour (a game that sets one aside), each colour in its own words.
const WAITING = {
  red: N_("a red ball waits to be put back"), yellow: N_("a yellow ball waits to be put back"),
};

export function render(snap) {
  if (!snap || !snap.seq || snap.seq < state.seq) return;
  if (snap.seq === state.seq && (inPageLanguage(state.snap) || !inPageLanguage(snap))) return;
  state.seq = snap.seq;
  state.snap = snap;
  renderLink(snap.link);
  if (!snap.cells) return;
  drawLive(snap);
  document.body.dataset.game = snap.game;
  document.body.dataset.die = gameInfo(snap.game).uses_die ? "1" : "";
  document.body.dataset.phase = snap.phase;
  $("[data-role=game-name]").textContent = `· ${gameInfo(snap.game).title}`;

  // turn
  const over = snap.phase === "over";
  const turnLight = $("[data-role=turn-light]");
  turnLight.style.background = snap.turn_light ? lightColour(snap.turn_light, snap.palette) : "#2b3036";
  turnLight.dataset.colour = snap.turn_light || "";
  const settingUp = snap.phase === "setup" || snap.phase === "identify";
  $("[data-role=turn]").textContent = over ? _("game over") : settingUp ? _("setting up")
    : format(_("{player} to move"), { player: side(snap.turn) });
  $("[data-role=phase]").textContent = {
    setup: format(_("{player} moves first"), { player: side(snap.turn) }), identify: _("identifying the stones"),
    play: "", rolled: format(_("rolled {value}"), { value: number(snap.roll) }), over: "",
  }[snap.phase] || "";

  // die
  renderDie(snap);

  // score
  const scoreCard = $("[data-role=score-card]");
  scoreCard.hidden = !snap.score;
  if (snap.score) {
    $("[data-role=score]").innerHTML = snap.players.map((p) =>
      `<span class="score-${escapeHTML(p)}" data-player="${escapeHTML(p)}"><i></i>${escapeHTML(side(p))}`
      + ` <b>${escapeHTML(snap.score[p])}</b></span>`).join("");
    $("[data-role=waiting]").textContent = !snap.waiting ? ""
      : WAITING[snap.waiting] ? _(WAITING[snap.waiting])
        : format(_("a {colour} ball waits to be put back"), { colour: side(snap.waiting) });
  }

  // messages
  const said = boardWords(snap);
  const message = $("[data-role=message]");
  $("[data-role=status]").textContent = snap.error || said.message;
  const seating = settingUp ? seatingWords(snap) : "";
  $("[data-role=seating]").textContent = seating;
  $("[data-role=seating]").hidden = !seating;
  const latest = snap.notes && snap.notes[0] ? said.note(snap.notes[0]) : "";
  $("[data-role=event]").textContent = latest && latest !== said.message ? latest : "";
  message.dataset.kind = messageKind(snap);
  message.dataset.prompt = (snap.prompt || {}).kind || "";

  // the game clock
  renderClock(snap);

  // record
  $("[data-role=header]").innerHTML = (snap.header || []).slice(1).map((l) => `<div>${escapeHTML(headerWords(l, snap.game))}</div>`).join("");
  renderRecord($("[data-role=record]"), snap.record, snap.players, snap.record.length - 1);
  $("[data-role=result]").textContent = snap.outcome ? `${snap.outcome.line}` : "";
  renderPlayers(snap);
  renderOver(snap);
  renderFirstGame(snap);

  // notes
  $("[data-role=notes]").innerHTML = (snap.notes || []).map((n) =>
    `<li><span class="t">${escapeHTML(number(Number(n.t), 1))}s</span> ${escapeHTML(said.note(n))}</li>`).join("");
  $("[data-role=journal]").textContent = snap.journal ? format(_("journal: {file}"), { file: snap.journal }) : "";
  announce(snap);

  // hands and box (simulated board)
  renderTray(snap);

  // controls
  const resign = $$("[data-action=resign]");
  snap.players.forEach((p, i) => {
    resign[i].dataset.player = p;
    resign[i].textContent = format(_("{player} resigns"), { player: Side(p) });
    resign[i].hidden = Boolean(snap.computer && snap.computer.plays === p);  // the computer never gives up
  });
  const playing = snap.phase === "play" || snap.phase === "rolled";
  for (const b of resign) b.disabled = !state.control || !playing;
  $("[data-action=draw]").disabled = !state.control || !playing;
  const computersTurn = snap.prompt && snap.prompt.kind === "computer";
  $("[data-action=hint]").disabled = !state.control || !playing || computersTurn;
  document.body.dataset.thinking = snap.thinking ? "1" : "";
  $("[data-action=die]").disabled = !state.control || snap.phase !== "play";
  $("[data-action=ok]").disabled = !state.control || !snap.running;
  renderNewGame(snap);
  renderRulesGames();
  document.body.dataset.control = state.control ? "1" : "";
  positionCursor();
}

// Beside the board: what each light lit now means, and how the hands make this game's moves.
function renderFirstGame(snap) {
  const page = cachedRulesPage(snap.game);
  if (!page) {  // drawn when the game's rules page arrives
    rulesPage(snap.game).then((p) => { if (p && state.snap && state.snap.game === p.game) renderFirstGame(state.snap); });
    return;
  }
  const hands = $("[data-role=guide-hands]");
  const shown = `${language()}:${page.game}`;
  if (hands.dataset.game !== shown) {
    hands.innerHTML = (page.hands || []).map((point) => `<li>${escapeHTML(point)}</li>`).join("");
    hands.dataset.game = shown;
  }
  const lit = new Set(Object.values(snap.cells || {}).map((c) => c.light).filter(Boolean));
  const palette = { ...page.palette, ...snap.palette };
  const rows = page.lights.filter((light) => lit.has(light.name)).map((light) => lightNow(light, snap));
  const key = rows.map((l) => l.name).join(",") + (snap.phase === "identify" ? ":identify" : "");
  const now = $("[data-role=lights-now]");
  const nothingLit = _("No hollow is lit: nothing to put right.");
  if (now.dataset.lights === key && now.dataset.game === shown) return;
  now.innerHTML = rows.length ? rows.map((light) => {
    const colour = light.name === "last" ? lightColour("last", palette) : palette[light.name] || light.colour || "";
    return `<div class="light-now" data-light-now="${escapeHTML(light.name)}">${lightSwatch(light.name, colour, light.blink)}`
      + `<div><b>${escapeHTML(light.look)}</b> ${escapeHTML(light.means)} <span class="muted">${escapeHTML(light.do)}</span></div></div>`;
  }).join("") : `<p class="empty-note">${escapeHTML(nothingLit)}</p>`;
  now.dataset.lights = key;
  now.dataset.game = shown;
}

// A light as it means now: while the stones are identified, green steady is every stone whose
// number the board does not know yet (not the stone the die chose: nothing is rolled yet).
function lightNow(light, snap) {
  if (snap.phase !== "identify" || light.name !== "movable") return light;
  return {
    ...light,
    means: _("Identifying the stones: each stone lit is one whose number the board does not know yet."),
    do: snap.sim ? _("Lift any lit stone and put it back: the stones here show no numbers, it becomes the one asked for.")
      : _("Lift the stone with the number the die display shows, then put it back on its hollow."),
  };
}

// Who plays: each side's name (or colour), the computer's side with its level.
function sideName(snap, p) {
  if (snap.computer && snap.computer.plays === p) {
    return format(_("the computer, level {level}"), { level: number(snap.computer.level) });
  }
  return (snap.names || {})[p] || "";
}

function renderPlayers(snap) {
  const line = $("[data-role=players]");
  const named = snap.players.some((p) => sideName(snap, p));
  const occasion = occasionWords(snap);
  line.innerHTML = (occasion ? `<span class="occasion" data-role="occasion">${escapeHTML(occasion)}</span>` : "")
    + (!named ? "" : snap.players.map((p) => {
      const name = sideName(snap, p);
      return `<span class="side" data-player="${escapeHTML(p)}"><i></i>${escapeHTML(Side(p))}`
        + `${name ? `: <b>${escapeHTML(name)}</b>` : ""}</span>`;
    }).join(" "));
  line.dataset.computer = snap.computer ? String(snap.computer.level) : "";
}

// A tournament's game (its journal's header keeps the same): the tournament, the round, the board number.
function occasionWords(snap) {
  const occasion = snap.occasion;
  if (!occasion || !occasion.round) return "";
  const where = { round: number(occasion.round), board: number(occasion.table) };
  return occasion.event ? format(_("{event}, round {round}, board {board}"), { event: occasion.event, ...where })
    : format(_("Round {round}, board {board}"), where);
}

// Who sits where, said with the set-up prompt: "Round 3, board 5: Ann Lee plays black, Bo Chen plays white."
function seatingWords(snap) {
  const names = snap.players.filter((p) => (snap.names || {})[p] && !(snap.computer && snap.computer.plays === p));
  if (!names.length) return "";
  const seats = names.map((p) => format(_("{name} plays {colour}"), { name: snap.names[p], colour: side(p) })).join(", ");
  const occasion = snap.occasion;
  return occasion && occasion.round
    ? format(_("Round {round}, board {board}: {seats}."), { round: number(occasion.round), board: number(occasion.table), seats })
    : `${seats}.`;
}

// The end: who won and why, in words, and the next game a click away.
function renderOver(snap) {
  const card = $("[data-role=over]");
  const outcome = snap.phase === "over" ? snap.outcome : null;
  card.hidden = !outcome;
  if (!outcome) return;
  const winner = outcome.winner;
  const who = winner ? (sideName(snap, winner) ? `${Side(winner)} (${sideName(snap, winner)})` : Side(winner)) : "";
  $("[data-role=over-title]").textContent = winner ? format(_("{player} wins"), { player: who }) : _("A draw");
  $("[data-role=over-words]").textContent = `${boardWords(snap).ending(outcome)} · ${outcome.result}`;
  $("[data-action=again]").disabled = !state.control;
  $("[data-action=other-game]").disabled = !state.control;
}

// The live board, drawn again when its geometry changes, then painted with the snapshot's cells.
function drawLive(snap) {
  const geometry = snap.geometry || exampleGeometry(snap.game);
  if (!geometry) return;  // drawn when the example geometry arrives
  const svg = $("#board");
  const key = [snap.game, snap.order.join(","), geometry.shape, JSON.stringify(geometry.sectors || [])].join("|");
  let board = state.boards.get(svg);
  if (!board || board.key !== key) {
    board = buildBoard(svg, geometry, snap.order, snap.players);
    board.key = key;
    state.boards.set(svg, board);
    fitZoom();  // another board: its hollows may want the zoom, or not
  }
  paint(board, snap.cells, snap.palette, snap.sim);
}

// A snapshot without geometry: the geometry of the game's first rules diagram (its start).
function exampleGeometry(game) {
  if (examples.has(game)) return examples.get(game);
  examples.set(game, null);
  rulesPage(game).then((page) => {
    if (!page || !page.diagrams.length) return;
    examples.set(game, page.diagrams[0].geometry);
    if (state.snap && state.snap.game === game && !state.snap.geometry) drawLive(state.snap);
  });
  return null;
}

// The board's link: a banner while it is lost (the lights cannot say that the board is gone),
// saying why in the page's words (the board's own line where the page has none).
const LINK_LOST = {
  unplugged: N_("the board is unplugged: plug it in again; the game waits"),
  silent: N_("the board does not answer: check its cable; the game waits"),
  refused: N_("the board does not fit this controller (its firmware or board file; see the log): the game waits"),
};

function renderLink(link) {
  const banner = $("[data-role=link]");
  if (!banner) return;
  const lost = !!link && link.state === "lost";
  banner.hidden = !lost;
  banner.dataset.state = link ? link.state : "";
  banner.textContent = !lost ? "" : LINK_LOST[link.why] ? _(LINK_LOST[link.why]) : link.text;
}

// The message card's look, from what is asked of the players (the prompt) and the latest note.
const PROMPT_LOOKS = {
  put_back: "illegal", choose: "choose", clear: "setup", fill: "setup", place: "setup", identify: "setup",
  over: "over", computer: "computer",
};

function messageKind(snap) {
  if (snap.error) return "error";
  const prompt = snap.prompt || {};
  if (PROMPT_LOOKS[prompt.kind]) return PROMPT_LOOKS[prompt.kind];
  if (snap.phase === "over") return "over";
  if (snap.phase === "setup" || snap.phase === "identify") return "setup";
  const latest = (snap.notes || [])[0] || {};
  if (latest.kind === "takeback" || latest.kind === "amend") return "takeback";
  return "";
}

function renderDie(snap) {
  const die = snap.die || { face: "blank", value: null, pips: 0 };
  const display = $("[data-role=die]");
  display.dataset.face = die.face;
  display.dataset.value = die.value == null ? "" : String(die.value);
  display.textContent = die.face === "value" ? String(die.value) : die.face === "error" ? "Err" : "";
  display.title = {
    blank: _("no roll"), rolling: _("rolling"), value: format(_("shows {value}"), { value: die.value }),
    error: format(_("error (the roll was {value})"), { value: die.value }),
  }[die.face] || "";
  const pips = $("[data-role=pips]");
  pips.dataset.pips = String(die.pips || 0);
  pips.dataset.rolling = die.face === "rolling" ? "1" : "";
}

// the first-game guide open until it is closed once (remembered in this browser)
export function wireGuide() {
  const guide = $("[data-role=guide]");
  guide.open = voiceSetting("guide") !== "0";
  guide.addEventListener("toggle", () => storeVoiceSetting("guide", guide.open ? "1" : "0"));
}
