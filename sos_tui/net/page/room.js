// A room's page (/CODE): join or watch, then the board (an ARIA grid), the scoreboard, the moves,
// the votes, and a live region that says each event as `sos-tui --plain` does.
import { cellName, replay } from "./engine.js";
import { el, redraw, say } from "./dom.js";
import { _, format, said } from "./i18n.js";
import { forgetSeat, keepSeat, Link, seatOf } from "./socket.js";
import * as panels from "./panels.js";
import * as words from "./words.js";

const KEYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export class RoomView {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.link = null;
    this.state = null; // the last state message
    this.record = null; // {id, size, mode, players, moves} of the game held
    this.game = null; // the engine's replay of it
    this.seats = [];
    this.role = null;
    this.cursor = [0, 0];
    this.choosing = null;
    this.questions = {}; // "undo" / "rematch": the name of who asks, when this tab is to answer
    this.problem = "";
    this.lost = false;
    this.over = false;
  }

  start() {
    const kept = seatOf(this.code);
    if (kept) this.connect(kept.name);
    this.render();
  }

  connect(name) {
    this.problem = "";
    this.over = false;
    this.link = new Link(this.code, name, {
      message: (message) => this.heard(message),
      open: (again) => { if (again) say(_("Reconnected.")); this.lost = false; this.render(); },
      lost: (attempt) => {
        if (!this.lost) say(format(_("Connection lost: {problem}. Trying again (attempt {n})…"),
          { problem: _("the connection was lost"), n: attempt }));
        this.lost = true;
        this.render();
      },
      over: () => {
        this.over = true;
        if (!this.state) this.link = null; // refused before it was seated (a name taken): ask again
        this.render();
      },
    });
    this.link.open();
  }

  // -- what the server says ---------------------------------------------------------------
  heard(message) {
    switch (message.type) {
      case "welcome":
        this.seats = Array.isArray(message.seats) ? message.seats : [];
        this.role = message.role;
        if (typeof message.token === "string" && this.seats.length) keepSeat(this.code, message.token, this.link.name);
        else if (this.link.name !== null && !this.seats.length) say(_("No seat is open: you are watching."));
        break;
      case "state": this.took(message); break;
      case "presence":
        if (this.state && Number.isInteger(message.spectators)) this.state.spectators = message.spectators;
        break;
      case "undo-request":
      case "rematch-request": {
        const kind = message.type.split("-")[0];
        if (message.vote) {
          this.questions[kind] = String(message.name ?? "");
          say(format(kind === "undo" ? _("{name} asks to take back a move.") : _("{name} offers a rematch."),
            { name: this.questions[kind] }));
        }
        break;
      }
      case "undo-result":
      case "rematch-result": {
        const kind = message.type.split("-")[0];
        delete this.questions[kind];
        if (!message.accepted) {
          const reason = said(message.reason, message.template, message.params);
          say(format(kind === "undo" ? _("Undo declined: {reason}.") : _("No rematch: {reason}."), { reason }));
        }
        break;
      }
      case "error": {
        const reason = said(message.message, message.template, message.params);
        if (!this.state) this.problem = reason;
        if (message.code === "no-room" || message.code === "replaced" || message.code === "gone") forgetSeat(this.code);
        say(format(_("The server refused: {reason}"), { reason }));
        break;
      }
      case "closed":
        say(format(_("The game has ended: {reason}"), { reason: said(message.reason, message.template, message.params) }));
        break;
      default:
        return;
    }
    this.render();
  }

  took(message) {
    const before = this.game;
    const first = this.state === null;
    let record = this.record;
    if (message.game && typeof message.game === "object") {
      record = message.game;
    } else if (message.since && typeof message.since === "object") {
      const since = message.since;
      const fits = record && since.id === record.id && since.version === this.state.version &&
        Array.isArray(since.moves) && since.version + since.moves.length === message.version;
      if (!fits) {
        this.link.send({ type: "sync" });
        return;
      }
      record = { ...record, moves: [...record.moves, ...since.moves] };
    } else {
      record = null;
    }
    const game = record ? replay(record) : null;
    if (record && !game) {
      this.link.send({ type: "sync" });
      return;
    }
    this.state = message;
    this.record = record;
    this.game = game;
    // over before its board (a resignation, time, a claim, a draw, an abort): the whole record says
    // how, once per game (this page replays moves only)
    if (message.phase === "over" && game && !game.over && record?.result?.over !== true && this.endAsked !== record.id) {
      this.endAsked = record.id;
      this.link.send({ type: "sync" });
    }
    for (const sentence of words.told(message, game, before, first, this.names())) say(sentence);
  }

  names() {
    return (this.state?.seats || []).map((seat, i) => String(seat?.name ?? format(_("seat {number}"), { number: i + 1 })));
  }

  // -- what this tab does -----------------------------------------------------------------
  mine() {
    const state = this.state;
    return !!state && state.phase === "playing" && this.seats.includes(state.to_move) && !this.lost;
  }

  write(letter, row, col) {
    const chosen = this.choosing !== null;
    this.choosing = null;
    if (!this.game) return;
    const move = `${letter} ${cellName(row, col)}`;
    const why = this.refusal(move, row, col);
    if (why) say(why); // said here, as the server would refuse it (no message sent for nothing)
    else this.link.send({ type: "move", move, version: this.state.version });
    if (chosen) { // back to the board, on the cell chosen
      this.render();
      this.focusCursor();
    }
  }

  // Why `move` cannot be played now, in the server's own words; null when it can.
  refusal(move, row, col) {
    const state = this.state;
    const taken = this.game.cell(row, col);
    if (!this.seats.length) return _("spectators cannot move");
    if (state.phase === "over") return _("the game is over");
    if (this.lost) return _("Connection lost: trying again…");
    if ((state.waiting_for || []).length) {
      return format(_("waiting for {names} to reconnect"), { names: words.listed(state.waiting_for.map(String)) });
    }
    if (!this.seats.includes(state.to_move)) return format(_("it is {name}'s turn"), { name: this.names()[state.to_move] });
    if (taken) return format(_("cannot play {move}: {cell} already holds {letter}"), { move, cell: cellName(row, col), letter: taken });
    return null;
  }

  move(dr, dc) {
    const size = this.game.size;
    this.cursor = [Math.max(0, Math.min(size - 1, this.cursor[0] + dr)), Math.max(0, Math.min(size - 1, this.cursor[1] + dc))];
    this.render();
    this.focusCursor();
  }

  focusCursor() {
    const [row, col] = this.cursor;
    this.root.querySelector(`[data-cell="${row},${col}"]`)?.focus();
  }

  key(event) {
    if (!this.game) return;
    const [row, col] = this.cursor;
    if (KEYS[event.key]) {
      event.preventDefault();
      this.move(...KEYS[event.key]);
    } else if (event.key === "s" || event.key === "S" || event.key === "o" || event.key === "O") {
      event.preventDefault();
      this.write(event.key.toUpperCase(), row, col);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      this.cursor = [row, event.key === "Home" ? 0 : this.game.size - 1];
      this.render();
      this.focusCursor();
    }
  }

  tap(row, col) {
    this.cursor = [row, col];
    this.choosing = this.mine() && this.game.cell(row, col) === null ? [row, col] : null;
    this.render();
    if (this.choosing) this.root.querySelector(".choose button")?.focus();
    else this.focusCursor();
  }

  // -- drawing ------------------------------------------------------------------------------
  render() {
    redraw(this.root, this.state || this.link ? this.playing() : this.joining());
  }

  joining() {
    const name = el("input", { id: "name", autocomplete: "nickname", maxLength: 24, required: true,
      value: localStorage.getItem("sos-name") ?? "" });
    const take = (event) => {
      event.preventDefault();
      const chosen = name.value.trim();
      if (!chosen) { this.problem = _("Type a name first."); this.render(); return; }
      localStorage.setItem("sos-name", chosen);
      this.connect(chosen);
      this.render();
    };
    const watch = () => { this.connect(null); this.render(); };
    return [
      el("h2", {}, format(_("Game {code}"), { code: this.code })),
      el("form", { class: "join", onsubmit: take },
        el("label", { htmlFor: "name" }, _("Your name")), name,
        el("div", { class: "buttons" },
          el("button", { type: "submit", class: "primary" }, _("Take a seat")),
          el("button", { type: "button", onclick: watch }, _("Watch")))),
      this.problem ? el("p", { class: "problem", role: "alert" }, this.problem) : null,
      el("p", {}, el("a", { href: "/" }, _("Back to the lobby"))),
    ];
  }

  playing() {
    const state = this.state;
    if (!state) {
      const waiting = this.over ? (this.problem || _("The connection was closed.")) : _("Connecting…");
      return [el("h2", {}, format(_("Game {code}"), { code: this.code })),
        el("p", { class: this.over ? "problem" : "" }, waiting),
        this.over ? el("p", {}, el("a", { href: "/" }, _("Back to the lobby"))) : null];
    }
    const names = this.names();
    return [
      el("h2", {}, format(_("Game {code}"), { code: this.code }), " ",
        el("span", { class: "subtle" }, format(_("{size} by {size}, {mode} mode"), { size: state.size, mode: words.modeName(state.mode) }))),
      el("p", { class: "status" }, this.status(names)),
      el("div", { class: "room" },
        el("div", { class: "play" }, this.game
          ? panels.board(this.game, this.cursor, (row, col) => this.tap(row, col), (event) => this.key(event))
          : el("p", {}, _("The game starts when every seat is taken.")),
          this.chooser(), this.actions()),
        el("div", { class: "side" }, panels.scoreboard(this.state, this.game, this.seats, names),
          panels.moveList(this.game, names), this.share())),
    ];
  }

  status(names) {
    const state = this.state;
    if (this.lost) return _("Connection lost: trying again…");
    if (this.over && !this.game?.over) return _("The connection was closed.");
    if (!this.game) return _("Waiting for players.");
    if (this.game.over) return [words.result(this.game, names), words.rated(state.ratings, names)].join(" ").trim();
    if (state.phase === "over") { // ended by the rules before the board was full
      return [words.ended(this.record, names) || _("the game is over"), words.rated(state.ratings, names)].join(" ").trim();
    }
    if ((state.waiting_for || []).length) return format(_("waiting for {names} to reconnect"), { names: words.listed(state.waiting_for.map(String)) });
    if (this.mine()) return _("Your turn: choose a cell, then S or O.");
    return Number.isInteger(state.to_move) ? words.nextUp(names, state.to_move, false, state.seats?.[state.to_move]?.kind === "computer") : "";
  }

  chooser() {
    if (!this.choosing || !this.mine()) return null;
    const [row, col] = this.choosing;
    const cancel = () => { this.choosing = null; this.render(); this.focusCursor(); };
    return el("div", { class: "choose", role: "group", "aria-label": format(_("Write at {cell}"), { cell: cellName(row, col) }),
      onkeydown: (event) => { if (event.key === "Escape") cancel(); } },
      el("span", {}, format(_("Write at {cell}"), { cell: cellName(row, col) })),
      el("button", { type: "button", class: "letter", onclick: () => this.write("S", row, col) }, "S"),
      el("button", { type: "button", class: "letter", onclick: () => this.write("O", row, col) }, "O"),
      el("button", { type: "button", onclick: cancel }, _("Cancel")));
  }

  actions() {
    const state = this.state;
    const seated = this.seats.length > 0;
    const buttons = [];
    const vote = (kind, accept) => { delete this.questions[kind]; this.link.send({ type: `${kind}-answer`, accept }); this.render(); };
    for (const kind of ["undo", "rematch"]) {
      if (this.questions[kind] !== undefined) {
        buttons.push(el("div", { class: "question", role: "group" },
          el("span", {}, format(kind === "undo" ? _("{name} asks to take back a move.") : _("{name} offers a rematch."), { name: this.questions[kind] })),
          el("button", { type: "button", "data-key": `${kind}-yes`, onclick: () => vote(kind, true) }, _("Yes")),
          el("button", { type: "button", "data-key": `${kind}-no`, onclick: () => vote(kind, false) }, _("No"))));
      }
    }
    if (seated && state.phase === "playing" && this.game?.moves.length) {
      buttons.push(el("button", { type: "button", "data-key": "undo", onclick: () => { this.link.send({ type: "undo" }); say(_("Asked the others to take back the last move.")); } }, _("Undo")));
    }
    if (seated && state.phase === "over") {
      buttons.push(el("button", { type: "button", class: "primary", "data-key": "rematch", onclick: () => this.link.send({ type: "rematch" }) }, _("Rematch")));
    }
    buttons.push(el("button", { type: "button", "data-key": "leave", onclick: () => this.leave() }, seated ? _("Leave") : _("Stop watching")));
    return el("div", { class: "actions" }, buttons);
  }

  leave() {
    if (this.seats.length) this.link.send({ type: "bye" });
    forgetSeat(this.code);
    this.link.close();
    location.assign("/");
  }

  share() {
    return el("section", { class: "share" }, el("label", { htmlFor: "link" }, _("Invite with this link")),
      el("input", { id: "link", readOnly: true, value: location.href }));
  }
}
