"""Theme colours a player can read: every theme's text colours, moved just far enough towards
black or white to stand out from the backgrounds they are drawn on (WCAG 2.x contrast ratios).

Textual's built-in themes choose some colours for looks: a muted foreground at 60% alpha, a
footer key in the accent colour, a warning orange on a light grey. Here each colour the game
draws text in keeps its hue and is darkened (light themes) or lightened (dark themes) until it
reaches 4.5:1 against each background it meets; frames reach 3:1.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.terminal_theme import TerminalTheme
from textual.color import Color, ColorParseError

TEXT = 4.5  # WCAG 2.x, level AA, for text
DECORATION = 3.0  # WCAG 2.1, non-text contrast: the lines of frames and the grid
BLACK, WHITE = Color(0, 0, 0), Color(255, 255, 255)

PLAYERS = tuple(f"player-{i}" for i in range(1, 7))
FOOTER = ("footer-key-foreground", "footer-description-foreground")
TEXTS = (*PLAYERS, "foreground", "foreground-muted", "text-warning", "text-success", "text-error")
# Backgrounds the game lays over the theme's, as in sos.tcss: (over, colour, alpha).
STRIPE = ("background", "foreground", 0.04)  # MoveLog > .move-log--odd
LOG_CURSOR = ("background", "primary", 0.25)  # MoveLog > .move-log--cursor
LOG_CURSOR_FOCUSED = ("background", "primary", 0.4)  # MoveLog:focus > .move-log--cursor
HOVER = ("surface", "primary", 0.25)  # Board > .board--hover


def luminance(colour: Color) -> float:
    """WCAG 2.x relative luminance: of the linear (not gamma-encoded) sRGB channels."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.r) + 0.7152 * linear(colour.g) + 0.0722 * linear(colour.b)


def contrast(one: Color, other: Color) -> float:
    """WCAG 2.x contrast ratio: 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def legible(colour: Color, backgrounds: Iterable[Color], ratio: float = TEXT) -> Color:
    """``colour``, blended towards black or white (whichever stands out more from the
    backgrounds) in steps of 2%, until it has at least ``ratio`` against every background; or
    black or white itself when nothing less does."""
    backgrounds = list(backgrounds)

    def worst(candidate: Color) -> float:
        return min(contrast(candidate, background) for background in backgrounds)

    end = max((BLACK, WHITE), key=worst)
    for step in range(51):
        candidate = colour.blend(end, step / 50)
        if worst(candidate) >= ratio:
            return candidate
    return end


def readable(variables: dict[str, str], terminal: TerminalTheme) -> dict[str, str]:
    """The colour variables of a theme (Textual's and the game's ``player-N``) to change so that
    what is drawn with them can be read, and the game's own ``frame`` and ``frame-focus`` (the
    colours of panel and board borders), ``frame-dialog`` and ``footer-line`` (the footer's separator).

    An ANSI theme's colours are the terminal's, which may differ from ``terminal`` (Textual's
    idea of them): a text colour that is illegible there becomes the terminal's own foreground."""
    try:
        colours = {name: Color.parse(variables[name]) for name in (
            "background", "surface", "panel", "foreground", "primary", "secondary", "accent",
            "footer-background")}
    except (KeyError, ColorParseError):
        return {}
    if colours["background"].ansi is not None:
        return {"frame": variables["secondary"], "frame-focus": variables["primary"],
                "frame-dialog": variables["accent"],
                "footer-line": variables["foreground"], **ansi_readable(variables, terminal)}

    def over(name: str, colour: str, alpha: float) -> Color:
        return colours[name].blend(colours[colour], alpha)

    background, surface, panel = colours["background"], colours["surface"], colours["panel"]
    grounds = [background, surface, panel,
               *(over(*layer) for layer in (STRIPE, LOG_CURSOR, LOG_CURSOR_FOCUSED, HOVER))]
    changed = {}
    for name in TEXTS:
        if name in variables:
            colour = background + Color.parse(variables[name])  # one with alpha, as drawn
            changed[name] = legible(colour, grounds).hex
    footer = colours["footer-background"]
    keys = [background + Color.parse(variables[name]) for name in FOOTER]
    keys = [legible(colour, [footer]) for colour in keys]
    footer = legible(footer, keys)  # when even white or black on it is not enough (solarized's blue)
    changed["footer-background"] = footer.hex
    changed["footer-line"] = legible(footer.blend(colours["foreground"], 0.2), [footer], DECORATION).hex
    changed.update((name, legible(colour, [footer]).hex) for name, colour in zip(FOOTER, keys, strict=True))
    frames = [background, surface, panel]
    changed["frame"] = legible(over("background", "secondary", 0.5), frames, DECORATION).hex
    changed["frame-focus"] = legible(colours["primary"], frames, DECORATION).hex
    changed["frame-dialog"] = legible(colours["accent"], frames, DECORATION).hex
    return changed


def ansi_readable(variables: dict[str, str], terminal: TerminalTheme) -> dict[str, str]:
    """For an ANSI theme: ``ansi_default`` for each text colour illegible in ``terminal``."""
    ground = Color(*terminal.background_color)
    changed = {}
    for name in TEXTS:
        try:
            colour = Color.parse(variables[name])
        except (KeyError, ColorParseError):
            continue
        if colour.ansi is not None and colour.ansi >= 0:
            drawn = Color(*colour.rich_color.get_truecolor(terminal))
            if contrast(drawn, ground) < TEXT:
                changed[name] = "ansi_default"
    return changed
