"""sos-tui: the pencil-and-paper game SOS, in a terminal."""

__version__ = "0.1.0"
