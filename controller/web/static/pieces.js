// The pieces: a piece code drawn as SVG, and what a cell shows of the pieces on it.
import { escapeHTML } from "./dom.js";
import { U } from "./svg.js";

// A piece code (Game.pieces()): "ball" a neutral big ball; one capital a marble, coloured as the
// geometry's `marbles` say; a capital and a number (or "?": not identified yet) a numbered stone
// of the player whose colour starts with that letter.
const MARBLE_GRADIENTS = new Set(["red", "yellow", "black", "white"]);

function stoneColour(letter, look) {
  const player = ((look && look.players) || []).find((p) => p[0].toUpperCase() === letter);
  return player || (letter === "B" ? "black" : "white");
}

export function pieceSVG(piece, cls, look) {
  if (!piece) return "";
  const r = 0.31 * U;
  if (piece === "ball") {
    return `<g class="pc ball ${cls}"><circle r="${0.4 * U}" fill="url(#g-ball)" class="body"/>`
      + `<ellipse cx="${-0.13 * U}" cy="${-0.15 * U}" rx="${0.1 * U}" ry="${0.06 * U}" fill="#fff" opacity=".7"/></g>`;
  }
  const marbles = (look && look.marbles) || {};
  if (marbles[piece]) {
    const colour = MARBLE_GRADIENTS.has(marbles[piece]) ? marbles[piece] : "ball";
    return `<g class="pc marble ${escapeHTML(colour)} ${cls}"><circle r="${0.35 * U}" fill="url(#g-${colour})" class="body"/>`
      + `<ellipse cx="${-0.11 * U}" cy="${-0.13 * U}" rx="${0.09 * U}" ry="${0.055 * U}" fill="#fff" opacity=".65"/></g>`;
  }
  const colour = stoneColour(piece[0], look), number = piece.slice(1);
  const fill = MARBLE_GRADIENTS.has(colour) ? colour : "ball";
  const unknown = number === "?" ? " unknown" : "";  // identify set-up: the number is not known yet
  return `<g class="pc stone ${escapeHTML(colour)}${unknown} ${cls}"><circle r="${r}" fill="url(#g-${fill})" class="body"/>`
    + `<text class="num" y="1">${escapeHTML(number)}</text></g>`;
}

// What a cell shows: the piece the controller believes is there; on the simulated board also
// what physically stands there when it differs (lifted: a ghost; put down but not yet taken
// as a move: a dashed piece); in the set-up, the piece still expected (a faint outline).
export function cellPicture(info, sim, look) {
  const believed = info.piece || "", there = sim ? (info.sim || "") : believed, expected = info.expect || "";
  if (believed && there === believed) return pieceSVG(believed, "", look);
  // identify set-up: the stone stands there, only its number is not known yet: a "?" and no
  // number the simulated table made up (its stones take the numbers the hands give them)
  if (believed.endsWith("?") && there && there[0] === believed[0]) return pieceSVG(believed, "", look);
  let out = "";
  if (believed) out += pieceSVG(believed, "lifted", look);
  else if (expected && !there) out += pieceSVG(expected, "expected", look);
  if (there) out += pieceSVG(there, believed ? "pending small" : "pending", look);
  return out;
}
