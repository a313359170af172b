// The parts of a room's page drawn from the game alone: the board (an ARIA grid with each SOS
// drawn over it in its scorer's colour and mark), the scoreboard and the moves.
import { cellName, MARKS } from "./engine.js";
import { el, svg } from "./dom.js";
import { _, format } from "./i18n.js";
import * as words from "./words.js";

export function board(game, cursor, onTap, onKey) {
  const size = game.size;
  const [cr, cc] = cursor;
  const rows = [];
  for (let row = 0; row < size; row++) {
    const cells = [];
    for (let col = 0; col < size; col++) {
      const letter = game.cell(row, col);
      cells.push(el("div", { role: "gridcell", class: letter ? "cell" : "cell empty", tabIndex: row === cr && col === cc ? 0 : -1,
        "aria-label": [cellName(row, col), letter || _("empty")].join(", "), "data-cell": `${row},${col}`,
        onclick: () => onTap(row, col) }, letter || ""));
    }
    rows.push(el("div", { role: "row", class: "row" }, el("span", { class: "rownum", "aria-hidden": "true" }, String(row + 1)), cells));
  }
  const heading = el("div", { class: "cols", "aria-hidden": "true" }, el("span", { class: "rownum" }),
    [...Array(size).keys()].map((col) => el("span", {}, cellName(0, col)[0])));
  const grid = el("div", { role: "grid", class: "grid", "aria-label": _("Board"), "aria-rowcount": size,
    "aria-colcount": size, onkeydown: onKey }, rows);
  const drawn = el("div", { class: "board" }, heading, el("div", { class: "field" }, grid, lines(game)));
  drawn.style.setProperty("--n", String(size)); // CSSOM, not a style attribute: the CSP allows it
  return drawn;
}

// Each SOS: a line from its first letter to its last, under the letters, with the scorer's mark
// between them (as the terminal's board strikes it).
function lines(game) {
  const size = game.size;
  const drawing = svg("svg", { class: "lines", viewBox: `0 0 ${size} ${size}`, "aria-hidden": "true", preserveAspectRatio: "none" });
  for (const line of game.lines) {
    const [[r1, c1], , [r3, c3]] = line.cells;
    const player = line.player % MARKS.length;
    drawing.append(svg("line", { x1: c1 + 0.5, y1: r1 + 0.5, x2: c3 + 0.5, y2: r3 + 0.5, class: `p${player}` }));
    for (const t of [0.25, 0.75]) {
      const mark = svg("text", { x: c1 + 0.5 + (c3 - c1) * t, y: r1 + 0.5 + (r3 - r1) * t, class: `mark p${player}` });
      mark.textContent = MARKS[player];
      drawing.append(mark);
    }
  }
  return drawing;
}

// Each seat: its mark and colour, name, notes (you, computer, bot, open, away) and points.
export function scoreboard(state, game, mine, names) {
  const items = (state.seats || []).map((seat, i) => {
    const notes = [];
    if (mine.includes(i)) notes.push(_("you"));
    if (seat?.kind === "computer") notes.push(format(_("computer, {level}"), { level: words.levelName(seat.level) }));
    else if (seat?.name === null || seat?.name === undefined) notes.push(_("open seat"));
    if (seat?.bot === true) notes.push(_("bot"));
    if (seat?.kind !== "computer" && typeof seat?.name === "string" && !seat?.connected) notes.push(_("away"));
    const turn = state.phase === "playing" && state.to_move === i;
    return el("li", { class: `seat p${i % MARKS.length}${turn ? " turn" : ""}`, "aria-current": turn ? "true" : null },
      el("span", { class: "mark", "aria-hidden": "true" }, MARKS[i % MARKS.length]),
      el("span", { class: "who" }, names[i], notes.length ? el("span", { class: "subtle" }, ` (${notes.join(", ")})`) : null),
      el("span", { class: "points" }, String(game?.scores[i] ?? 0)));
  });
  const watching = Number.isInteger(state.spectators) && state.spectators > 0
    ? el("p", { class: "subtle" }, format(_("{n} watching"), { n: state.spectators })) : null;
  return el("section", { "aria-labelledby": "score-heading" }, el("h3", { id: "score-heading" }, _("Score")),
    el("ul", { class: "scores" }, items), watching);
}

// The moves, newest first, each as `--plain` says it.
export function moveList(game, names) {
  const items = game ? game.moves.map((_move, i) => el("li", {}, words.moveLine(game, names, i))) : [];
  return el("section", { "aria-labelledby": "moves-heading" }, el("h3", { id: "moves-heading" }, _("Moves")),
    items.length ? el("ol", { class: "moves", tabIndex: 0 }, items.reverse()) : el("p", { class: "subtle" }, _("No move yet.")));
}
