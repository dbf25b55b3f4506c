// The new-game dialog: the games, their set-up modes and start options, the clock, the
// computer and the players' names; sent as POST api/new.
import { gameInfo, games } from "./catalog.js";
import { $, $$, escapeHTML } from "./dom.js";
import { N_, Side, _, format, language, languageHeaders, ngettext, number, side } from "./i18n.js";
import { post } from "./server.js";
import { state } from "./state.js";

// The games, their set-up modes and their start options come from the registry (the snapshot's
// "games", or the catalog); an option with choices is a select, a free-text one (a file) is only
// for the command line.
const SETUP_LABELS = { auto: N_("as the board is"), shuffle: N_("guided shuffle"), identify: N_("identify the stones") };

// A new game starts from two players at the board: the computer, and its level, are chosen each
// time (the level the command line's "computer" means); "Play again" keeps the last game's.
const DEFAULT_LEVEL = 5;

// A game with moves made, not over: a new game would end it (it stays, unfinished, in the past games).
export function gameInProgress(snap) {
  return Boolean(snap && (snap.phase === "play" || snap.phase === "rolled") && (snap.record || []).length);
}

export function renderGameChoices() {
  const list = games();
  const names = list.map((g) => g.name).join(",");
  const choices = $("[data-role=game-choices]");
  if (choices && choices.dataset.names !== names) {
    const chosen = $("[data-role=new-game]").elements.game;
    const keep = chosen && chosen.value;
    choices.innerHTML = list.map((g) =>
      `<label><input type="radio" name="game" value="${escapeHTML(g.name)}"> ${escapeHTML(g.title)}</label>`).join("");
    choices.dataset.names = names;
    if (keep) setRadio($("[data-role=new-game]"), "game", keep);
  }
}

// The sides of the game chosen in the form: which one the computer plays, and a name for each.
export function renderSides(form, snap) {
  const chosen = (form.elements.game && form.elements.game.value) || snap.game;
  const info = gameInfo(chosen) || {};
  const players = chosen === snap.game ? snap.players : (info.players || snap.players);
  const select = $("[data-role=computer-plays]", form);
  const key = `${language()}:${players.join(",")}`;
  if (select.dataset.players !== key) {
    const kept = select.value;
    select.innerHTML = players.map((p) => `<option value="${escapeHTML(p)}">${escapeHTML(Side(p))}</option>`).join("");
    select.value = players.includes(kept) ? kept : players[players.length - 1];
    select.dataset.players = key;
    const names = $("[data-role=name-fields]", form);
    const typed = Object.fromEntries($$("input[data-name]", names).map((i) => [i.dataset.name, i.value]));
    names.innerHTML = players.map((p) =>
      `<label>${escapeHTML(Side(p))} <input type="text" maxlength="40" data-name="${escapeHTML(p)}"`
      + ` value="${escapeHTML(typed[p] || (snap.names || {})[p] || "")}"></label>`).join("");
  }
  if (!form.dataset.touched) {  // two players at the board, whoever played the last game
    form.elements.computer.checked = false;
    form.elements.level.value = String(DEFAULT_LEVEL);
    select.value = players[players.length - 1];
  }
}

// The dialog in the language just chosen: its labels drawn again, what was filled in kept.
export function renderNewGameAgain() {
  delete $("[data-role=setup-choices]").dataset.modes;
  delete $("[data-role=game-options]").dataset.key;
  if (state.snap && state.snap.players) renderNewGame(state.snap);
}

export function renderNewGame(snap) {
  const form = $("[data-role=new-game]");
  renderGameChoices();
  if (!form.dataset.touched) {
    setRadio(form, "game", snap.game);
    form.elements.takebacks.checked = snap.settings.takebacks;
    const clock = snap.clock;
    form.elements.clock.checked = clock != null;
    if (clock != null) {
      form.elements.minutes.value = String(+(clock.initial / 60).toFixed(2));
      form.elements.increment.value = String(clock.increment);
    }
  }
  renderSides(form, snap);
  showNewGameFields(form);
  const offered = $$("input[name=setup]", form).map((i) => i.value);
  if (!form.dataset.touched && offered.includes(snap.setup_mode)) setRadio(form, "setup", snap.setup_mode);
}

