// The page's words in the player's language. The words come from the board's "page" catalogue
// (gettext, kept with Babel; GET api/language/LANG), English being the words as written here.
// Marked in the HTML: `data-i18n` (the element's text; the element holds text only) and
// `data-i18n-attr="title aria-label"` (those attributes); in the scripts: _("..."),
// ngettext("one ...", "{n} ...", n) and N_("...") for words kept in a constant.
// The language: the player's choice (remembered), else the board's [page] language, else the
// browser's, else English.

const STORE = "reedboard.language";
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];  // gettext's form order
let lang = "en";
let messages = {};
let pluralRules = null;
const listeners = [];

export const N_ = (text) => text;
export function language() { return lang; }

export function _(text) {
  const found = messages[text];
  return typeof found === "string" && found ? found : text;
}

// {name} in `text` replaced by values[name] (as text: the page puts the result in as text).
export function format(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// The form of `one`/`many` for the count n, with {n} filled in (in the language's own numerals).
export function ngettext(one, many, n, values = {}) {
  const forms = messages[one];
  let text = n === 1 ? one : many;
  if (Array.isArray(forms) && pluralRules) {
    const categories = pluralRules.resolvedOptions().pluralCategories
      .slice().sort((a, b) => CATEGORIES.indexOf(a) - CATEGORIES.indexOf(b));
    const form = forms[categories.indexOf(pluralRules.select(n))];
    if (form) text = form;
  }
  return format(text, { n: number(n), ...values });
}

export function number(n, digits) {
  const options = digits == null ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang, options).format(n);
}

export function date(value, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(lang, options).format(value);
}

export function dateTime(value) { return date(value, { dateStyle: "medium", timeStyle: "short" }); }

const fold = (text) => text.replace(/\s+/g, " ").trim();

// A marked element given other English words (N_ marks them): shown in the language in use, and
// again in the next language chosen.
export function wordsInto(el, text) {
  el.dataset.i18nText = text;
  el.textContent = _(text);
}

// The games' sides by their colours, as the page names them: "{player} to move", "Black: Ann".
const SIDES = { black: N_("black"), white: N_("white"), red: N_("red"), yellow: N_("yellow") };
export function side(colour) { return SIDES[colour] ? _(SIDES[colour]) : String(colour || ""); }
export function Side(colour) { const name = side(colour); return name.charAt(0).toUpperCase() + name.slice(1); }

// Every marked element under `root` in the language in use (its English kept to look up again).
export function translateWithin(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el.dataset.i18nText == null) el.dataset.i18nText = fold(el.textContent);
    el.textContent = _(el.dataset.i18nText);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of el.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const key = `i18n_${name.replace(/-/g, "_")}`;
      if (el.dataset[key] == null) el.dataset[key] = fold(el.getAttribute(name) || "");
      if (el.dataset[key]) el.setAttribute(name, _(el.dataset[key]));
    }
  }
}

export function onLanguage(listener) { listeners.push(listener); }

export const LANGUAGE_NAMES = { en: "English", de: "Deutsch", ro: "Română" };

function wanted(offered, boardDefault) {
  let remembered = null;
  try { remembered = localStorage.getItem(STORE); } catch (error) { /* storage off: not remembered */ }
  const browser = (navigator.languages || [navigator.language || ""]).map((tag) => tag.slice(0, 2).toLowerCase());
  for (const code of [remembered, boardDefault, ...browser, "en"]) if (code && offered.includes(code)) return code;
  return "en";
}

// Loads `code`'s words and shows the page in them; `remember`: the player chose it.
export async function useLanguage(code, remember = false) {
  let words = {};
  if (code !== "en") {
    try {
      const response = await fetch(`api/language/${encodeURIComponent(code)}`);
      if (response.ok) words = (await response.json()).messages || {};
      else code = "en";
    } catch (error) { code = "en"; }
  }
  lang = code;
  messages = words;
  pluralRules = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  if (remember) { try { localStorage.setItem(STORE, lang); } catch (error) { /* not remembered */ } }
  translateWithin(document);
  for (const listener of listeners) listener(lang);
}

// The first language at the page's start: asks the board which it offers and prefers.
export async function startLanguage() {
  let offered = Object.keys(LANGUAGE_NAMES), boardDefault = null;
  try {
    const response = await fetch("api/languages");
    if (response.ok) {
      const answer = await response.json();
      offered = answer.languages.map((l) => l.code);
      boardDefault = answer.default;
    }
  } catch (error) { /* the page's own list */ }
  await useLanguage(wanted(offered, boardDefault));
}

// Requests carry the page's language, so the board's answers (a refusal) read as the page does.
export function languageHeaders() { return { "Accept-Language": lang }; }
