"""Text from outside is shown as data: sos_tui.engine.text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


@given(st.text(st.characters(codec=None, exclude_categories=())))
def test_printable_is_each_character_as_itself_or_its_python_escape(text):
    # the definition, character by character; printable works it out once per character
    def shown(c: str) -> str:
        if unicodedata.category(c) not in {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}:
            return c
        return f"\\x{ord(c):02x}" if ord(c) <= 0xff else c.encode("unicode_escape").decode()

    expected = "".join(shown(c) for c in text)
    assert printable(text) == expected
    assert printable(text) == printable(text)  # the same again, from what it worked out


def test_shorten():
    assert shorten("abc", 3) == "abc"
    assert shorten("abcd", 3) == "ab…"
    assert shorten("abcd", 0) == ""
