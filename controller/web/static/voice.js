// Sound and voice: the settings remembered in this browser, the cue's tones (sound.js) and
// the new notes said aloud, in the page's language. speech.js is a classic script loaded
// before the modules: its SPEECH_LANGS and announcements() are the page's globals.
/* global SPEECH_LANGS, announcements */
import { $$ } from "./dom.js";
import { _, language, onLanguage } from "./i18n.js";
import { audioContext, playCue } from "./sound.js";

const heard = { notes: null, cue: null };  // what was announced and sounded so far (null: nothing yet)

const VOICE_DEFAULTS = { sound: "0", speech: "0", rate: "1", guide: "1" };

export function voiceSetting(name) {
  let value = null;
  try { value = localStorage.getItem(`reedboard-${name}`); } catch (error) { /* storage blocked */ }
  return value == null ? VOICE_DEFAULTS[name] : value;
}

export function storeVoiceSetting(name, value) {
  try { localStorage.setItem(`reedboard-${name}`, value); } catch (error) { /* storage blocked */ }
}

function speak(texts, lang = language()) {
  const synth = window.speechSynthesis;
  if (!synth || typeof SpeechSynthesisUtterance === "undefined") return;
  const tag = SPEECH_LANGS[lang] || SPEECH_LANGS.en;
  const voice = synth.getVoices().find((v) => v.lang === tag)
    || synth.getVoices().find((v) => v.lang && v.lang.startsWith(tag.slice(0, 2)));
  for (const text of texts) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = tag;
    utterance.rate = Number(voiceSetting("rate")) || 1;
    if (voice) utterance.voice = voice;
    synth.speak(utterance);
  }
}

// Sound a new cue and say the new notes; the first snapshot after loading only sets the mark.
export function announce(snap) {
  const cue = snap.cue || null;
  if (cue && heard.cue != null && cue.n !== heard.cue && cue.n > 0 && voiceSetting("sound") === "1") {
    playCue(cue.name);
  }
  if (cue) heard.cue = cue.n;
  const lang = language();
  const { say, heard: now } = announcements(heard.notes, snap, lang);
  heard.notes = now;
  if (say.length && voiceSetting("speech") === "1") speak(say, lang);
}

export function wireVoice() {
  const inputs = {};
  for (const input of $$("[data-setting]")) inputs[input.dataset.setting] = input;
  inputs.sound.checked = voiceSetting("sound") === "1";
  inputs.speech.checked = voiceSetting("speech") === "1";
  inputs.rate.value = voiceSetting("rate");
  inputs.sound.addEventListener("change", () => {
    storeVoiceSetting("sound", inputs.sound.checked ? "1" : "0");
    if (inputs.sound.checked) playCue("move");  // this click is the gesture that lets audio play
  });
  const sayVoiceOn = () => {
    if (inputs.speech.checked) speak([_("Voice on.")]);
  };
  inputs.speech.addEventListener("change", () => {
    storeVoiceSetting("speech", inputs.speech.checked ? "1" : "0");
    sayVoiceOn();
  });
  // a new language: what was being said in the old one stops, and the voice speaks the new one
  let spoken = null;  // the first language is the page's start, when nothing is said
  onLanguage((lang) => {
    if (spoken === null || lang === spoken) { spoken = lang; return; }
    spoken = lang;
    if (window.speechSynthesis) window.speechSynthesis.cancel();
    sayVoiceOn();
  });
  inputs.rate.addEventListener("change", () => {
    storeVoiceSetting("rate", inputs.rate.value);
    sayVoiceOn();
  });
  // sound remembered as on: the audio may start only after a gesture on this page
  const wake = () => { if (voiceSetting("sound") === "1") audioContext(); };
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
}
