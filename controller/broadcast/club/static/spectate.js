// The spectators' page: every board (or one, ?board=NAME) as the club's page draws it, read
// straight from the broker over MQTT over WebSockets (MQTT.js, mqtt.min.js beside this file), so
// that a big evening's spectators cost the boards and the club nothing. Read-only: it subscribes
// to each board's retained `state` and `status` (docs/broadcast.md) and publishes nothing. When the
// club runs a tournament, its standings and the round's pairings come on the retained
// PREFIX/club/standings, drawn below the boards.
//
// Where the broker is: ?broker=ws://HOST:PORT/PATH, else what the club serving this page says
// (/spectate/config: the broker's address, the topics' prefix and the boards it knows), else
// RabbitMQ's Web MQTT on this page's host (ws://HOST:15675/ws). ?prefix=P for another topic prefix.
// A broker may send a retained message only to a subscription without wildcards (RabbitMQ does),
// so each board known (from the club, ?boards=a,b, or its first live message) is subscribed to
// by name too.
import { renderCard } from "/club/board_cards.js";
import { pageWords } from "/club/page_words.js";

const $ = (sel, root = document) => root.querySelector(sel);
const NAME = /^[A-Za-z0-9_.-]{1,40}$/;  // a board's name (one topic level, no wildcard)
const WEB_MQTT_PORT = 15675;

const words = await pageWords();
const { _, N_ } = words;

const params = new URLSearchParams(location.search);
const only = NAME.test(params.get("board") || "") ? params.get("board") : null;
const boards = new Map();  // name -> the board as the cards show it
const subscribed = new Set();  // topics subscribed to by name
let client = null;
let prefix = "reedboard";

async function settings() {
  let club = {};
  try {
    const response = await fetch("/spectate/config");
    if (response.ok) club = await response.json();
  } catch (error) { /* not served by a club: the address's own settings */ }
  const host = location.hostname || "127.0.0.1";
  const broker = params.get("broker") || club.broker
    || `${location.protocol === "https:" ? "wss" : "ws"}://${host}:${WEB_MQTT_PORT}/ws`;
  const named = (params.get("boards") || "").split(",").concat(Array.isArray(club.boards) ? club.boards : []);
  return {
    broker,
    prefix: params.get("prefix") || (typeof club.prefix === "string" ? club.prefix : "reedboard"),
    boards: only ? [only] : named.filter((name) => NAME.test(name)),
  };
}

// --- what a board publishes, as a card shows it -------------------------------------------------
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const text = (value) => (value == null ? "" : String(value));

function fromState(name, state, board) {
  const record = Array.isArray(state.record) ? state.record.map(text) : [];
  const snapshot = isObject(state.snapshot) ? state.snapshot : {};
  return {
    ...board,
    name,
    game: text(state.game),
    seq: Number.isInteger(state.seq) ? state.seq : 0,
    title: text(state.title),
    colours: Array.isArray(state.colours) ? state.colours.map(text) : [],
    players: isObject(state.players) ? state.players : {},
    score: isObject(state.score) ? state.score : null,
    to_move: state.to_move == null ? null : text(state.to_move),
    roll: state.roll == null ? null : text(state.roll),
    moves: record.length,
    last_move: record.length ? record[record.length - 1] : null,
    record,
    result: isObject(state.result) ? { line: text(state.result.line), winner: state.result.winner ? text(state.result.winner) : null } : null,
    position: isObject(state.position) ? state.position : {},
    geometry: isObject(snapshot.geometry) ? snapshot.geometry : board.geometry || null,
  };
}

// A later state of the same game, or a later game (a game's id begins with its start time).
function newer(state, board) {
  if (!board.game) return true;
  const game = text(state.game);
  return game > board.game || (game === board.game && Number.isInteger(state.seq) && state.seq >= board.seq);
}

function receive(topic, payload) {
  if (topic === standingsTopic()) {
    let data = null;
    try {
      data = JSON.parse(new TextDecoder().decode(payload));
    } catch (error) { /* an empty retained message clears the topic: no tournament */ }
    tournament = isObject(data) && isObject(data.tournament) ? data : null;
    showTournament();
    return;
  }
  if (!topic.startsWith(`${prefix}/boards/`)) return;
  const [name, kind, ...rest] = topic.slice(prefix.length + 8).split("/");
  if (rest.length || !NAME.test(name) || (only && name !== only)) return;
  let data;
  try {
    data = JSON.parse(new TextDecoder().decode(payload));
  } catch (error) { return; }
  if (!isObject(data)) return;
  follow(name);
  const board = boards.get(name) || { name, online: null, game: "", seq: 0, moves: 0 };
  if (kind === "status") {
    boards.set(name, { ...board, online: data.online === true });
  } else if (kind === "state") {
    if (!newer(data, board)) return;
    boards.set(name, fromState(name, data, board));
  } else {
    return;
  }
  if (boards.get(name).game) show(boards.get(name));
}

// --- the page -------------------------------------------------------------------------------------
function href(board) {
  const there = new URLSearchParams(params);
  there.delete("boards");
  there.set("board", board.name);
  return `?${there}`;
}

