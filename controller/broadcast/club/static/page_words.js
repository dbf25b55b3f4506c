// The words of the club's pages: the page's languages (/club/i18n.js, the board page's module), or
// English where a server does not serve them. One fallback for the club's and the spectators' page.

const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));

const ENGLISH = {
  _: (text) => text,
  N_: (text) => text,
  format: fill,
  ngettext: (one, many, n, values = {}) => fill(n === 1 ? one : many, { n, ...values }),
  side: (colour) => String(colour || ""),
  number: (n) => String(n),
  languageHeaders: () => ({}),
  onLanguage: () => {},
  startLanguage: async () => {},
  useLanguage: async () => {},
  language: () => "en",
  LANGUAGE_NAMES: { en: "English" },
};

export async function pageWords() {
  try {
    return await import("/club/i18n.js");
  } catch (error) {
    return ENGLISH;
  }
}
