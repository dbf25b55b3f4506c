// The games: the snapshot's list of the registry's games, or the catalog the page asked for.
import { languageHeaders } from "./i18n.js";
import { state } from "./state.js";

let catalog = [];  // the registry's games (GET api/catalog), when the snapshot has none

export function games() { return (state.snap && state.snap.games) || catalog || []; }

// What the page knows of a game: the snapshot's entry over the catalog's (either may lack a key),
// but the start options as the catalog words them, in the page's language.
export function gameInfo(name) {
  const fallback = { name, title: name, uses_die: true, setup_modes: [], options: [] };
  const listed = (list) => (list || []).find((g) => g.name === name) || {};
  const asked = listed(catalog);
  return { ...fallback, ...asked, ...listed(state.snap && state.snap.games), ...(asked.options ? { options: asked.options } : {}) };
}

let asking = 0;  // the latest request: an answer in a language left behind since is not kept

export async function loadCatalog() {
  const ask = ++asking;
  try {
    const response = await fetch("api/catalog", { headers: languageHeaders() });
    const answer = response.ok ? await response.json() : null;
    if (answer && ask === asking) catalog = answer;
  } catch (error) { /* the snapshot's list, when it has one, is used */ }
}
