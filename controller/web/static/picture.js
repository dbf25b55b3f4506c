// A picture of the replayed position: the board drawing as a file of its own (SVG or PNG).
import { gameInfo } from "./catalog.js";
import { $, toast } from "./dom.js";
import { _, format } from "./i18n.js";
import { SVGNS } from "./svg.js";

// The page's stylesheet does not travel with a file, so each element takes its computed look
// along as a style; the gradients and filters come from the page's shared definitions.
const PICTURE_STYLE = {  // property -> its value by default (not written)
  fill: "rgb(0, 0, 0)", "fill-opacity": "1", stroke: "none", "stroke-width": "1px", "stroke-opacity": "1",
  "stroke-dasharray": "none", "stroke-linejoin": "miter", "stroke-linecap": "butt", opacity: "1", filter: "none",
  "font-size": "", "font-weight": "400", "font-family": "", "text-anchor": "start", "dominant-baseline": "auto",
  display: "inline", visibility: "visible",
};

function boardPicture(svg, title) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll("*")], to = [copy, ...copy.querySelectorAll("*")];
  from.forEach((node, i) => {
    const look = getComputedStyle(node);
    const style = [];
    for (const [name, usual] of Object.entries(PICTURE_STYLE)) {
      const value = look.getPropertyValue(name);
      if (value && value !== usual) style.push(`${name}: ${value}`);
    }
    to[i].removeAttribute("class");
    to[i].removeAttribute("style");
    if (style.length) to[i].setAttribute("style", style.join("; "));
  });
  const [, , width, height] = (svg.getAttribute("viewBox") || "0 0 860 860").split(/\s+/).map(Number);
  copy.removeAttribute("id");
  copy.setAttribute("xmlns", SVGNS);
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  const defs = document.querySelector("#board-defs defs");
  if (defs) copy.insertBefore(defs.cloneNode(true), copy.firstChild);
  const name = document.createElementNS(SVGNS, "title");
  name.textContent = title;
  copy.insertBefore(name, copy.firstChild);
  return { text: new XMLSerializer().serializeToString(copy), width, height };
}

function saveFile(blob, filename) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// `data`: the replayed game (GET api/games/NAME), shown after move `ply`.
export async function savePicture(data, ply, kind) {
  if (!data) return;
  const title = format(_("{game}, {day}, after move {ply}"),
    { game: data.title || gameInfo(data.game).title, day: data.started.slice(0, 10), ply });
  const picture = boardPicture($("#replay-board"), title);
  const filename = `${data.name.replace(/\.jsonl$/, "")}-move-${ply}.${kind}`;
  const svgBlob = new Blob([picture.text], { type: "image/svg+xml" });
  if (kind === "svg") { saveFile(svgBlob, filename); return; }
  const image = new Image();
  const url = URL.createObjectURL(svgBlob);
  try {
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(picture.width);
    canvas.height = Math.round(picture.height);
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    if (png) saveFile(png, filename); else toast(_("cannot make the picture"));
  } catch (error) {
    toast(_("cannot make the picture"));
  } finally {
    URL.revokeObjectURL(url);
  }
}
