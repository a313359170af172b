"""Stopping a process pool at once: the game searches (``session/computer.py``) and the arena's
games (``arena.py``) both run in ``ProcessPoolExecutor``s and both must be able to end them now."""

from __future__ import annotations

import contextlib
from concurrent.futures import ProcessPoolExecutor


def terminate(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now. The standard library has no public way before Python 3.14
    (``terminate_workers``), so the processes are terminated through ``_processes``."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(1)
