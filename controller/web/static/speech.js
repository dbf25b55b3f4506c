// What the page says aloud: the choice of what in a snapshot is new enough to say, and the
// voices' language tags. The sentences are the board's: each snapshot brings them in every
// language (`words[lang].said`: each note said, by its number n; `words[lang].prompt_said`: the
// set-up prompt said when it comes up). Pure functions with no DOM, so that the tests can run
// this file under node; voice.js does the speaking.
"use strict";

const SPEECH_LANGS = { en: "en-GB", de: "de-DE", ro: "ro-RO" };
const MOST_AT_ONCE = 3;  // after a gap (a reconnection), only the newest few notes are said

// The snapshot's spoken words in `lang` (English when it has none in that language).
function spokenWords(snap, lang) {
  const words = snap.words || {};
  return words[lang] || words.en || {};
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
  const words = spokenWords(snap, lang);
  // the prompt known by its English words, so that a change of language is no new prompt
  const prompt = spokenWords(snap, "en").prompt_said || "";
  const next = { journal, n: newest, prompt };
  if (heard == null) return { say: [], heard: next };
  const said = words.said || {};
  const fresh = notes.filter((n) => n.n > since).sort((a, b) => a.n - b.n).slice(-MOST_AT_ONCE);
  const say = fresh.map((n) => String(said[n.n] || ""));
  if (prompt && prompt !== heard.prompt) say.push(String(words.prompt_said || prompt));
  return { say: say.map((text) => text.replace(/\s+/g, " ").trim()).filter(Boolean), heard: next };
}

if (typeof module !== "undefined") {
  module.exports = { SPEECH_LANGS, MOST_AT_ONCE, announcements };
}
