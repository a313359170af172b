// The lobby (/): the open public games, the bots to play (revision 6), create a game, join one by its code.
import { el, redraw } from "./dom.js";
import { _, format, ngettext, said } from "./i18n.js";
import { ask, keepSeat, PROTOCOL } from "./socket.js";
import * as words from "./words.js";

const CODE = /^[0-9a-hjkmnp-tv-z]{5}-?[0-9a-hjkmnp-tv-z]{5}$/i;

export class LobbyView {
  constructor(root) {
    this.root = root;
    this.rooms = null;
    this.bots = [];
    this.problem = "";
    this.busy = false;
  }

  start() {
    this.render();
    this.refresh();
  }

  async refresh() {
    try {
      const answer = await ask({ type: "lobby", protocol: PROTOCOL });
      this.rooms = answer.type === "rooms" && Array.isArray(answer.rooms) ? answer.rooms : [];
      this.bots = answer.type === "rooms" && Array.isArray(answer.bots) ? answer.bots : [];
      if (answer.type === "error") this.problem = said(answer.message, answer.template, answer.params);
    } catch {
      this.rooms = [];
      this.problem = _("The server cannot be reached.");
    }
    this.shown.replaceChildren(this.listing()); // the lists alone: the fields stay as they are being typed
    this.botsShown.replaceChildren(this.botListing());
    this.told.replaceChildren(this.problem);
  }

  name() {
    return (this.root.querySelector("#name")?.value ?? localStorage.getItem("sos-name") ?? "").trim();
  }

  async create(event) {
    event.preventDefault();
    const name = this.name();
    if (!name) { this.problem = _("Type a name first."); this.render(); return; }
    localStorage.setItem("sos-name", name);
    const form = event.target;
    const people = Number(form.people.value);
    const computers = Number(form.computers.value);
    const seats = [{ kind: "human", name }];
    for (let i = 1; i < people; i++) seats.push({ kind: "remote" });
    for (let i = 0; i < computers; i++) seats.push({ kind: "computer", level: form.level.value });
    if (seats.length < 2) seats.push({ kind: "remote" });
    await this.make(name, { size: Number(form.size.value), mode: form.mode.value, seats, public: form.public.checked });
  }

  // A game against the bot `bot`, at the create form's size and mode.
  async play(bot) {
    const name = this.name();
    if (!name) { this.problem = _("Type a name first."); this.render(); return; }
    localStorage.setItem("sos-name", name);
    const seats = [{ kind: "human", name }, { kind: "remote" }];
    await this.make(name, { size: Number(this.root.querySelector("#size").value),
      mode: this.root.querySelector("#mode").value, seats, public: false, bot });
  }

  // Ask the server for the game `settings` describe; go to it once made, else say why.
  async make(name, settings) {
    this.busy = true;
    this.render();
    try {
      const answer = await ask({ type: "create", protocol: PROTOCOL, ...settings });
      if (answer.type === "created" && typeof answer.room === "string" && CODE.test(answer.room)) {
        keepSeat(answer.room, answer.token, name);
        location.assign(`/${answer.room}`);
        return;
      }
      this.problem = said(answer.message, answer.template, answer.params) || _("The server refused.");
    } catch {
      this.problem = _("The server cannot be reached.");
    }
    this.busy = false;
    this.render();
  }

  join(event) {
    event.preventDefault();
    const code = this.root.querySelector("#code").value.trim().toLowerCase();
    if (!CODE.test(code.replace(/i|l/g, "1").replace(/o/g, "0"))) {
      this.problem = _("A game code is ten letters and digits, like 7f3kq-x9m2c.");
      this.render();
      return;
    }
    const name = this.name();
    if (name) localStorage.setItem("sos-name", name);
    location.assign(`/${encodeURIComponent(code)}`);
  }

