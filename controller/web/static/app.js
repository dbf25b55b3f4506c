// reedboard's web view: draws the board in SVG from the session's snapshots (pushed over a
// WebSocket) and sends the page's actions as JSON POSTs. Plain JS modules, no build step; this
// one puts the page together: its parts wired, the tabs, then the live connection.
import { games, loadCatalog } from "./catalog.js";
import { $, $$ } from "./dom.js";
import { checkControl, wireControls } from "./controls.js";
import { render, wireGuide } from "./live.js";
import { renderGameChoices, wireNewGame } from "./new_game.js";
import { loadGames, wirePastGames } from "./past_games.js";
import { wireReplay } from "./replay.js";
import { currentRulesGame, renderRulesGames, showRules, wireRules } from "./rules.js";
import { connect, onSnapshot } from "./server.js";
import { state } from "./state.js";
import { wireVoice } from "./voice.js";

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

onSnapshot(render);
wireTabs();
wireGuide();
wireControls();
wireNewGame();
wirePastGames();
wireReplay();
wireRules();
wireVoice();
const catalogRead = loadCatalog().then(() => { renderGameChoices(); renderRulesGames(); });
Promise.all([checkControl(), catalogRead]).then(() => {
  connect();
  if (state.snap) { const s = state.snap; state.seq = 0; render(s); }
});
