// The drawing's unit and the making of SVG elements, shared by every board drawn on the page.

export const SVGNS = "http://www.w3.org/2000/svg";
export const U = 64;                       // px between two neighbouring hollows

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
