"""The game in English and Malay: the catalogs, choosing the language, and the engine's errors
put into the player's language."""

from __future__ import annotations

import ast
import gettext
import importlib.util
from pathlib import Path

import pytest

from sos_tui import cli, i18n
from sos_tui.engine import GameRecord, Move, check_name
from sos_tui.engine import GameState as State

ROOT = Path(__file__).resolve().parent.parent


def _catalog_tool():
    spec = importlib.util.spec_from_file_location("catalog_tool", ROOT / "tools" / "catalog.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


catalog_tool = _catalog_tool()


# -- the catalogs ------------------------------------------------------------------------------
def test_every_message_in_the_code_has_a_malay_translation_with_the_same_placeholders():
    assert catalog_tool.problems("ms") == []


def test_the_installed_catalog_is_the_compiled_po():
    """The .mo the game reads holds every translation of the .po (reinstall after editing it)."""
    compiled = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, ["ms"])
    po = catalog_tool.read("ms")
    for message in po:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            assert compiled.ngettext(*message.id, 3) == message.string[0], message.id
        elif message.context:
            assert compiled.pgettext(message.context, message.id) == message.string, message.id
        else:
            assert compiled.gettext(message.id) == message.string, message.id


def test_the_malay_catalog_has_one_plural_form():
    """Malay does not inflect for number: "1 langkah", "3 langkah"."""
    assert catalog_tool.read("ms").plural_forms == "nplurals=1; plural=0;"
    i18n.set_language("ms")
    assert i18n.ngettext("{n} move", "{n} moves", 1).format(n=1) == "1 langkah"
    assert i18n.ngettext("{n} move", "{n} moves", 3).format(n=3) == "3 langkah"
    i18n.set_language("en")
    assert i18n.ngettext("{n} move", "{n} moves", 1).format(n=1) == "1 move"
    assert i18n.ngettext("{n} move", "{n} moves", 3).format(n=3) == "3 moves"


def _imports_translation(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "sos_tui.i18n"
               and any(alias.name == "_" for alias in node.names) for node in ast.walk(tree))


def test_no_module_that_translates_with_underscore_also_uses_it_as_a_throwaway_name():
    """``kind, _, level = ...`` in a module that imports ``_`` would turn every later ``_("...")``
    in that function into a crash."""
    offenders = []
    for path in sorted((ROOT / "sos_tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not _imports_translation(tree):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


# -- choosing the language ---------------------------------------------------------------------
@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "ms_MY.UTF-8"}, "ms"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "ms_MY", "LANG": "en_GB.UTF-8"}, "ms"),
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "ms_MY.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:ms", "LANG": "en_US.UTF-8"}, "ms"),
    ({"LANGUAGE": "fr", "LANG": "ms_MY.UTF-8"}, "ms"),
])
def test_the_language_comes_from_the_environment_in_gettexts_order(environ, expected):
    assert i18n.from_environment(environ) == expected


def test_lang_beats_the_remembered_choice_which_beats_the_environment():
    env = {"LANG": "ms_MY.UTF-8"}
    assert i18n.choose_language("en", "ms", env) == "en"
    assert i18n.choose_language(None, "en", env) == "en"
    assert i18n.choose_language(None, None, env) == "ms"
    assert i18n.choose_language("MS", None, {}) == "ms"
    with pytest.raises(i18n.UnknownLanguage, match="unknown language 'xx': choose en"):
        i18n.choose_language("xx", None, {})


@pytest.mark.parametrize("argv", [["--lang", "xx"], ["history", "--lang", "klingon"],
                                  ["--lang=fr", "history"]])
def test_an_unknown_lang_is_one_line_and_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "unknown language" in err and "en (English), ms (Bahasa Melayu)" in err
    assert "Traceback" not in err


def test_lang_without_a_code_is_one_line_and_exit_2(capsys):
    assert cli.main(["history", "--lang"]) == 2
    err = capsys.readouterr().err
    assert err == "sos-tui history: --lang needs a language: en, ms\n"


def test_lang_ms_speaks_malay_in_argparse_and_in_the_help(capsys):
    assert cli.main(["--lang", "ms", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("penggunaan: sos-tui")
    assert "show this help message" not in out


def test_the_environment_chooses_malay_for_the_command_line(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "ms_MY.UTF-8")
    assert cli.main(["history", "--bogus"]) == 2
    assert "argumen tidak dikenali" in capsys.readouterr().err


# -- the engine's errors in the player's language -----------------------------------------------
def test_an_engine_error_is_explained_in_malay_with_its_nested_error_and_phrase():
    with pytest.raises(ValueError) as caught:
        GameRecord.from_json('{"format": "sos-game", "version": 1, "size": 3, "mode": "general", '
                             '"players": [{"name": "A\\u0007"}, {"name": "B"}], "moves": []}')
    english = str(caught.value)
    assert english == 'bad game record: player 1 "name": a name cannot hold a control character (\\x07)'
    assert i18n.explain(caught.value) == english
    i18n.set_language("ms")
    malay = i18n.explain(caught.value)
    assert "\\x07" in malay and "control character" not in malay and "bad game record" not in malay


def test_an_illegal_move_is_explained_in_malay():
    state = State.new(3).play(Move(0, 0, "S"))
    with pytest.raises(ValueError) as caught:
        state.play(Move(0, 0, "O"))
    i18n.set_language("ms")
    text = i18n.explain(caught.value)
    assert "a1" in text and "S" in text and "already" not in text


def test_other_errors_are_their_own_text():
    assert i18n.explain(OSError("disk full")) == "disk full"
    with pytest.raises(ValueError) as caught:
        check_name("")
    assert i18n.explain(caught.value) == "a name cannot be empty"


# -- a broken install: the catalog is missing --------------------------------------------------
@pytest.fixture
def no_catalogs(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "no-locale")


def test_a_missing_catalog_is_a_clear_error_not_a_crash(no_catalogs):
    with pytest.raises(i18n.UnknownLanguage, match="Bahasa Melayu is not installed"):
        i18n.set_language("ms")
    assert i18n.language() == "en" and i18n._("Undo") == "Undo"


def test_lang_ms_without_its_catalog_is_one_line_and_exit_2(no_catalogs, capsys):
    assert cli.main(["--lang", "ms", "history"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "not installed" in err and "Traceback" not in err


def test_a_malay_environment_without_the_catalog_still_runs_in_english(no_catalogs, monkeypatch, capsys):
    monkeypatch.setenv("LANG", "ms_MY.UTF-8")
    assert cli.main(["history"]) == 0
    assert "No finished games" in capsys.readouterr().out
