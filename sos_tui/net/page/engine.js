// The rules, enough to follow a game the server plays: the board, who wrote each letter, every
// SOS and the scores, replayed from the moves of the game record (the server checks every move;
// this copy checks them again, and a move that does not fit asks the server for the whole game).

export const COLUMNS = "abcdefghijklmnopqrstuvwxyz";
export const MARKS = ["●", "▲", "■", "◆", "✚", "★"];

export function cellName(row, col) {
  return `${COLUMNS[col]}${row + 1}`;
}

export function parseMove(text) {
  const found = /^([SO]) ([a-z])([0-9]{1,2})$/.exec(String(text));
  if (!found) return null;
  return { letter: found[1], col: COLUMNS.indexOf(found[2]), row: Number(found[3]) - 1, text };
}

const WAYS = [[0, 1], [1, 0], [1, 1], [1, -1]];

export class Game {
  constructor(size, mode, players) {
    this.size = size;
    this.mode = mode;
    this.players = players;
    this.board = new Array(size * size).fill(null);
    this.moves = [];
    this.movers = [];
    this.lines = []; // {player, move, cells: [[row, col] x 3]} in order
    this.scores = new Array(players).fill(0);
    this.toMove = 0;
    this.over = false;
  }

  cell(row, col) {
    if (row < 0 || col < 0 || row >= this.size || col >= this.size) return undefined;
    return this.board[row * this.size + col];
  }

  // Play the move written `text`; the SOS lines it made, or null (nothing changed) if illegal.
  play(text) {
    const move = parseMove(text);
    if (this.over || !move || move.row < 0 || move.row >= this.size || move.col < 0 ||
        move.col >= this.size || this.cell(move.row, move.col) !== null) return null;
    const { row, col, letter } = move;
    this.board[row * this.size + col] = letter;
    const made = [];
    for (const [dr, dc] of WAYS) {
      const triples = letter === "O" ? [[[row - dr, col - dc], [row, col], [row + dr, col + dc]]]
        : [[[row, col], [row + dr, col + dc], [row + 2 * dr, col + 2 * dc]],
           [[row - 2 * dr, col - 2 * dc], [row - dr, col - dc], [row, col]]];
      for (const cells of triples) {
        const [a, b, c] = cells.map(([r, k]) => this.cell(r, k));
        if (a === "S" && b === "O" && c === "S") made.push(cells);
      }
    }
    const mover = this.toMove;
    this.moves.push(move);
    this.movers.push(mover);
    for (const cells of made) {
      this.lines.push({ player: mover, move: this.moves.length - 1, cells });
      this.scores[mover] += 1;
    }
    const full = this.moves.length === this.size * this.size;
    this.over = full || (this.mode === "simple" && made.length > 0);
    if (!made.length) this.toMove = (mover + 1) % this.players;
    return made;
  }

  // Who won: the seat indexes of the winners (more than one: a draw).
  winners() {
    if (this.mode === "simple") {
      return this.lines.length ? [this.lines[0].player] : [...this.scores.keys()];
    }
    const best = Math.max(...this.scores);
    return [...this.scores.keys()].filter((i) => this.scores[i] === best);
  }
}

// The game of a record (docs/engine.md); null when a move of it is not legal.
export function replay(record) {
  const game = new Game(record.size, record.mode, record.players.length);
  for (const move of record.moves) {
    if (game.play(move) === null) return null;
  }
  return game;
}
