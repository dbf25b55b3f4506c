// What the page says aloud: the choice of what in a snapshot is new enough to say, and the
// voices' language tags. The sentences are the board's: each snapshot brings them in the page's
// language (`words[lang].said`: each note said, by its number n; `words[lang].prompt_said`: the
// set-up prompt said when it comes up; the club's copy brings every language). Pure functions
// with no DOM, so that the tests can run this file under node; voice.js does the speaking.
"use strict";

const SPEECH_LANGS = { en: "en-GB", de: "de-DE", ro: "ro-RO" };
const MOST_AT_ONCE = 3;  // after a gap (a reconnection), only the newest few notes are said

// The snapshot's spoken words in `lang`; null when it brings words, but not in `lang` (the
// page's language just changed: they are on their way); none from a board that sends no words.
function spokenWords(snap, lang) {
  const words = snap.words || {};
  if (words[lang]) return words[lang];
  return Object.keys(words).length ? null : {};
}

// What is new in `snap` since `heard` (null: the first snapshot after loading, which says
// nothing): the notes with a higher n (all of a new game's), then a changed set-up prompt.
// Returns {say: [text], heard} where heard is passed back in with the next snapshot.
function announcements(heard, snap, lang) {
  const words = spokenWords(snap, lang);
  if (words === null) return { say: [], heard };  // said once the words in `lang` come
  const notes = (Array.isArray(snap.notes) ? snap.notes : []).filter((n) => n && Number.isFinite(n.n));
  const journal = snap.journal == null ? null : snap.journal;
  const sameGame = heard != null && heard.journal === journal;
  const since = sameGame ? heard.n : -Infinity;
  const newest = notes.reduce((most, n) => Math.max(most, n.n), since);
  // the prompt known by its words; across a change of language, by what it asks (its data)
  const prompt = words.prompt_said || "";
  const asks = JSON.stringify(snap.prompt === undefined ? null : snap.prompt);
  const next = { journal, n: newest, prompt, asks, lang };
  if (heard == null) return { say: [], heard: next };
  const said = words.said || {};
  const fresh = notes.filter((n) => n.n > since).sort((a, b) => a.n - b.n).slice(-MOST_AT_ONCE);
  const say = fresh.map((n) => String(said[n.n] || ""));
  const newPrompt = heard.lang === lang ? prompt !== heard.prompt : !heard.prompt || asks !== heard.asks;
  if (prompt && newPrompt) say.push(String(prompt));
  return { say: say.map((text) => text.replace(/\s+/g, " ").trim()).filter(Boolean), heard: next };
}

if (typeof module !== "undefined") {
  module.exports = { SPEECH_LANGS, MOST_AT_ONCE, announcements };
}
