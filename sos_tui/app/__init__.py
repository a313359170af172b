"""The Textual app of sos-tui."""

from .app import SosApp

__all__ = ["SosApp"]
