// The page's controls of the live game: the simulated board (a click lifts or puts down a
// piece, the hand and the box), the die and OK, resigning, a draw, a hint, the same game again;
// and whether this page may use them at all (api/auth).
import { $, $$ } from "./dom.js";
import { Side, _, format } from "./i18n.js";
import { headers } from "./owner_token.js";
import { post } from "./server.js";
import { state } from "./state.js";
import { followPointer } from "./tray.js";

export async function checkControl() {
  try {
    const response = await fetch("api/auth", { headers: headers(false) });
    const auth = await response.json();
    state.control = auth.control;
    state.tokenRequired = auth.token_required;
  } catch (error) {
    state.control = false;
  }
  $("[data-role=watching]").hidden = state.control;
  $("[data-role=watch-note]").hidden = state.control || !state.tokenRequired;  // how to get control
  document.body.dataset.control = state.control ? "1" : "";
}

// --- the page's actions ----------------------------------------------------------------------------------
export function wireControls() {
  $("#board").addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (!cell || !state.control || !state.snap || !state.snap.sim) return;
    post("api/click", { cell: cell.dataset.cell });
  });
  const area = $("#live .board-area");
  area.addEventListener("pointermove", (event) => {
    const box = area.getBoundingClientRect();
    followPointer([event.clientX - box.left, event.clientY - box.top]);
  });
  area.addEventListener("pointerleave", () => followPointer(null));
  $("[data-role=hand]").addEventListener("click", (event) => {
    const b = event.target.closest("[data-hand]");
    if (b && state.control) post("api/select", { index: Number(b.dataset.hand) });
  });
  $("[data-role=box]").addEventListener("click", (event) => {
    const b = event.target.closest("[data-box]");
    if (b && state.control) post("api/take", { index: Number(b.dataset.box) });
  });
  $("[data-action=aside]").addEventListener("click", () => {
    const snap = state.snap;
    post("api/aside", snap && snap.selected != null ? { index: snap.selected } : {});
  });
  $("[data-action=die]").addEventListener("click", () => post("api/press", { button: "die" }));
  $("[data-action=ok]").addEventListener("click", () => post("api/press", { button: "ok" }));
  for (const b of $$("[data-action=resign]")) {
    b.addEventListener("click", () => {
      if (confirm(format(_("{player} resigns?"), { player: Side(b.dataset.player) }))) post("api/resign", { player: b.dataset.player });
    });
  }
  $("[data-action=hint]").addEventListener("click", () => post("api/hint", {}));
  // the same game again: left out, the game, players, computer, clock and settings stay as they were
  $("[data-action=again]").addEventListener("click", () => post("api/new", {}));
  $("[data-action=other-game]").addEventListener("click", () => {
    const details = $("details.new-game");
    details.open = true;
    details.scrollIntoView({ block: "start", behavior: "smooth" });
  });
  $("[data-action=draw]").addEventListener("click", () => {
    if (confirm(_("Both players agree to a draw?"))) post("api/draw", {});
  });
}
