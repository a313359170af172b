// A room's page (/CODE): join or watch, then the board (an ARIA grid), the scoreboard, the moves,
// the votes, and a live region that says each event as `sos-tui --plain` does.
import { cellName, MARKS, replay } from "./engine.js";
import { el, redraw, say, svg } from "./dom.js";
import { _, format, said } from "./i18n.js";
import { forgetSeat, keepSeat, Link, seatOf } from "./socket.js";
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
    this.announce(message, before, first);
  }

  names() {
    return (this.state?.seats || []).map((seat, i) => String(seat?.name ?? format(_("seat {number}"), { number: i + 1 })));
  }

  announce(message, before, first) {
    const game = this.game;
    const names = this.names();
    const change = message.change;
    if (!game) {
      if (first) say(_("Joined. The game starts when every seat is taken."));
      return;
    }
    let scored = false;
    if (first || change === "start" || change === "rematch" || !before) {
      say(words.start(game, names));
      if (game.moves.length) say(words.score(game, names));
    } else if (change === "move" && game.moves.length) {
      const last = game.moves.length - 1;
      say(words.wrote(names, game.movers[last], game.moves[last]));
      for (const line of game.lines.filter((l) => l.move === last)) {
        say(words.sos(names, line));
        scored = true;
      }
      if (scored || game.over) say(words.score(game, names));
    } else if (change === "undo") {
      say([_("Undone."), words.score(game, names)].join(" "));
    } else if (change === "leave" || change === "quit") {
      const away = (message.waiting_for || []).map(String);
      if (away.length) say(format(_("waiting for {names} to reconnect"), { names: words.listed(away) }));
      return;
    } else {
      return;
    }
    if (game.over) say(words.result(game, names));
    else if (Number.isInteger(message.to_move)) {
      const seat = message.seats?.[message.to_move];
      say(words.nextUp(names, message.to_move, scored, seat?.kind === "computer"));
    }
  }

  // -- what this tab does -----------------------------------------------------------------
  mine() {
    const state = this.state;
    return !!state && state.phase === "playing" && this.seats.includes(state.to_move) && !this.lost;
  }

  write(letter, row, col) {
    const chosen = this.choosing !== null;
    this.choosing = null;
    if (this.mine() && this.game && this.game.cell(row, col) === null) {
      this.link.send({ type: "move", move: `${letter} ${cellName(row, col)}`, version: this.state.version });
    }
    if (chosen) { // back to the board, on the cell chosen
      this.render();
      this.focusCursor();
    }
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
        el("div", { class: "play" }, this.game ? this.board() : el("p", {}, _("The game starts when every seat is taken.")),
          this.chooser(), this.actions()),
        el("div", { class: "side" }, this.scoreboard(names), this.moveList(names), this.share())),
    ];
  }

  status(names) {
    const state = this.state;
    if (this.lost) return _("Connection lost: trying again…");
    if (this.over && !this.game?.over) return _("The connection was closed.");
    if (!this.game) return _("Waiting for players.");
    if (this.game.over) return words.result(this.game, names);
    if ((state.waiting_for || []).length) return format(_("waiting for {names} to reconnect"), { names: words.listed(state.waiting_for.map(String)) });
    if (this.mine()) return _("Your turn: choose a cell, then S or O.");
    return Number.isInteger(state.to_move) ? words.nextUp(names, state.to_move, false, state.seats?.[state.to_move]?.kind === "computer") : "";
  }

  board() {
    const game = this.game;
    const size = game.size;
    const [cr, cc] = this.cursor;
    const rows = [];
    for (let row = 0; row < size; row++) {
      const cells = [];
      for (let col = 0; col < size; col++) {
        const letter = game.cell(row, col);
        const name = cellName(row, col);
        cells.push(el("div", { role: "gridcell", class: `cell${letter ? "" : " empty"}`, tabIndex: row === cr && col === cc ? 0 : -1,
          "aria-label": [name, letter || _("empty")].join(", "), "data-cell": `${row},${col}`,
          onclick: () => this.tap(row, col) }, letter || ""));
      }
      rows.push(el("div", { role: "row", class: "row" }, el("span", { class: "rownum", "aria-hidden": "true" }, String(row + 1)), cells));
    }
    const heading = el("div", { class: "cols", "aria-hidden": "true" }, el("span", { class: "rownum" }),
      [...Array(size).keys()].map((col) => el("span", {}, cellName(0, col)[0])));
    const grid = el("div", { role: "grid", class: "grid", "aria-label": _("Board"), "aria-rowcount": size,
      "aria-colcount": size, onkeydown: (event) => this.key(event) }, rows);
    const lines = svg("svg", { class: "lines", viewBox: `0 0 ${size} ${size}`, "aria-hidden": "true", preserveAspectRatio: "none" });
    for (const line of game.lines) {
      const [[r1, c1], , [r3, c3]] = line.cells;
      const player = line.player % MARKS.length;
      lines.append(svg("line", { x1: c1 + 0.5, y1: r1 + 0.5, x2: c3 + 0.5, y2: r3 + 0.5, class: `p${player}` }));
      for (const t of [0.25, 0.75]) {
        const mark = svg("text", { x: c1 + 0.5 + (c3 - c1) * t, y: r1 + 0.5 + (r3 - r1) * t, class: `mark p${player}` });
        mark.textContent = MARKS[player];
        lines.append(mark);
      }
    }
    const board = el("div", { class: "board" }, heading, el("div", { class: "field" }, grid, lines));
    board.style.setProperty("--n", String(size)); // CSSOM, not a style attribute: the CSP allows it
    return board;
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

  scoreboard(names) {
    const state = this.state;
    const items = (state.seats || []).map((seat, i) => {
      const notes = [];
      if (this.seats.includes(i)) notes.push(_("you"));
      if (seat?.kind === "computer") notes.push(format(_("computer, {level}"), { level: words.levelName(seat.level) }));
      else if (seat?.name === null || seat?.name === undefined) notes.push(_("open seat"));
      else if (!seat?.connected) notes.push(_("away"));
      const turn = state.phase === "playing" && state.to_move === i;
      return el("li", { class: `seat p${i % MARKS.length}${turn ? " turn" : ""}`, "aria-current": turn ? "true" : null },
        el("span", { class: "mark", "aria-hidden": "true" }, MARKS[i % MARKS.length]),
        el("span", { class: "who" }, names[i], notes.length ? el("span", { class: "subtle" }, ` (${notes.join(", ")})`) : null),
        el("span", { class: "points" }, String(this.game?.scores[i] ?? 0)));
    });
    const watching = Number.isInteger(state.spectators) && state.spectators > 0
      ? el("p", { class: "subtle" }, format(_("{n} watching"), { n: state.spectators })) : null;
    return el("section", { "aria-labelledby": "score-heading" }, el("h3", { id: "score-heading" }, _("Score")),
      el("ul", { class: "scores" }, items), watching);
  }

  moveList(names) {
    const game = this.game;
    const items = game ? game.moves.map((_move, i) => el("li", {}, words.moveLine(game, names, i))) : [];
    return el("section", { "aria-labelledby": "moves-heading" }, el("h3", { id: "moves-heading" }, _("Moves")),
      items.length ? el("ol", { class: "moves", tabIndex: 0 }, items.reverse()) : el("p", { class: "subtle" }, _("No move yet.")));
  }

  share() {
    return el("section", { class: "share" }, el("label", { htmlFor: "link" }, _("Invite with this link")),
      el("input", { id: "link", readOnly: true, value: location.href }));
  }
}
