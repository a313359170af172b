// The page's start: its language, then the lobby (/) or a room (/CODE).
import { LANGUAGES, _, load, preferred } from "./i18n.js";
import { LobbyView } from "./lobby.js";
import { RoomView } from "./room.js";

const CODE = /^\/([0-9a-z]{5}-?[0-9a-z]{5})\/?$/i;

function normal(code) {
  const chars = code.toLowerCase().replace(/-/g, "").replace(/[il]/g, "1").replace(/o/g, "0");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

async function main() {
  const picker = document.getElementById("language");
  const root = document.getElementById("main");
  await load(preferred()).catch(() => load("en"));
  const found = CODE.exec(location.pathname);
  const view = found ? new RoomView(root, normal(found[1])) : new LobbyView(root);
  const label = () => {
    document.getElementById("language-label").textContent = _("Language");
    document.title = found ? `SOS · ${view.code}` : "SOS · " + _("Play SOS in your browser");
  };
  picker.value = document.documentElement.lang;
  picker.addEventListener("change", async () => {
    if (!(picker.value in LANGUAGES)) return;
    localStorage.setItem("sos-language", picker.value);
    await load(picker.value);
    label();
    view.render();
  });
  label();
  view.start();
}

main();
