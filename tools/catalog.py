"""The message catalogs: extract the marked strings, update each language's .po, check them.

    .venv/bin/python tools/catalog.py extract   # write sos_tui/locale/sos_tui.pot from the code
    .venv/bin/python tools/catalog.py update    # ... and merge it into every .po (new entries empty)
    .venv/bin/python tools/catalog.py check     # every message translated, placeholders kept
    .venv/bin/python tools/catalog.py part OUT.po FILE...  # the messages of some files, to translate
    .venv/bin/python tools/catalog.py merge PART.po...     # their translations into the ms catalog

Marked strings (in the Python code, and in the web page's scripts, sos_tui/net/page/*.js) are the
first arguments of ``_``, ``N_``, ``ngettext`` (both forms), ``pgettext``,
the engine's ``tr`` and its errors (``RuleError`` and subclasses, ``Phrase``), which carry their
English template. ``tests/test_i18n.py`` runs the same check. Reinstall (``pip install -e .``)
to compile an edited .po into the .mo the game reads.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sos_tui"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "sos_tui.pot"
KEYWORDS = {
    "_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "tr": None,
    "RuleError": None, "RecordError": None, "IllegalMoveError": None, "CellTakenError": None,
    "InvalidMoveError": None, "SeatError": None, "ClockError": None, "TimeUpError": None, "EndingError": None,
    "Phrase": None,
}  # fmt: skip
METHODS = [("**.py", "python"), ("net/page/**.js", "javascript")]
"""The code's files and how to read them: the web page's scripts mark their words as Python does
(``_("...")``, ``ngettext("...", "...", n)``; sos_tui/net/webpage.py serves them from the catalogs)."""
# argparse's own words (usage, headings, its error messages), looked up in our domain
ARGPARSE = [
    "usage: ", "positional arguments", "options", "show this help message and exit",
    "show program's version number and exit", "the following arguments are required: %s",
    "unrecognized arguments: %s", "expected one argument",
    "invalid choice: %(value)r (choose from %(choices)s)",
    "invalid %(type)s value: %(value)r", "argument %(argument_name)s: %(message)s",
    "ambiguous option: %(option)s could match %(matches)s", "not allowed with argument %s",
    "%(prog)s: error: %(message)s\n", "one of the arguments %s is required",
    "expected at least one argument", "expected at most one argument", "ignored explicit argument %r",
]  # fmt: skip


def extract() -> Catalog:
    """Every marked message in the package, with where it is used."""
    catalog = Catalog(project="sos-tui", domain="sos_tui", charset="utf-8", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(PACKAGE), method_map=METHODS, keywords=KEYWORDS,
            comment_tags=("Translators:",), strip_comment_tags=True):
        catalog.add(message, None, [(f"sos_tui/{filename}", lineno)], auto_comments=comments,
                    context=context)
    for message in ARGPARSE:
        catalog.add(message, None, [("argparse", 0)], flags=("python-format",))
    return catalog


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/sos_tui.po"))


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "sos_tui.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as source:
        return read_po(source, locale=language)


def write(path: Path, catalog: Catalog) -> None:
    with path.open("wb") as out:
        write_po(out, catalog, width=100, sort_output=False, omit_header=False)


def fields(text: str) -> set[str]:
    """The placeholders of ``text``: ``{name}`` fields, and %-style ones for argparse's words."""
    found = set()
    try:
        found |= {f"{{{name}}}" for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        found.add("<broken braces>")
    for key in ("%s", "%r", "%(value)r", "%(choices)s", "%(type)s", "%(argument_name)s", "%(message)s",
                "%(option)s", "%(matches)s", "%(prog)s"):
        if key in text:
            found.add(key)
    return found


def problems(language: str, code: Catalog | None = None) -> list[str]:
    """What is wrong with ``language``'s catalog: messages of the code it lacks or leaves
    untranslated, fuzzy entries, placeholders that differ from the English."""
    code = extract() if code is None else code
    catalog = read(language)
    out = []
    for message in code:
        if not message.id:
            continue
        entry = catalog.get(message.id, context=message.context)
        where = f"{message.locations[0][0]}:{message.locations[0][1]}" if message.locations else "?"
        if entry is None:
            out.append(f"missing: {message.id!r} ({where})")
            continue
        if entry.fuzzy:
            out.append(f"fuzzy: {message.id!r}")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strs = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strs):
            out.append(f"untranslated: {message.id!r} ({where})")
            continue
        for text in strs:
            if fields(text) != fields(ids[-1]) and fields(text) != fields(ids[0]):
                out.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
    return out


def part(out: Path, paths: list[str]) -> None:
    """Write ``out``: the messages used in ``paths`` (files of sos_tui), keeping the translations
    ``out`` and the ms catalog already hold. A way to translate one part of the code at a time."""
    wanted = {str(Path(p).resolve().relative_to(ROOT)) for p in paths}
    keep = {}
    for source in (po_path("ms"), out):
        if source.exists():
            with source.open("rb") as f:
                keep.update({(m.id, m.context): m for m in read_po(f, locale="ms") if m.id and m.string})
    catalog = Catalog(locale="ms", project="sos-tui", domain="sos_tui", fuzzy=False)
    for message in extract():
        if any(where in wanted for where, _line in message.locations):
            known = keep.get((message.id, message.context))
            catalog.add(message.id, known.string if known else None, message.locations,
                        auto_comments=message.auto_comments, context=message.context)
    write(out, catalog)
    print(f"{out}: {len(catalog)} messages, {sum(1 for m in catalog if m.id and not m.string)} untranslated")


def merge(parts: list[str]) -> None:
    """Put the translations of the ``parts`` files into the ms catalog (the later part wins)."""
    catalog = read("ms")
    for name in parts:
        with open(name, "rb") as f:
            for message in read_po(f, locale="ms"):
                if message.id and message.string:
                    entry = catalog.get(message.id, context=message.context)
                    if entry is None:
                        catalog.add(message.id, message.string, message.locations, context=message.context)
                    else:
                        entry.string = message.string
                        entry.flags.discard("fuzzy")
    write(po_path("ms"), catalog)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "part":
        part(Path(argv[1]), argv[2:])
        return 0
    if command == "merge":
        merge(argv[1:])
        argv = ["update"]
        command = "update"
    code = extract()
    if command in ("extract", "update"):
        write(TEMPLATE, code)
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(code)} messages")
    if command == "update":
        for language in languages():
            catalog = read(language)
            catalog.update(code, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            write(po_path(language), catalog)
            print(f"{po_path(language).relative_to(ROOT)}: updated")
    if command in ("update", "check"):
        failed = False
        for language in languages():
            found = problems(language, code)
            for line in found:
                print(f"{language}: {line}")
            failed |= bool(found)
            print(f"{language}: {len(found)} problems")
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
