// The live board on a small screen. A finger hits one hollow and not its neighbour when the
// hollow's target is about 44 px across (WCAG's target size); a whole board on a phone gives each
// hollow less (a triangle's hollow is about 28 px at 390 px). So where a hollow is drawn smaller
// than that, a button beside the board draws it larger, every hollow's target at least TARGET px,
// in a frame that scrolls sideways; pressed again, the whole board. Pinching still zooms the page.
import { $ } from "./dom.js";
import { N_, wordsInto } from "./i18n.js";
import { U } from "./svg.js";

const TARGET = 46;  // px across a hollow's target (one pitch: the .hit circle) when zoomed in
let zoomed = false;
let width = 0;  // the frame's width the board was last fitted to

// px from one hollow to the next with the board as wide as its frame
function wholePitch(svg, frame) {
  const box = svg.viewBox && svg.viewBox.baseVal;
  if (!box || !box.width) return 0;
  const shown = svg.getBoundingClientRect();
  // as wide as the frame, unless its height is what limits it (a wide screen)
  const scale = Math.min(frame.clientWidth / box.width, zoomed ? Infinity : shown.height / box.height || Infinity);
  return scale * U;
}

// The board fitted to its frame: zoomed in only while that makes its hollows larger.
export function fitZoom() {
  const svg = $("#board"), frame = $("[data-role=board-frame]"), button = $("[data-action=zoom]");
  if (!svg || !frame || !button) return;
  width = frame.clientWidth;
  const pitch = wholePitch(svg, frame);
  const small = pitch > 0 && pitch < TARGET;
  if (!small) zoomed = false;
  const box = svg.viewBox.baseVal;
  svg.style.width = zoomed ? `${Math.ceil((box.width / U) * TARGET)}px` : "";
  frame.dataset.zoomed = zoomed ? "1" : "";
  button.hidden = !small;
  button.setAttribute("aria-pressed", zoomed ? "true" : "false");
  wordsInto(button, zoomed ? N_("Whole board") : N_("Zoom in"));
}

export function wireZoom() {
  const frame = $("[data-role=board-frame]"), scroller = $("[data-role=board-scroll]");
  $("[data-action=zoom]").addEventListener("click", () => {
    zoomed = !zoomed;
    fitZoom();
    // the middle of the board in view, its top on the screen
    scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;
    const top = frame.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) frame.scrollIntoView({ block: "start" });
  });
  new ResizeObserver(() => { if (frame.clientWidth !== width) fitZoom(); }).observe(frame);
}
