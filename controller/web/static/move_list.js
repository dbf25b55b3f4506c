// A list of moves (the live game's, a replayed game's), the current one kept in sight.
import { escapeHTML } from "./dom.js";

export function renderRecord(list, record, players, current) {
  list.innerHTML = "";
  record.forEach((move, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="number">${i + 1}.</span> <span class="move">${escapeHTML(move)}</span>`;
    li.dataset.player = players[i % 2];
    li.dataset.ply = String(i + 1);
    if (i === current) li.classList.add("current");
    list.appendChild(li);
  });
  // keep the current move in sight inside the list, without scrolling the page (on a phone the
  // list is below the board)
  const cur = list.querySelector(".current");
  if (cur) {
    if (cur.offsetTop < list.scrollTop) list.scrollTop = cur.offsetTop;
    else if (cur.offsetTop + cur.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = cur.offsetTop + cur.offsetHeight - list.clientHeight;
    }
  }
}
