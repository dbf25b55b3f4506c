// "Join from a phone": the address other devices on the network open this page by, with its
// QR code. Shown only when the board listens beyond this computer (--listen 0.0.0.0:PORT).
import { _, format, languageHeaders, onLanguage } from "./i18n.js";

async function showJoin() {
  const card = document.querySelector('[data-role="join"]');
  if (!card) return;
  let info;
  try {
    const response = await fetch("api/join", { headers: languageHeaders() });
    if (!response.ok) return;
    info = await response.json();
  } catch (error) {
    return;  // the card stays hidden: the rest of the page does not depend on it
  }
  if (!info.others_can_join) return;
  const bare = (address) => address.replace(/^http:\/\//, "").replace(/\/$/, "");
  card.querySelector('[data-role="join-qr"]').src = info.qr_svg;
  const link = card.querySelector('[data-role="join-address"]');
  link.href = info.qr_address;
  link.textContent = bare(info.qr_address);
  others = info.addresses.filter((address) => address !== info.qr_address).map(bare);
  showOthers();
  card.hidden = false;
}

let others = [];  // the page's other addresses, said again in each language chosen

function showOthers() {
  const line = document.querySelector('[data-role="join-others"]');
  if (line) line.textContent = others.length ? format(_("Also: {addresses}"), { addresses: others.join(", ") }) : "";
}

onLanguage(showOthers);
showJoin();
