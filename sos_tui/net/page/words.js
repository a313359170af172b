// The sentences the page says of each event: the same as `sos-tui --plain` says
// (sos_tui/plain/words.py), from the same catalog.
import { cellName } from "./engine.js";
import { _, format, ngettext } from "./i18n.js";

const DIRECTIONS = { "0,1": () => _("across"), "1,0": () => _("down"),
  "1,1": () => _("diagonally down to the right"), "1,-1": () => _("diagonally down to the left") };

export function modeName(mode) {
  return mode === "simple" ? _("simple") : mode === "general" ? _("general") : String(mode);
}

export function levelName(level) {
  const names = { easy: _("easy"), medium: _("medium"), hard: _("hard"), expert: _("expert") };
  return names[level] || String(level || "");
}

export function listed(items) {
  if (items.length < 2) return items.join("");
  return format(_("{first} and {last}"), { first: items.slice(0, -1).join(", "), last: items.at(-1) });
}

export function start(game, names) {
  const text = game.mode === "general" ? _("A {size} by {size} game, {mode} mode: {players}.")
    : _("A {size} by {size} game, {mode} mode, first SOS wins: {players}.");
  return format(text, { size: game.size, mode: modeName(game.mode), players: listed(names) });
}

export function wrote(names, mover, move) {
  return format(_("{name} wrote {letter} at {cell}."),
    { name: names[mover], letter: move.letter, cell: cellName(move.row, move.col) });
}

export function sosCells(line) {
  const [[r1, c1], , [r3, c3]] = line.cells;
  const direction = DIRECTIONS[`${Math.sign(r3 - r1)},${Math.sign(c3 - c1)}`]();
  return format(_("{cells}, {direction}"), { cells: line.cells.map(([r, c]) => cellName(r, c)).join(", "), direction });
}

export function sos(names, line) {
  return format(_("SOS for {name}: {cells}."), { name: names[line.player], cells: sosCells(line) });
}

export function score(game, names) {
  const scores = names.map((name, i) => `${name} ${game.scores[i] ?? 0}`).join(", ");
  return format(_("Score: {scores}."), { scores });
}

export function nextUp(names, toMove, scored, computer) {
  const name = names[toMove];
  if (computer) return format(_("{name} is thinking."), { name });
  return format(scored ? _("{name} moves again.") : _("{name} to move."), { name });
}

// A game the rules ended before its board did (a resignation, time, a player claimed, a draw agreed,
// an abort), as the server's record says it and --plain says it (sos_tui/plain/words.py `result`):
// "Game over: Ana wins. How it ended: Bo resigned." Null when the record does not say it is over.
export function ended(record, names) {
  const result = record?.result;
  if (!result || result.over !== true || !Array.isArray(result.winners)) return null;
  const why = { resign: _("{name} resigned"), time: _("{name} ran out of time"), abandon: _("{name} left the game") };
  const how = [];
  for (const drop of Array.isArray(record.drops) ? record.drops : []) {
    const name = Number.isInteger(drop?.seat) ? names[drop.seat] : undefined;
    if (why[drop?.why] && name !== undefined) how.push(format(why[drop.why], { name }));
  }
  if (record.termination === "abort") return _("Game over: aborted, with no result.");
  if (record.termination === "agreement") how.push(_("drawn by agreement"));
  const winners = result.winners.filter((seat) => names[seat] !== undefined);
  const said = winners.length === 1 ? format(_("Game over: {name} wins."), { name: names[winners[0]] })
    : format(_("Game over: a draw between {names}."), { names: listed(winners.map((i) => names[i])) });
  if (!how.length) return said;
  return said + " " + format(_("How it ended: {how}."), { how: how.join("; ") });
}

export function result(game, names) {
  const winners = game.winners();
  if (winners.length === 1) return format(_("Game over: {name} wins."), { name: names[winners[0]] });
  return format(_("Game over: a draw between {names}."), { names: listed(winners.map((i) => names[i])) });
}

// After a rated game: "Rated: Ana 1578? (+78), Bo 1422? (-78)." (state.ratings, one per seat).
export function rated(ratings, names) {
  if (!Array.isArray(ratings) || ratings.length !== names.length) return "";
  const parts = ratings.map((r, seat) => r && Number.isInteger(r.rating) && Number.isInteger(r.change)
    ? `${names[seat]} ${r.rating}${r.provisional ? "?" : ""} (${r.change >= 0 ? "+" : ""}${r.change})` : null);
  return parts.some(Boolean) ? format(_("Rated: {ratings}."), { ratings: parts.filter(Boolean).join(", ") }) : "";
}

export function moveLine(game, names, index) {
  const move = game.moves[index];
  let text = format(_("Move {number}: {name} wrote {letter} at {cell}."), { number: index + 1,
    name: names[game.movers[index]], letter: move.letter, cell: cellName(move.row, move.col) });
  const points = game.lines.filter((line) => line.move === index).length;
  if (points) text += " " + format(ngettext("It made {n} SOS.", "It made {n} SOS.", points), { n: points });
  return text;
}

// What to say of a `state` (the sentences `--plain` says of the same change): `game` as it leaves
// the game, `before` the game held until then (null: none), `first` the first state heard.
export function told(message, game, before, first, names) {
  const change = message.change;
  if (!game) return first ? [_("Joined. The game starts when every seat is taken.")] : [];
  const out = [];
  let scored = false;
  if (first || change === "start" || change === "rematch" || !before) {
    out.push(start(game, names));
    if (game.moves.length) out.push(score(game, names));
  } else if (change === "move" && game.moves.length) {
    const last = game.moves.length - 1;
    out.push(wrote(names, game.movers[last], game.moves[last]));
    for (const line of game.lines.filter((l) => l.move === last)) {
      out.push(sos(names, line));
      scored = true;
    }
    if (scored || game.over) out.push(score(game, names));
  } else if (change === "undo") {
    out.push([_("Undone."), score(game, names)].join(" "));
  } else if (change === "leave" || change === "quit") {
    const away = (message.waiting_for || []).map(String);
    return away.length ? [format(_("waiting for {names} to reconnect"), { names: listed(away) })] : [];
  } else {
    return [];
  }
  if (game.over) out.push(...[result(game, names), rated(message.ratings, names)].filter(Boolean));
  else if (Number.isInteger(message.to_move)) {
    out.push(nextUp(names, message.to_move, scored, message.seats?.[message.to_move]?.kind === "computer"));
  }
  return out;
}