function chosenGame(form) {
  const chosen = $("input[name=game]:checked", form);
  return chosen ? chosen.value : (state.snap && state.snap.game) || "";
}

function setRadio(form, name, value) {
  for (const input of $$(`input[name=${name}]`, form)) input.checked = input.value === value;
}

// The chosen game's set-up modes and start options; the clock's numbers only matter with a clock.
function showNewGameFields(form) {
  const name = chosenGame(form), info = gameInfo(name), snap = state.snap;
  let modes = info.setup_modes || [];
  if (!modes.length && snap && snap.game === name && !snap.games) modes = snap.setup_modes || [];
  const choices = $("[data-role=setup-choices]");
  if (choices.dataset.modes !== modes.join(",")) {
    const chosen = $("input[name=setup]:checked", form);
    const kept = chosen && modes.includes(chosen.value) ? chosen.value : null;
    choices.innerHTML = modes.map((m) =>
      `<label><input type="radio" name="setup" value="${escapeHTML(m)}"> ${escapeHTML(SETUP_LABELS[m] ? _(SETUP_LABELS[m]) : m)}</label>`).join("");
    choices.dataset.modes = modes.join(",");
    const current = snap && snap.game === name && modes.includes(snap.setup_mode) ? snap.setup_mode : modes[0];
    if (modes.length) setRadio(form, "setup", kept || current);
  }
  $("[data-role=setup-modes]").hidden = !modes.length;
  const options = (info.options || []).filter((o) => o.choices && o.choices.length);
  const holder = $("[data-role=game-options]");
  const key = name + "|" + options.map((o) => `${o.flag}:${o.label}`).join(",");
  if (holder.dataset.key !== key) {
    const byDefault = _("default");
    const kept = Object.fromEntries($$("select[data-option]", holder).map((s) => [s.dataset.option, s.value]));
    holder.innerHTML = options.map((o) =>
      `<label title="${escapeHTML(o.help || "")}">${escapeHTML(o.label || o.flag)} <select data-option="${escapeHTML(o.flag)}">`
      + (o.default ? "" : `<option value="">${escapeHTML(byDefault)}</option>`)
      + o.choices.map((c, i) => `<option value="${escapeHTML(c)}"${c === o.default ? " selected" : ""}>`
        + `${escapeHTML((o.choice_labels && o.choice_labels[i]) || side(c))}</option>`).join("")
      + `</select></label>`).join("");
    for (const select of $$("select[data-option]", holder)) {
      const value = kept[select.dataset.option];
      if ([...select.options].some((option) => option.value === value)) select.value = value;
    }
    holder.dataset.key = key;
  }
  holder.hidden = !options.length;
  for (const field of ["minutes", "increment"]) form.elements[field].disabled = !form.elements.clock.checked;
  showLevels(form, info);
}

// Each level with its rating on the ladder's scale (Elo, as bench/ladder.py measured it), and
// where a club player stands on it; a level not measured keeps its plain words.
const CLUB_PLAYER = 1500;
function showLevels(form, info) {
  const rated = Object.fromEntries((info.levels || []).map((l) => [String(l.level), l]));
  // the game's own levels, 1 to its strongest (a game's ladder ends where its steps do)
  const select = form.elements.level;
  const strongest = info.top_level || 10;
  if (select.options.length !== strongest) {
    const kept = Number(select.value) || DEFAULT_LEVEL;
    select.innerHTML = Array.from({ length: strongest }, (_unused, i) => `<option value="${i + 1}">${i + 1}</option>`).join("");
    select.value = String(Math.min(kept, strongest));
  }
  for (const option of select.options) {
    const level = rated[option.value];
    if (level) option.textContent = format(_("{level} — about {rating}"), { level: option.value, rating: number(level.rating) });
    else if (option.value === "1") option.textContent = _("1 (a child can win)");
    else if (Number(option.value) === strongest) option.textContent = format(_("{level} (the strongest)"), { level: option.value });
    else option.textContent = option.value;
  }
  const scale = $("[data-role=level-scale]");
  scale.textContent = format(_("Ratings on one scale: a beginner is about {beginner}, a club player about {club}."),
    { beginner: number(800), club: number(CLUB_PLAYER) });
  scale.hidden = !Object.keys(rated).length;
  showPlayerRating(form, Object.keys(rated).length > 0);
}

