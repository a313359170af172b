"""The languages the game speaks: standard gettext catalogs, English in the code, Malay in
``sos_tui/locale/ms/LC_MESSAGES/sos_tui.po`` (compiled to ``.mo`` by every install).

Every layer but the engine marks its words here::

    from sos_tui.i18n import _, ngettext
    _("Undo")
    _("{name} wins").format(name=name)
    ngettext("{n} move", "{n} moves", count).format(n=count)

``N_`` marks words kept in a constant (a binding's description, a table heading) that are
translated where they are shown, so a language switch takes effect at once. The engine imports
nothing from here: its errors carry their English template and parameters (``RuleError``), and
``explain`` puts them into the current language.

The language is chosen once at start (``--lang``, then the remembered choice, then the
``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` variables, then English) and may be switched
while the app runs (``set_language``). docs/i18n.md says how to add a language.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

from sos_tui.engine.text import Phrase

DOMAIN = "sos_tui"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = {"en": "English", "ms": "Bahasa Melayu"}
"""Every language the game speaks: code -> its own name for itself."""
SOURCE = "en"
"""The language of the code's own strings."""
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language is looked up when none is chosen, in gettext's order."""

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE


class UnknownLanguage(ValueError):
    """A language the game does not speak; the message names the ones it does."""


def _(message: str) -> str:
    """``message`` in the current language (``message`` itself when it has no translation)."""
    return _translation.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as used in ``context`` (for a word that translates differently by use)."""
    return _translation.pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it (translate it where it is shown)."""
    return message


LEVEL_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}
"""The computer's levels as a player reads them (translated where shown); files, settings and the
command line keep the English keyword (``computer:hard``)."""
MODE_NAMES = {"general": N_("general"), "simple": N_("simple")}
"""The two variants as a player reads them; the keyword (``--mode simple``) stays English."""


def level_name(level: str | None) -> str:
    """A computer level in the current language (``"hard"`` -> ``"sukar"``); an unknown one as it is."""
    if level is None:
        return ""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def bot_label(name: str) -> str:
    """A bot's name as every list and scoreboard shows it (its seat marked ``bot``): ``Randy (bot)``."""
    return _("{name} (bot)").format(name=name)


def mode_name(mode: object) -> str:
    """A variant (a ``Mode`` or its keyword) in the current language (``general`` -> ``umum``)."""
    keyword = str(getattr(mode, "value", mode))
    return _(MODE_NAMES[keyword]) if keyword in MODE_NAMES else keyword


def language() -> str:
    """The code of the current language: ``"en"`` or ``"ms"``."""
    return _language


def check_language(code: str) -> str:
    """``code`` as one of LANGUAGES (``"MS"`` and ``"ms_MY"`` give ``"ms"``); UnknownLanguage otherwise."""
    found = _match(code)
    if found is None:
        choices = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise UnknownLanguage(_("unknown language {code!r}: choose {choices}").format(
            code=code, choices=choices))
    return found


def _match(value: str) -> str | None:
    """The language of a locale name such as ``ms_MY.UTF-8`` or ``en``; None for any other."""
    base = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return SOURCE
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first of LANGUAGE (a
    colon-separated list), LC_ALL, LC_MESSAGES and LANG that is set; the first language in it
    the game speaks, or English."""
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = environ.get(name)
        if value:
            for part in value.split(":"):
                found = _match(part)
                if found is not None:
                    return found
            if name != "LANGUAGE":  # LANGUAGE names fallbacks; the others decide
                return SOURCE
    return SOURCE


def choose_language(option: str | None, remembered: str | None,
                    environ: Mapping[str, str] | None = None) -> str:
    """The language to start in: ``--lang`` (UnknownLanguage when unknown), else the choice
    remembered from the setup screen or the palette, else the environment's."""
    if option is not None:
        return check_language(option)
    if remembered and _match(remembered):
        return _match(remembered)
    return from_environment(environ)


def set_language(code: str) -> None:
    """Speak ``code`` (one of LANGUAGES) from now on; UnknownLanguage, with the language
    unchanged, when its catalog is not installed."""
    global _translation, _language
    code = check_language(code)
    if code == SOURCE:
        _translation = _gettext.NullTranslations()
    else:
        try:
            _translation = _gettext.translation(DOMAIN, LOCALE_DIR, [code])
        except OSError:  # a broken install (or a checkout never installed): say so, stay as we are
            raise UnknownLanguage(_("{name} is not installed: its catalog {path} is missing (reinstall "
                                    "sos-tui: pip install .)").format(
                name=LANGUAGES[code], path=LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo")) from None
    _language = code


def explain(error: BaseException | str) -> str:
    """An error's message in the current language. The engine's errors (``RuleError``) keep their
    English template and parameters, which are translated here, nested errors too; any other
    error is its own text."""
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return str(error)
    values = {key: _value(value) for key, value in params.items()}
    try:
        return _(template).format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English still says it
        return template.format(**values)


def _value(value):
    if isinstance(value, BaseException):
        return explain(value)
    if isinstance(value, Phrase):
        return _(str(value))
    return value
