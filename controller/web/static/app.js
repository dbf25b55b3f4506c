// reedboard's web view: draws the board in SVG from the session's snapshots (pushed over a
// WebSocket) and sends the page's actions as JSON POSTs. Plain JS modules, no build step; this
// one puts the page together: its parts wired, the tabs, the language, then the live connection.
import { games, loadCatalog } from "./catalog.js";
import { $, $$ } from "./dom.js";
import { checkControl, wireControls } from "./controls.js";
import { LANGUAGE_NAMES, language, onLanguage, startLanguage, useLanguage } from "./i18n.js";
import { render, renderAgain, wireGuide } from "./live.js";
import { renderGameChoices, renderNewGameAgain, wireNewGame } from "./new_game.js";
import { loadGames, showGamesAgain, wirePastGames } from "./past_games.js";
import { showReplayAgain, wireReplay } from "./replay.js";
import { currentRulesGame, forgetRulesPages, renderRulesGames, showRules, wireRules } from "./rules.js";
import { connect, onSnapshot } from "./server.js";
import { state } from "./state.js";
import { wireVoice } from "./voice.js";
import { wireZoom } from "./zoom.js";

function showTab(name) {
  for (const t of $$("[data-tab]")) t.classList.toggle("active", t.dataset.tab === name);
  for (const view of ["live", "games", "rules"]) $(`#${view}`).hidden = view !== name;
  if (name === "games") loadGames();
  const first = games()[0];
  if (name === "rules") showRules(currentRulesGame() || (state.snap && state.snap.game) || (first && first.name));
}

function wireTabs() {
  for (const tab of $$("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
}

// The language choice in the header: each language in its own name; the choice is remembered.
function wireLanguage() {
  const select = $("[data-role=language]");
  for (const [code, name] of Object.entries(LANGUAGE_NAMES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.appendChild(option);
  }
  select.value = language();
  select.addEventListener("change", () => useLanguage(select.value, true));
}

// Everything on the page in the language just chosen: the live game, the rules (asked for again
// in that language), the past games and the new-game dialog.
onLanguage(() => {
  const select = $("[data-role=language]");
  if (select && select.value !== language()) select.value = language();
  renderNewGameAgain();
  // the start options' words in the new language: the dialog and the moves card's set-up lines
  loadCatalog().then(() => { renderNewGameAgain(); renderAgain(); });
  renderAgain();
  forgetRulesPages();
  if (!$("#rules").hidden && currentRulesGame()) showRules(currentRulesGame());
  if (!$("#games").hidden) { showGamesAgain(); showReplayAgain(); }
});

onSnapshot(render);
wireTabs();
wireGuide();
wireControls();
wireNewGame();
wirePastGames();
wireReplay();
wireRules();
wireVoice();
wireZoom();
const catalogRead = loadCatalog().then(() => { renderGameChoices(); renderRulesGames(); });
Promise.all([startLanguage(), checkControl(), catalogRead]).then(() => {
  wireLanguage();
  connect();
  if (state.snap) { const s = state.snap; state.seq = 0; render(s); }
});
