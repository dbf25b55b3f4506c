// The game clock: each player's time; the running one counts down here between snapshots.
import { $, $$, escapeHTML } from "./dom.js";
import { Side } from "./i18n.js";
import { state } from "./state.js";

let clockAt = 0;  // performance.now() when the snapshot with the clock came

function clockSeconds(clock, player, now) {
  let left = Number(clock.remaining && clock.remaining[player]) || 0;
  if (clock.running === player && !clock.flagged) left -= (now - clockAt) / 1000;
  return Math.max(0, left);
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export function renderClock(snap) {
  const card = $("[data-role=clock]");
  const clock = snap.clock;
  card.hidden = clock == null;
  if (clock == null) { card.innerHTML = ""; return; }
  clockAt = performance.now();
  card.innerHTML = snap.players.map((p) =>
    `<div class="clock" data-player="${escapeHTML(p)}"><span class="who">${escapeHTML(Side(p))}</span>`
    + `<span class="time" data-role="clock-time"></span></div>`).join("");
  tickClock();
}

function tickClock() {
  const snap = state.snap, clock = snap && snap.clock;
  if (!clock) return;
  const now = performance.now();
  for (const face of $$("[data-role=clock] .clock")) {
    const p = face.dataset.player, left = clockSeconds(clock, p, now);
    face.querySelector(".time").textContent = clockText(left);
    face.dataset.running = clock.running === p ? "1" : "";
    face.dataset.low = (clock.low || []).includes(p) || (clock.running === p && clock.low_mark != null
      && left < clock.low_mark) ? "1" : "";
    face.dataset.flagged = clock.flagged === p ? "1" : "";
  }
}
setInterval(tickClock, 200);
