// What the page says aloud: the phrases for the board's notes and prompts in English, German
// and Romanian, and the choice of what in a snapshot is new enough to say. Pure functions with
// no DOM, so that the tests can run this file under node; voice.js does the speaking.
// Phrases are built from the structured `kind` and `data` of a note (and of the prompt), never
// from the note's English text. The words of a game's moves and endings are the game's own:
// the snapshot brings them (`speech`: {moves: {notation: {lang: words}}, endings: {key: {lang:
// words}}}), and a move without words is said as it is written.
"use strict";

const SPEECH_LANGS = { en: "en-GB", de: "de-DE", ro: "ro-RO" };
const NOTE_KINDS = ["setup", "ready", "roll", "move", "amend", "takeback", "illegal", "clear", "choose", "refused",
  "touch", "identify", "identified", "low_time", "flag", "resign", "draw", "over", "info", "link", "computer", "hint"];
// The prompts said when they come up: the set-up steps no note announces. The rest (and the
// identify set-up's requests) are said by their notes.
const SPOKEN_PROMPTS = ["clear", "fill", "place"];
const MOST_AT_ONCE = 3;  // after a gap (a reconnection), only the newest few notes are said

function joined(items, conjunction) {
  const list = (items || []).map(String);
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} ${conjunction} ${list[list.length - 1]}`;
}

// Romanian counts of 20 and more take "de": 5 secunde, 30 de secunde.
function roCount(n, noun) {
  const rest = Number(n) % 100;
  return Number(n) >= 20 && (rest === 0 || rest >= 20) ? `${n} de ${noun}` : `${n} ${noun}`;
}

// Per language: the words, and how each note and prompt is said.
const SPEECH = {
  en: {
    player: { black: "Black", white: "White", red: "Red", yellow: "Yellow" },
    and: "and", or: "or",
    stone: (colour, number) => `${colour} stone ${number}`.trim(),
    notes: {
      setup: (d) => ({
        given: "Set-up: put the pieces where the lights show.",
        shuffle: "Guided shuffle: put each piece where the light shows.",
        identify: "Identify the stones: lift and put back each stone asked for.",
      })[d.mode] || "New game: set up the board.",
      ready: (d, w) => `Set-up done. ${w.player[d.player] || ""} to move.`,
      roll: (d, w) => {
        const who = w.player[d.player] || "", stones = d.stones || [];
        if (!stones.length) return `${who} rolled ${d.value}.`;
        if (stones.length === 1 && stones[0] === d.value) return `${who} rolled ${d.value}: move stone ${d.value}.`;
        const gone = stones.includes(d.value) ? "" : `stone ${d.value} is gone, `;
        return `${who} rolled ${d.value}: ${gone}move stone ${joined(stones, "or")}.`;
      },
      move: (d, w, say) => `${w.player[d.player] || ""}: ${say(d.move)}.`,
      amend: (d, w, say) => `Move changed: ${say(d.new)} instead of ${say(d.old)}.`,
      takeback: (d, w, say) => `Move taken back: ${say(d.move)}.${d.roll != null ? ` The roll of ${d.roll} stands.` : ""}`,
      computer: (d, w, say) => d.move ? `The computer plays ${say(d.move)}. Carry it out as the lights show.`
        : "The computer rolls the die.",
      hint: (d, w, say) => `Hint for ${w.player[d.player] || ""}: ${d.move === "roll" ? "roll the die" : say(d.move)}.`,
      illegal: (d) => "The board does not match the game."
        + ((d.fill || []).length ? ` Put a piece on ${joined(d.fill, "and")}.` : "")
        + ((d.empty || []).length ? ` Take the piece away from ${joined(d.empty, "and")}.` : ""),
      clear: () => "The board is right again.",
      choose: (d, w, say) => `Several moves fit: ${joined((d.moves || []).map(say), "or")}. `
        + "Lift and put back a piece of the move you made.",
      refused: (d) => `Not now${d.reason ? `: ${d.reason}` : ""}.`,
      touch: () => "",
      identify: (d, w) => `${w.player[d.player] || ""}: lift stone ${d.number} and put it back.`,
      identified: (d, w) => `${w.stone(d.player, d.number)} is on ${d.cell}.`.replace(/^./, (c) => c.toUpperCase()),
      low_time: (d, w) => `${w.player[d.player] || ""}: ${d.seconds} seconds left.`,
      flag: (d, w) => `${w.player[d.player] || ""}'s time is up.`,
      resign: (d, w) => `${w.player[d.player] || ""} resigns.`,
      draw: () => "Draw agreed.",
      link: (d) => d.state === "lost" ? "The board is unplugged. Plug it in again; the game waits." : "The board is back.",
      over: (d, w, say, why) => d.winner
        ? `Game over. ${w.player[d.winner] || d.winner} wins${why(d.reason)}.`
        : `Game over: a draw${why(d.reason)}.`,
    },
    prompts: {
      clear: () => "Clear the board first: take the pieces off.",
      fill: () => "Put the pieces on their starting places.",
      place: (p, w) => p.piece === "ball" ? `Put a big ball on ${p.cell}.` : `Put ${w.piece(p.piece)} on ${p.cell}.`,
      identify: (p, w) => `Lift ${w.stone(p.player, p.number)} and put it back.`,
    },
    piece: (code) => code === "R" ? "a red ball" : code === "Y" ? "a yellow ball"
      : SPEECH.en.stone(code[0] === "B" ? "black" : "white", code.slice(1) === "?" ? "" : code.slice(1)),
    voiceOn: "Voice on.",
  },

  de: {
    player: { black: "Schwarz", white: "Weiß", red: "Rot", yellow: "Gelb" },
    and: "und", or: "oder",
    colourAdjective: { black: ["schwarze", "schwarzen"], white: ["weiße", "weißen"] },
    notes: {
      setup: (d) => ({
        given: "Aufbau: stell die Figuren dorthin, wo die Lichter leuchten.",
        shuffle: "Geführtes Mischen: stell jede Figur dorthin, wo das Licht leuchtet.",
        identify: "Steine erkennen: heb jeden verlangten Stein an und setz ihn zurück.",
      })[d.mode] || "Neues Spiel: bau das Brett auf.",
      ready: (d, w) => `Aufbau fertig. ${w.player[d.player] || ""} ist am Zug.`,
      roll: (d, w) => {
        const who = w.player[d.player] || "", stones = d.stones || [];
        if (!stones.length) return `${who} würfelt ${d.value}.`;
        if (stones.length === 1 && stones[0] === d.value) return `${who} würfelt ${d.value}: Stein ${d.value} zieht.`;
        const gone = stones.includes(d.value) ? "" : `Stein ${d.value} ist nicht mehr da, `;
        return `${who} würfelt ${d.value}: ${gone}Stein ${joined(stones, "oder")} zieht.`;
      },
      move: (d, w, say) => `${w.player[d.player] || ""}: ${say(d.move)}.`,
      amend: (d, w, say) => `Zug geändert: ${say(d.new)} statt ${say(d.old)}.`,
      takeback: (d, w, say) => `Zug zurückgenommen: ${say(d.move)}.${d.roll != null ? ` Der Wurf ${d.roll} bleibt.` : ""}`,
      computer: (d, w, say) => d.move ? `Der Computer spielt ${say(d.move)}. Führ den Zug aus, wie die Lichter zeigen.`
        : "Der Computer würfelt.",
      hint: (d, w, say) => `Tipp für ${w.player[d.player] || ""}: ${d.move === "roll" ? "würfeln" : say(d.move)}.`,
      illegal: (d) => "Das Brett passt nicht zum Spiel."
        + ((d.fill || []).length ? ` Setze eine Figur auf ${joined(d.fill, "und")}.` : "")
        + ((d.empty || []).length ? ` Nimm die Figur von ${joined(d.empty, "und")}.` : ""),
      choose: (d, w, say) => `Mehrere Züge passen: ${joined((d.moves || []).map(say), "oder")}. `
        + "Heb eine Figur des Zuges, den du gemacht hast, an und setz sie zurück.",
      clear: () => "Das Brett stimmt wieder.",
      refused: () => "Das geht jetzt nicht.",
      touch: () => "",
      identify: (d, w) => `${w.player[d.player] || ""}: heb Stein ${d.number} an und setz ihn zurück.`,
      identified: (d, w) => `Der ${w.stone(d.player, d.number, 0)} steht auf ${d.cell}.`,
      low_time: (d, w) => `${w.player[d.player] || ""}: noch ${d.seconds} Sekunden.`,
      flag: (d, w) => `Die Zeit von ${w.player[d.player] || ""} ist abgelaufen.`,
      resign: (d, w) => `${w.player[d.player] || ""} gibt auf.`,
      draw: () => "Unentschieden vereinbart.",
      link: (d) => d.state === "lost" ? "Das Brett ist getrennt. Schließ es wieder an; das Spiel wartet." : "Das Brett ist wieder da.",
      over: (d, w, say, why) => d.winner
        ? `Spielende. ${w.player[d.winner] || d.winner} gewinnt${why(d.reason)}.`
        : `Spielende: unentschieden${why(d.reason)}.`,
    },
    prompts: {
      clear: () => "Räum zuerst das Brett ab.",
      fill: () => "Stell die Figuren auf ihre Startplätze.",
      place: (p, w) => p.piece === "ball" ? `Setze eine große Kugel auf ${p.cell}.` : `Setze ${w.piece(p.piece)} auf ${p.cell}.`,
      identify: (p, w) => `Heb den ${w.stone(p.player, p.number, 1)} an und setz ihn zurück.`,
    },
    // case 0: nominative (der schwarze Stein 4), 1: accusative (den schwarzen Stein 4)
    stone(colour, number, grammaticalCase) {
      const adjective = (this.colourAdjective[colour] || ["", ""])[grammaticalCase];
      return `${adjective} Stein ${number}`.trim();
    },
    piece(code) {
      if (code === "R") return "eine rote Kugel";
      if (code === "Y") return "eine gelbe Kugel";
      const colour = code[0] === "B" ? "black" : "white";
      return `den ${this.stone(colour, code.slice(1) === "?" ? "" : code.slice(1), 1)}`.trim();
    },
    voiceOn: "Sprachausgabe an.",
  },

  ro: {
    player: { black: "Negrul", white: "Albul", red: "Roșul", yellow: "Galbenul" },
    and: "și", or: "sau",
    colourAdjective: { black: "neagră", white: "albă" },
    notes: {
      setup: (d) => ({
        given: "Așezare: pune piesele unde se aprind luminile.",
        shuffle: "Amestecare ghidată: pune fiecare piesă unde se aprinde lumina.",
        identify: "Recunoașterea pietrelor: ridică și pune la loc fiecare piatră cerută.",
      })[d.mode] || "Joc nou: așază tabla.",
      ready: (d, w) => `Așezarea e gata. Mută ${w.player[d.player] || ""}.`,
      roll: (d, w) => {
        const who = w.player[d.player] || "", stones = d.stones || [];
        if (!stones.length) return `${who} a dat ${d.value}.`;
        if (stones.length === 1 && stones[0] === d.value) return `${who} a dat ${d.value}: mută piatra ${d.value}.`;
        const gone = stones.includes(d.value) ? "" : `piatra ${d.value} nu mai e pe tablă, `;
        return `${who} a dat ${d.value}: ${gone}mută piatra ${joined(stones, "sau")}.`;
      },
      move: (d, w, say) => `${w.player[d.player] || ""}: ${say(d.move)}.`,
      amend: (d, w, say) => `Mutare schimbată: ${say(d.new)} în loc de ${say(d.old)}.`,
      takeback: (d, w, say) => `Mutare luată înapoi: ${say(d.move)}.${d.roll != null ? ` Zarul ${d.roll} rămâne.` : ""}`,
      computer: (d, w, say) => d.move ? `Calculatorul joacă ${say(d.move)}. Faceți mutarea cum arată luminile.`
        : "Calculatorul aruncă zarul.",
      hint: (d, w, say) => `Sugestie pentru ${w.player[d.player] || ""}: ${d.move === "roll" ? "aruncați zarul" : say(d.move)}.`,
      illegal: (d) => "Tabla nu se potrivește cu jocul."
        + ((d.fill || []).length ? ` Pune o piesă pe ${joined(d.fill, "și")}.` : "")
        + ((d.empty || []).length ? ` Ia piesa de pe ${joined(d.empty, "și")}.` : ""),
      choose: (d, w, say) => `Se potrivesc mai multe mutări: ${joined((d.moves || []).map(say), "sau")}. `
        + "Ridică și pune la loc o piesă a mutării pe care ai făcut-o.",
      clear: () => "Tabla e din nou în regulă.",
      refused: () => "Nu se poate acum.",
      touch: () => "",
      identify: (d, w) => `${w.player[d.player] || ""}: ridică piatra ${d.number} și pune-o la loc.`,
      low_time: (d, w) => `${w.player[d.player] || ""}: mai are ${roCount(d.seconds, "secunde")}.`,
      flag: (d, w) => `${w.player[d.player] || ""} a rămas fără timp.`,
      resign: (d, w) => `${w.player[d.player] || ""} abandonează.`,
      draw: () => "Remiză de comun acord.",
      link: (d) => d.state === "lost" ? "Tabla este deconectată. Conectați-o din nou; jocul așteaptă." : "Tabla este din nou conectată.",
      identified: (d, w) => `${w.stone(d.player, d.number).replace(/^./, (c) => c.toUpperCase())} este pe ${d.cell}.`,
      over: (d, w, say, why) => d.winner
        ? `Joc terminat. Câștigă ${w.player[d.winner] || d.winner}${why(d.reason)}.`
        : `Joc terminat: remiză${why(d.reason)}.`,
    },
    prompts: {
      clear: () => "Mai întâi golește tabla.",
      fill: () => "Pune piesele pe locurile de start.",
      place: (p, w) => p.piece === "ball" ? `Pune o bilă mare pe ${p.cell}.` : `Pune ${w.piece(p.piece)} pe ${p.cell}.`,
      identify: (p, w) => `Ridică ${w.stone(p.player, p.number)} și pune-o la loc.`,
    },
    stone(colour, number) {
      return `piatra ${this.colourAdjective[colour] || ""} ${number}`.replace(/\s+/g, " ").trim();
    },
    piece(code) {
      if (code === "R") return "o bilă roșie";
      if (code === "Y") return "o bilă galbenă";
      return this.stone(code[0] === "B" ? "black" : "white", code.slice(1) === "?" ? "" : code.slice(1));
    },
    voiceOn: "Vocea e pornită.",
  },
};

