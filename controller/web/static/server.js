// The board's server: the changes sent as JSON POSTs (with owner_token.js's headers), and the snapshots it
// pushes over a WebSocket, with their words in the page's language. Every address is relative
// to the page, so the same page works at / and where the club shows one board, under /board/NAME/.
import { $, toast } from "./dom.js";
import { N_, _, language, onLanguage, wordsInto } from "./i18n.js";
import { headers } from "./owner_token.js";
import { state } from "./state.js";

let retry = 500;
let socket = null;
let received = () => {};  // what is done with a snapshot (the live view's render)

// The parts of a snapshot that stay as they are for a game come only when they are new to this
// page (on connecting, a new game of another kind, the catalogue in another language): kept
// here and put back into the snapshots that come without them, so the page reads whole ones.
const FIXED = ["geometry", "order", "games", "palette"];
let fixed = {};
let fixedSeq = 0;  // the snapshot they came with: an older one (a late answer) changes nothing

function whole(snap) {
  if (!snap || !snap.seq) return snap;
  const newer = snap.seq >= fixedSeq;
  for (const key of FIXED) {
    if (key in snap) {
      if (newer) fixed[key] = snap[key];
    } else if (key in fixed) {
      snap[key] = fixed[key];
    }
  }
  if (newer) fixedSeq = snap.seq;
  return snap;
}

export function onSnapshot(handler) { received = handler; }

export async function post(path, body) {
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: headers(true), body: JSON.stringify(body || {}) });
  } catch (error) {
    toast(_("no connection to the board"));
    return null;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    toast(data.error || response.statusText);
    return null;
  }
  if (data && data.seq) received(whole(data));
  return data;
}

// The page's WebSocket: "ws" beside the page, in ws: or wss: as the page is http: or https:,
// asking for the board's words in the page's language.
function socketAddress() {
  const url = new URL("ws", document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("lang", language());
  return url.href;
}

// Another language chosen: the board sends the snapshot again in it.
onLanguage((lang) => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ lang }));
});

export function connect() {
  const conn = $("[data-role=connection]");
  const ws = new WebSocket(socketAddress());
  socket = ws;
  ws.onopen = () => {
    state.seq = 0;           // a restarted server counts from the start again
    fixed = {};              // and a new connection brings every fixed part again
    fixedSeq = 0;
    retry = 500;
    conn.dataset.state = "live";
    wordsInto(conn, N_("live"));
  };
  ws.onmessage = (event) => received(whole(JSON.parse(event.data)));
  ws.onclose = () => {
    if (socket === ws) socket = null;
    conn.dataset.state = "down";
    wordsInto(conn, N_("reconnecting"));
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}
