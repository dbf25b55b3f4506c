// A game record's header lines (its set-up, in the record's notation) in words of the page's
// language, for the moves card of the live game and of a replayed one: `layout belgian-daisy`,
// `board default`, `board NAME`, a colour's stones `black a1=3 b1=6 ...` and `first black`. The
// record keeps its notation; a line the page does not know is shown as it is.
import { gameInfo } from "./catalog.js";
import { Side, _, format, side } from "./i18n.js";

// A start option's choice as the page offers it in the new game's form (`belgian-daisy`:
// "Belgian daisy"), else the choice as written.
function choiceWords(game, flag, choice) {
  const option = (gameInfo(game).options || []).find((o) => o.flag === flag);
  const at = option && option.choices ? option.choices.indexOf(choice) : -1;
  return at >= 0 && option.choice_labels ? option.choice_labels[at] : choice;
}

export function headerWords(line, game) {
  const [key, ...rest] = String(line).trim().split(/\s+/);
  const value = rest.join(" ");
  if (key === "layout" && value) return format(_("Start layout: {layout}"), { layout: choiceWords(game, "layout", value) });
  if (key === "board" && value === "default") return _("Board: the standard board");
  if (key === "board" && value) return format(_("Board: {file}"), { file: value });
  if (key === "first" && rest.length === 1 && side(value) !== value) {
    return format(_("{player} moves first"), { player: Side(value) });
  }
  const stones = rest.map((s) => /^([a-z]\d+)=(\d+)$/.exec(s));
  if (side(key) !== key && rest.length && stones.every(Boolean)) {
    return format(_("{player}'s stones: {stones}"), {
      player: Side(key),
      stones: stones.map(([, hollow, n]) => format(_("{number} on {hollow}"), { number: n, hollow })).join(", "),
    });
  }
  return line;
}
