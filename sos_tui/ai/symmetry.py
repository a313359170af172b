"""The 8 symmetries of the square board (rotations and reflections), as index permutations, and
the canonical image of a board under them: the key of the opening books and the review table."""

from __future__ import annotations

from functools import cache


@cache
def symmetries(size: int) -> tuple[tuple[int, ...], ...]:
    """``perm[new_index] = old_index`` for each rotation/reflection of a size x size board."""
    n = size - 1
    maps = (
        lambda r, c: (r, c), lambda r, c: (c, n - r), lambda r, c: (n - r, n - c),
        lambda r, c: (n - c, r), lambda r, c: (r, n - c), lambda r, c: (n - r, c),
        lambda r, c: (c, r), lambda r, c: (n - c, n - r),
    )  # fmt: skip
    perms = []
    for f in maps:
        perm = [0] * (size * size)
        for r in range(size):
            for c in range(size):
                nr, nc = f(r, c)
                perm[nr * size + nc] = r * size + c
        perms.append(tuple(perm))
    return tuple(perms)


def canonical(board: str, size: int) -> tuple[str, tuple[int, ...]]:
    """The least of the 8 symmetric images of ``board`` and the permutation that makes it."""
    return min((("".join(board[k] for k in perm), perm) for perm in symmetries(size)),
               key=lambda found: found[0])