// The words `table` ({key: {lang: words}}) gives `key` in `lang` (or in English), else "".
function given(table, key, lang) {
  const words = table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : null;
  return words ? String(words[lang] || words.en || "") : "";
}

// A move in words, as the game gave them (`speech` of the snapshot); as written otherwise.
function sayMove(text, lang, speech) {
  const move = String(text || "").trim();
  return given(speech && speech.moves, move, lang) || move;
}

// Why a game ended, as the game gave it, joined to what comes before: " on time", ": ...".
function sayEnding(key, lang, speech) {
  const words = given(speech && speech.endings, key, lang);
  return !words || words.startsWith(":") ? words : ` ${words}`;
}

// What to say for a note ({kind, data}); "" for a note with nothing to say. `speech` is the
// snapshot's words of the game (without them a move is said as written, an ending not at all).
function phrase(note, lang, speech) {
  const w = SPEECH[lang] || SPEECH.en;
  const say = w.notes[note && note.kind];
  if (!say) return "";
  return say(note.data || {}, w, (move) => sayMove(move, lang, speech), (key) => sayEnding(key, lang, speech))
    .replace(/\s+/g, " ").trim();
}

// What to say for a prompt ({kind, ...}); "" for the prompts that the notes already say.
function promptPhrase(prompt, lang) {
  const w = SPEECH[lang] || SPEECH.en;
  const say = prompt && SPOKEN_PROMPTS.includes(prompt.kind) ? w.prompts[prompt.kind] : null;
  return say ? say(prompt, w).replace(/\s+/g, " ").trim() : "";
}

