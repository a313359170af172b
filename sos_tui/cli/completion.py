"""Shell completion of the commands and options, through the ``argcomplete`` package (the
``[completion]`` extra): ``eval "$(register-python-argcomplete sos-tui)"`` in ``~/.bashrc`` (README).

The shell runs ``sos-tui`` with ``_ARGCOMPLETE`` set to ask for the completions of a line; only
then is argcomplete imported, so nothing else pays for it, and without it there are none."""

from __future__ import annotations

import argparse
import os


def asked() -> bool:
    """A shell is asking for completions."""
    return "_ARGCOMPLETE" in os.environ


def complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's question and exit (argcomplete's way); no answer without argcomplete."""
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)
