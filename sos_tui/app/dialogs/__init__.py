"""Dialogs: small modal screens that ask one thing (Frogmouth's ``dialogs/``)."""

from .choice import Choice, Standing, Words
from .join import JoinDialog

__all__ = ["Choice", "JoinDialog", "Standing", "Words"]