function promptKey(prompt) {
  if (!prompt || !SPOKEN_PROMPTS.includes(prompt.kind)) return "";
  return [prompt.kind, prompt.piece, prompt.cell, prompt.player, prompt.number].join("|");
}

// What is new in `snap` since `heard` (null: the first snapshot after loading, which says
// nothing): the notes with a higher n (all of a new game's), then a changed set-up prompt.
// Returns {say: [text], heard} where heard is passed back in with the next snapshot.
function announcements(heard, snap, lang) {
  const notes = (Array.isArray(snap.notes) ? snap.notes : []).filter((n) => n && Number.isFinite(n.n));
  const journal = snap.journal == null ? null : snap.journal;
  const sameGame = heard != null && heard.journal === journal;
  const since = sameGame ? heard.n : -Infinity;
  const newest = notes.reduce((most, n) => Math.max(most, n.n), since);
  const next = { journal, n: newest, prompt: promptKey(snap.prompt) };
  if (heard == null) return { say: [], heard: next };
  const fresh = notes.filter((n) => n.n > since).sort((a, b) => a.n - b.n).slice(-MOST_AT_ONCE);
  const say = fresh.map((n) => phrase(n, lang, snap.speech));
  if (next.prompt && next.prompt !== heard.prompt) say.push(promptPhrase(snap.prompt, lang));
  return { say: say.filter(Boolean), heard: next };
}

function voiceOnPhrase(lang) {
  return (SPEECH[lang] || SPEECH.en).voiceOn;
}

if (typeof module !== "undefined") {
  module.exports = { SPEECH_LANGS, NOTE_KINDS, SPOKEN_PROMPTS, phrase, promptPhrase, sayMove, announcements, voiceOnPhrase };
}
