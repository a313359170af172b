"""Text that came from outside (names, paths, error details) is data, never terminal commands.

``printable`` escapes every character a terminal could act on or hide, so an escape sequence in a
player's name is shown as ``\\x1b[31m`` rather than turning the screen red; ``shorten`` keeps a
value from swamping a message.

>>> printable("Ann\\x1b[31m")
'Ann\\\\x1b[31m'
>>> printable("Zoë \\u202eevil")
'Zoë \\\\u202eevil'
>>> shorten("a very long name", 8)
'a very …'
"""

from __future__ import annotations

import unicodedata

HIDDEN = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
"""Unicode categories a terminal acts on or does not show: control, format, private use,
unassigned, surrogate, line and paragraph separators."""


def is_hidden(char: str) -> bool:
    """True for a character that ``printable`` escapes."""
    return unicodedata.category(char) in HIDDEN


def escape(char: str) -> str:
    """``\\x1b``, ``\\u202e`` or ``\\U000e0001``: the Python escape of one character."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class _Shown(dict):
    """Code point -> how ``printable`` writes it, worked out once per character (a name of a
    megabyte of escape characters is one ``str.translate``, not a million Python calls)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        shown = escape(char) if is_hidden(char) else char
        if len(self) < 0x10000:  # bounded, whatever text comes
            self[code] = shown
        return shown


_SHOWN = _Shown()


def printable(text: str) -> str:
    """``text`` with every control, format, private-use, unassigned, surrogate or line-separator
    character written as its escape; ordinary Unicode (accents, CJK, emoji) is kept."""
    text = str(text)
    if text.isprintable():  # the common case, and fast
        return text
    return text.translate(_SHOWN)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in "…" when cut."""
    if limit < 1:
        return ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Phrase(str):
    """A fixed English phrase used inside a message (``Phrase("a control character")``): shown as
    itself, and put into the player's language by ``sos_tui.i18n.explain``."""

    __slots__ = ()


class RuleError(ValueError):
    """An error the engine reports to a player: ``str()`` is the English message; ``template``
    and ``params`` let ``sos_tui.i18n.explain`` say it in the player's language.

    >>> error = RuleError("{cell} already holds {letter}", cell="b3", letter="S")
    >>> str(error), error.template, error.params
    ('b3 already holds S', '{cell} already holds {letter}', {'cell': 'b3', 'letter': 'S'})
    """

    def __init__(self, template: str, /, **params) -> None:
        self.template, self.params = template, params
        super().__init__(template.format(**params) if params else template)

    def __reduce__(self):  # pickled through a process pool: keep the template and parameters
        return _rebuild, (type(self), self.template, self.params)


def _rebuild(cls, template: str, params: dict):
    return cls(template, **params)