// The people's own rating from their finished games against the computer in the archive (the
// name typed for the side the computer does not play, else everyone's at this board), and the
// level to climb to next.
let ratingAsked = "";
async function showPlayerRating(form, rated) {
  const line = $("[data-role=player-rating]");
  const game = chosenGame(form);
  const people = $$("input[data-name]", form).filter((i) => i.dataset.name !== form.elements.plays.value);
  const name = people.length === 1 ? people[0].value.trim() : "";
  const key = [game, name, language(), rated, form.elements.computer.checked].join("|");
  if (key === ratingAsked) return;
  ratingAsked = key;
  if (!rated || !form.elements.computer.checked || !game) { line.hidden = true; return; }
  let answer = null;
  try {
    const query = new URLSearchParams({ game, ...(name ? { player: name } : {}) });
    const response = await fetch(`api/rating?${query}`, { headers: languageHeaders() });
    if (response.ok) answer = await response.json();
  } catch (error) { /* no archive to rate from: nothing said */ }
  if (ratingAsked !== key) return;  // asked again meanwhile
  if (!answer || !answer.rating) { line.hidden = true; return; }
  const words = name
    ? ngettext("{name}'s rating from {n} game against the computer: about {rating}; try level {level} next.",
      "{name}'s rating from {n} games against the computer: about {rating}; try level {level} next.", answer.games,
      { name, rating: number(answer.rating), level: answer.suggested })
    : ngettext("The rating from {n} game against the computer at this board: about {rating}; try level {level} next.",
      "The rating from {n} games against the computer at this board: about {rating}; try level {level} next.",
      answer.games, { rating: number(answer.rating), level: answer.suggested });
  line.textContent = words;
  line.hidden = false;
}

function chosenOptions(form) {
  const options = {};
  const info = gameInfo(chosenGame(form));
  const defaults = Object.fromEntries((info.options || []).map((o) => [o.flag, o.default]));
  for (const select of $$("[data-role=game-options] select[data-option]", form)) {
    if (select.value && select.value !== defaults[select.dataset.option]) options[select.dataset.option] = select.value;
  }
  return options;
}

export function wireNewGame() {
  const form = $("[data-role=new-game]");
  form.addEventListener("input", (event) => {
    if (event.target.matches("input[data-name]")) showPlayerRating(form, true);
  });
  form.addEventListener("change", () => {
    form.dataset.touched = "1";
    if (state.snap && state.snap.players) renderSides(form, state.snap);  // the sides of the game picked
    showNewGameFields(form);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const ends = _("Start a new game? The game in progress ends here, unfinished (it stays in the past games).");
    if (gameInProgress(state.snap) && !confirm(ends)) return;
    const body = {
      game: form.elements.game.value || undefined,
      empty: form.elements.empty.checked,
      settings: { takebacks: form.elements.takebacks.checked },
      clock: form.elements.clock.checked
        ? { minutes: Number(form.elements.minutes.value), increment: Number(form.elements.increment.value) || 0 }
        : null,
    };
    const setup = $("input[name=setup]:checked", form);
    if (setup && !$("[data-role=setup-modes]").hidden) body.setup = setup.value;
    const options = chosenOptions(form);
    if (Object.keys(options).length) body.options = options;
    body.computer = form.elements.computer.checked
      ? { level: Number(form.elements.level.value), plays: form.elements.plays.value } : null;
    const names = {};
    for (const input of $$("input[data-name]", form)) if (input.value.trim()) names[input.dataset.name] = input.value.trim();
    body.players = names;
    const done = await post("api/new", body);
    if (done) { delete form.dataset.touched; form.closest("details").open = false; }
  });
}
