// The rules: each game's rules in words, its example positions drawn by the same board drawing
// as the live game, and the meaning of every light the game shows, each named by its look in
// words. The game being played is shown first. Each page comes in the page's language (the
// request says which), asked for again in another.
import { buildBoard, drawArrow, lightColour, lightSwatch, paint } from "./board.js";
import { games } from "./catalog.js";
import { $, $$, escapeHTML, toast } from "./dom.js";
import { _, format, language, languageHeaders } from "./i18n.js";
import { state } from "./state.js";
import { SVGNS } from "./svg.js";

const pages = new Map();  // "lang:game" -> its rules page (from api/rules) in that language, asked for once
let shown = null;         // the game whose rules are shown

export async function showRules(game) {
  shown = game;
  markRulesGame(game);
  const page = await rulesPage(game);
  if (!page) { toast(_("cannot load the rules")); return; }
  if (shown === game) renderRules(page);
}

function markRulesGame(game) {
  for (const b of $$("[data-rules-game]")) {
    b.classList.toggle("active", b.dataset.rulesGame === game);
    b.setAttribute("aria-pressed", b.dataset.rulesGame === game ? "true" : "false");
  }
}

// A game's rules page (GET /api/rules/GAME), asked for once; null when it cannot be had.
export async function rulesPage(game) {
  const key = `${language()}:${game}`;
  let page = pages.get(key);
  if (page) return page;
  try {
    const response = await fetch(`api/rules/${encodeURIComponent(game)}`, { headers: languageHeaders() });
    page = await response.json();
    if (!response.ok) throw new Error(page.error);
  } catch (error) {
    return null;
  }
  pages.set(key, page);
  return page;
}

// The pages asked for in other languages are not needed again soon.
export function forgetRulesPages() { pages.clear(); }

function renderRules(page) {
  const root = $("[data-role=rules]");
  delete root.dataset.game;
  $("[data-role=rules-title]").textContent = format(_("{game}: the rules"), { game: page.title });
  $("[data-role=rules-text]").innerHTML = page.sections.map((section) =>
    `<h2>${escapeHTML(section.title)}</h2><ul>${section.points.map((p) => `<li>${escapeHTML(p)}</li>`).join("")}</ul>`).join("");
  const diagrams = $("[data-role=diagrams]");
  diagrams.innerHTML = "";
  for (const diagram of page.diagrams) {
    const figure = document.createElement("figure");
    figure.className = "diagram card";
    figure.dataset.diagram = diagram.id;
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "board rule-board");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", diagram.title);
    figure.appendChild(svg);
    const caption = document.createElement("figcaption");
    caption.innerHTML = `<b>${escapeHTML(diagram.title)}.</b> ${escapeHTML(diagram.caption)}`
      + (diagram.moves.length ? ` <span class="moves">${diagram.moves.map(escapeHTML).join(", ")}</span>` : "");
    figure.appendChild(caption);
    diagrams.appendChild(figure);
    const board = buildBoard(svg, diagram.geometry, diagram.cells, page.players);
    const cells = {};
    for (const cell of diagram.cells) cells[cell] = { piece: diagram.pieces[cell] || "", light: diagram.lights[cell] || "" };
    paint(board, cells, page.palette, false);
    if (diagram.arrow) drawArrow(svg, board, diagram.arrow[0], diagram.arrow[1]);
  }
  const palette = { ...page.palette, ...(state.snap && state.snap.palette) };
  $("[data-role=lights]").innerHTML = page.lights.map((light) => {
    // "last" is drawn brighter on screen than its LED colour, as on the board above
    const colour = light.name === "last" ? lightColour("last", palette) : palette[light.name] || light.colour || "";
    return `<div class="light-row" data-light-name="${escapeHTML(light.name)}" data-colour="${escapeHTML(colour)}">`
      + lightSwatch(light.name, colour, light.blink)
      + `<div class="light-name"><b>${escapeHTML(light.look)}</b></div>`
      + `<div class="light-means">${escapeHTML(light.means)}</div>`
      + `<div class="light-do">${escapeHTML(light.do)}</div></div>`;
  }).join("");
  root.dataset.game = page.game;  // set last: the page is complete
}

// The switch between the games' rules, one button a game of the registry.
export function renderRulesGames() {
  const list = games();
  const names = list.map((g) => g.name).join(",");
  const switcher = $("[data-role=rules-games]");
  if (switcher && switcher.dataset.names !== names) {
    switcher.innerHTML = list.map((g) =>
      `<button type="button" data-rules-game="${escapeHTML(g.name)}">${escapeHTML(g.title)}</button>`).join("");
    switcher.dataset.names = names;
    if (shown) markRulesGame(shown);
  }
}

export function cachedRulesPage(game) { return pages.get(`${language()}:${game}`); }

export function currentRulesGame() { return shown; }

export function wireRules() {
  $("[data-role=rules-games]").addEventListener("click", (event) => {
    const b = event.target.closest("[data-rules-game]");
    if (b) showRules(b.dataset.rulesGame);
  });
}