function show(board) {
  renderCard($("[data-role=boards]"), board, { words, geometry: () => board.geometry, href: only ? null : href(board) });
  $("[data-role=empty]").hidden = boards.size > 0;
  if (only) {
    $("[data-role=moves]").hidden = false;
    $("[data-role=record]").replaceChildren(...board.record.map((move) => {
      const item = document.createElement("li");
      item.textContent = move;
      return item;
    }));
  }
}

// --- the tournament: its name and round, the round's games, the standings ----------------------------
const standingsTopic = () => `${prefix}/club/standings`;
let tournament = null;  // the club's last word on PREFIX/club/standings

function cell(row, value, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text(value);
  row.append(td);
}

function showTournament() {
  const { format, side } = words;
  const number = words.number || ((n) => String(n));
  const section = $("[data-role=tournament]");
  section.hidden = !tournament;
  if (!tournament) return;
  const info = tournament.tournament;
  $("[data-role=t-name]").textContent = text(info.name);
  $("[data-role=t-round]").textContent = info.finished ? _("finished")
    : format(_("round {round} of {rounds}"), { round: text(info.round), rounds: text(info.rounds) });
  const [first, second] = Array.isArray(info.colours) ? info.colours.map(text) : ["", ""];
  $("[data-role=first-colour]").textContent = side(first);
  $("[data-role=second-colour]").textContent = side(second);
  const round = isObject(tournament.pairings) ? tournament.pairings : { games: [] };
  const games = Array.isArray(round.games) ? round.games.filter(isObject) : [];
  $("[data-role=pairings] tbody").replaceChildren(...games.map((game) => {
    const row = document.createElement("tr");
    row.dataset.game = text(game.number);
    cell(row, `${text(game.number)} · ${text(game.board)}`);
    cell(row, game.first, "who");
    cell(row, game.result || "–", "result");
    cell(row, game.second, "who");
    return row;
  }));
  $("[data-role=pairings]").closest("div").hidden = !games.length;
  $("[data-role=bye]").textContent = round.bye ? format(_("Bye: {player}"), { player: text(round.bye) }) : "";
  const rows = Array.isArray(tournament.standings) ? tournament.standings.filter(isObject) : [];
  $("[data-role=t-standings] tbody").replaceChildren(...rows.map((r) => {
    const row = document.createElement("tr");
    for (const value of [r.place, r.name, number(r.points), number(r.buchholz), number(r.sonneborn_berger),
      r.rating == null ? "–" : String(r.rating)]) cell(row, value);
    if (r.withdrawn) row.classList.add("withdrawn");
    return row;
  }));
}

const LINK_WORDS = { live: N_("broker connected"), down: N_("broker unreachable: reconnecting"), connecting: N_("connecting") };
let linkState = "connecting";

function showLink(state) {
  linkState = state;
  const link = $("[data-role=link]");
  link.dataset.state = state === "live" ? "live" : "down";
  link.dataset.i18nText = LINK_WORDS[state];
  link.textContent = _(LINK_WORDS[state]);
}

function languages() {
  const choice = $("[data-role=languages]");
  choice.replaceChildren(...Object.entries(words.LANGUAGE_NAMES).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    return option;
  }));
  choice.value = words.language();
  choice.onchange = () => words.useLanguage(choice.value, true);
}

// --- the broker -----------------------------------------------------------------------------------
function follow(name) {
  for (const kind of ["state", "status"]) {
    const topic = `${prefix}/boards/${name}/${kind}`;
    if (subscribed.has(topic)) continue;
    subscribed.add(topic);
    if (client && client.connected) client.subscribe(topic, { qos: 0 });
  }
}

function connect(config) {
  prefix = config.prefix;
  client = mqtt.connect(config.broker, {
    clientId: `spectator-${Math.random().toString(16).slice(2, 12)}`,
    protocolVersion: 4, clean: true, keepalive: 30, reconnectPeriod: 2000, connectTimeout: 10000,
    resubscribe: false,  // every subscription again at each connection (below): the retained states come again
  });
  client.on("connect", () => {
    showLink("live");
    const live = only ? [] : [`${prefix}/boards/+/state`, `${prefix}/boards/+/status`];
    client.subscribe([...live, ...subscribed], { qos: 0 });
  });
  client.on("close", () => showLink("down"));
  client.on("message", (topic, payload) => receive(topic, payload));
  client.on("error", () => showLink("down"));
}

const config = await settings();
document.querySelector("[data-role=back]").hidden = !only;
if (only) {
  const every = new URLSearchParams(params);
  every.delete("board");
  $("[data-role=every-board]").href = `?${every}`;
}
prefix = config.prefix;
subscribed.add(standingsTopic());  // by name: a broker sends a retained message to it
for (const name of config.boards) follow(name);
words.onLanguage(() => {
  for (const board of boards.values()) if (board.game) show(board);
  showTournament();
  showLink(linkState);
  languages();
});
await words.startLanguage();
languages();
showLink("connecting");
connect(config);
