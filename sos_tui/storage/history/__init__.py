"""The history of finished games, in SQLite.

Every finished game goes into one table with the full record and a few facts computed from it
(``facts``: who the first human played against, the outcome from their side, the longest SOS
chain, the winning margin), so that filters and statistics are SQL queries (``db``). ``schema``
holds the tables, the migrations and the careful opening of an existing file.
"""

from .db import BUSY_TIMEOUT, Filters, History, HistoryEntry, OpponentStats, Stats
from .facts import game_facts, longest_chain
from .schema import SCHEMA_VERSION

__all__ = [
    "BUSY_TIMEOUT", "SCHEMA_VERSION", "Filters", "History", "HistoryEntry", "OpponentStats", "Stats",
    "game_facts", "longest_chain",
]  # fmt: skip
