"""How many cases a sampled check draws (Hypothesis examples, random positions): all of them in the
nightly run (``pytest --runslow``, which loads the Hypothesis profile "slow"), a third in every
other run. The same examples each time (derandomized: tests/conftest.py)."""

from hypothesis import settings

SHARE = 3
"""Every run but the nightly one draws 1 case in SHARE."""


def nightly() -> bool:
    """Whether this is the nightly run (the profile is loaded before any test module is imported)."""
    return settings.get_current_profile_name() == "slow"


def examples(full: int) -> int:
    """``full`` in the nightly run, else a third of it (at least 1)."""
    return full if nightly() else max(1, full // SHARE)
