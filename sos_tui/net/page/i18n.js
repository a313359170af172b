// The page's words: English in the code, other languages from /i18n/LANG.json, which the server
// builds from the same gettext catalog as the terminal's (sos_tui/net/webpage.py). Words are marked
// with the functions _ and ngettext, each string in double quotes on one line and never inside a
// template literal, so that tools/catalog.py and the server find them.

export const LANGUAGES = { en: "English", ms: "Bahasa Melayu" };
let messages = {};
let server = new Set();
let current = "en";

export function language() {
  return current;
}

export function _(message) {
  const text = messages[message];
  return typeof text === "string" ? text : message;
}

export function ngettext(singular, plural, n) {
  const forms = messages[singular];
  if (Array.isArray(forms)) return forms[n === 1 ? 0 : forms.length - 1];
  return n === 1 ? singular : plural;
}

// str.format for the catalog's "{name}" and "{name!r}" fields; params are shown as text, never parsed.
export function format(template, params) {
  return template.replace(/\{(\w+)(!r)?\}/g, (whole, name, repr) =>
    name in params ? (repr ? `'${params[name]}'` : String(params[name])) : whole);
}

// A server's message in this language when its template is one the server may send and its
// params are plain; else its English text, as it came.
export function said(english, template, params) {
  const fallback = typeof english === "string" ? english : "";
  if (typeof template !== "string" || !server.has(template) || typeof params !== "object" || params === null) {
    return fallback;
  }
  const values = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string") values[name] = value.slice(0, 60);
    else if (Number.isInteger(value)) values[name] = value;
    else return fallback;
  }
  return format(_(template), values);
}

// The language to start in: the one chosen on this page before, else the browser's.
export function preferred() {
  const chosen = localStorage.getItem("sos-language");
  if (chosen in LANGUAGES) return chosen;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export async function load(code) {
  const answer = await fetch(`/i18n/${code}.json`);
  if (!answer.ok) throw new Error(`no words for ${code}`);
  const body = await answer.json();
  messages = body.messages || {};
  server = new Set(body.server || []);
  current = code;
  document.documentElement.lang = code;
}
