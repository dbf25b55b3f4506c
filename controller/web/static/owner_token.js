// The owner's token (a board served beyond localhost prints an address with ?token=...): taken
// from the address once, kept for this tab, and sent with every request that changes something.
import { languageHeaders } from "./i18n.js";

const token = (function takeToken() {
  const params = new URLSearchParams(location.search);
  const given = params.get("token");
  if (given) {
    sessionStorage.setItem("reedboard-token", given);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }
  return sessionStorage.getItem("reedboard-token");
})();

// A request's headers: the page's language (a refusal comes back in it), JSON, the owner's token.
export function headers(json) {
  const h = { ...languageHeaders() };
  if (json) h["Content-Type"] = "application/json";
  if (token) h["X-Reedboard-Token"] = token;
  return h;
}
