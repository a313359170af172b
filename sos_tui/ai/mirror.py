"""The mirror strategy: in two-player simple mode, a player who keeps the board point-symmetric
never loses.

Answer every move with the same letter in the cell opposite it through the board's centre. On
an even board the second player can do this from the start; on an odd board the first player
writes in the centre cell first and mirrors from then on. Either way the player who mirrors
always has a safe move, so it can never be the one forced to hand over an SOS: at worst the
board fills up, a draw.

Why the mirror of a safe move is safe: let P be symmetric, x a safe move and m its mirror. A
triple through m that misses x is the mirror image of a triple through x that misses m, with the
same letters in reverse order (P is symmetric); S-O-S and the threats S_S, SO_, _OS read the same
reversed, so it holds an SOS or a threat after m exactly when its image did after x: never. A
triple through both x and m: on an even board x and m are then two of the four centre cells,
side by side; two equal letters side by side are in no SOS and no threat. On an odd board x and
m are then either side of the centre cell, and (S, centre O, S) would score, but an S beside an
O with the cell beyond it empty was itself a threat, so x was not safe.
"""

from __future__ import annotations


def mirror_move(board: str, size: int) -> tuple[int, str] | None:
    """``(cell, letter)`` that makes ``board`` point-symmetric, or None. Only where the result is
    the position the strategy keeps: the board is symmetric but for one letter whose opposite
    cell is empty (and on an odd board the centre cell is filled), or the board is symmetric
    with the centre cell of an odd board empty (then an S there, as on the empty board). Whether
    the move is safe is for the caller to check: a mirror image is whenever the opponent's last
    move was; the centre may not be."""
    cells = size * size
    centre = cells // 2 if size % 2 else None
    odd_one = None
    for cell in range(cells // 2):
        here, there = board[cell], board[cells - 1 - cell]
        if here == there:
            continue
        if odd_one is not None or "." not in (here, there):
            return None
        odd_one = (cells - 1 - cell, here) if there == "." else (cell, there)
    if centre is not None and board[centre] == ".":
        return None if odd_one is not None else (centre, "S")
    return odd_one
