"""Text from outside is shown as data: sos_tui.engine.text."""

from __future__ import annotations

import pytest

from sos_tui.engine import printable, shorten


@pytest.mark.parametrize(("text", "shown"), [
    ("Ann", "Ann"),
    ("Zoë 李 🙂", "Zoë 李 🙂"),
    ("[b red]x[/]", "[b red]x[/]"),
    ("\x1b[31mred", "\\x1b[31mred"),
    ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
    ("\x1bP1$r\x1b\\", "\\x1bP1$r\\x1b\\"),
    ("\x9b31m", "\\x9b31m"),
    ("a\u202eb\u200dc\u2066", "a\\u202eb\\u200dc\\u2066"),
    ("\udce9", "\\udce9"),
    ("a\nb\tc\r", "a\\x0ab\\x09c\\x0d"),
    ("\U000e0001", "\\U000e0001"),
])
def test_printable_escapes_what_a_terminal_would_act_on(text, shown):
    assert printable(text) == shown
    assert printable(text).isprintable() or "\u3000" in text


def test_printable_of_a_megabyte():
    text = "\x1b" * (1 << 20)
    assert printable(text) == "\\x1b" * (1 << 20)


def test_shorten():
    assert shorten("abc", 3) == "abc"
    assert shorten("abcd", 3) == "ab…"
    assert shorten("abcd", 0) == ""