  render() {
    const options = (low, high, chosen) => [...Array(high - low + 1).keys()].map((i) =>
      el("option", { value: String(low + i), selected: low + i === chosen }, String(low + i)));
    const field = (id, label, control) => el("div", { class: "field-row" }, el("label", { htmlFor: id }, label), control);
    redraw(this.root, [
      el("h2", {}, _("Play SOS in your browser")),
      el("div", { class: "field-row" }, el("label", { htmlFor: "name" }, _("Your name")),
        el("input", { id: "name", autocomplete: "nickname", maxLength: 24, value: localStorage.getItem("sos-name") ?? "",
          onchange: () => localStorage.setItem("sos-name", this.name()) })),
      this.told = el("p", { class: "problem", role: "alert" }, this.problem),
      el("section", { "aria-labelledby": "open-heading" }, el("h3", { id: "open-heading" }, _("Open games")),
        this.shown = el("div", {}, this.listing()),
        el("button", { type: "button", "data-key": "refresh", onclick: () => this.refresh() }, _("Refresh"))),
      el("section", { "aria-labelledby": "bots-heading" }, el("h3", { id: "bots-heading" }, _("Play a bot")),
        this.botsShown = el("div", {}, this.botListing())),
      el("section", { "aria-labelledby": "create-heading" }, el("h3", { id: "create-heading" }, _("Create a game")),
        el("form", { class: "create", onsubmit: (event) => this.create(event) },
          field("size", _("Board size"), el("select", { id: "size", name: "size" }, options(3, 12, 6))),
          field("mode", _("Mode"), el("select", { id: "mode", name: "mode" },
            el("option", { value: "general" }, words.modeName("general")), el("option", { value: "simple" }, words.modeName("simple")))),
          field("people", _("People"), el("select", { id: "people", name: "people" }, options(1, 6, 2))),
          field("computers", _("Computer players"), el("select", { id: "computers", name: "computers" }, options(0, 5, 0))),
          field("level", _("Computer level"), el("select", { id: "level", name: "level" },
            ["easy", "medium", "hard", "expert"].map((level) => el("option", { value: level, selected: level === "medium" }, words.levelName(level))))),
          el("div", { class: "field-row check" }, el("input", { type: "checkbox", id: "public", name: "public", checked: true }),
            el("label", { htmlFor: "public" }, _("List it in the open games"))),
          el("button", { type: "submit", class: "primary", "data-key": "create", disabled: this.busy }, _("Create the game")))),
      el("section", { "aria-labelledby": "join-heading" }, el("h3", { id: "join-heading" }, _("Join by code")),
        el("form", { class: "inline", onsubmit: (event) => this.join(event) },
          el("label", { htmlFor: "code" }, _("Game code")),
          el("input", { id: "code", autocomplete: "off", maxLength: 20, placeholder: "7f3kq-x9m2c" }),
          el("button", { type: "submit" }, _("Join")))),
    ]);
  }

  // The bots connected to the server, each with a Play button (a game at the create form's size and mode).
  botListing() {
    const bots = this.bots.filter((bot) => bot && typeof bot.name === "string" && Number.isInteger(bot.free));
    if (this.rooms === null) return el("p", {}, _("Looking for bots…"));  // the lobby's answer is not here yet
    if (!bots.length) return el("p", { class: "subtle" }, _("No bot is connected just now."));
    const hint = el("p", { class: "subtle" }, _("A game against a bot has the board size and mode chosen under Create a game."));
    return el("div", {}, hint, el("ul", { class: "listing" }, bots.map((bot) => {
      const name = String(bot.name).slice(0, 24);
      const engine = typeof bot.engine === "string" ? " · " + bot.engine.slice(0, 40) : "";
      const free = format(ngettext("{free} game free", "{free} games free", bot.free), { free: bot.free });
      return el("li", {}, el("span", { class: "who" }, format(_("{name} (bot)"), { name })), engine, " · ", free, " ",
        el("button", { type: "button", "data-key": "play-bot", disabled: this.busy || bot.free < 1,
          "aria-label": format(_("Play {name}"), { name }), onclick: () => this.play(bot.name) }, _("Play")));
    })));
  }

  listing() {
    if (this.rooms === null) return el("p", {}, _("Looking for open games…"));
    const rooms = this.rooms.filter((room) => room && typeof room.room === "string" && CODE.test(room.room));
    if (!rooms.length) return el("p", { class: "subtle" }, _("No open game just now: create one."));
    return el("ul", { class: "listing" }, rooms.map((room) => {
      const ratings = Array.isArray(room.ratings) && room.ratings.length === (room.waiting || []).length ? room.ratings : [];
      const waiting = Array.isArray(room.waiting) ? room.waiting.slice(0, 6).map((n, i) => String(n).slice(0, 24)
        + (Number.isInteger(ratings[i]) ? ` (${ratings[i]})` : "")) : [];
      const text = format(ngettext("{size} by {size}, {mode} mode, {free} seat free", "{size} by {size}, {mode} mode, {free} seats free", room.free),
        { size: room.size, mode: words.modeName(room.mode), free: room.free });
      return el("li", {}, el("a", { href: `/${room.room}` }, format(_("Game {code}"), { code: room.room })), " ", text,
        waiting.length ? " · " + format(_("{names} waiting"), { names: words.listed(waiting) }) : "",
        room.rated === true ? " · " + _("rated") : "");
    }));
  }
}
