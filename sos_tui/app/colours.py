"""Theme colours a player can read: every theme's text colours, moved just far enough towards
black or white to stand out from the backgrounds they are drawn on (WCAG 2.x contrast ratios).

Textual's built-in themes choose some colours for looks: a muted foreground at 60% alpha, a
footer key in the accent colour, a warning orange on a light grey. Here each colour the game
draws text in keeps its hue and is darkened (light themes) or lightened (dark themes) until it
reaches 4.5:1 against each background it meets; frames reach 3:1.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rich.terminal_theme import TerminalTheme
from textual.color import Color, ColorParseError

TEXT = 4.5  # WCAG 2.x, level AA, for text
DECORATION = 3.0  # WCAG 2.1, non-text contrast: the lines of frames and the grid
BLACK, WHITE = Color(0, 0, 0), Color(255, 255, 255)

PLAYERS = tuple(f"player-{i}" for i in range(1, 7))
FOOTER = ("footer-key-foreground", "footer-description-foreground")
TEXTS = (*PLAYERS, "foreground", "foreground-muted", "text-warning", "text-success", "text-error",
         "text-primary", "text-secondary", "text-accent")
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
    colours of panel and board borders), ``frame-dialog``, ``frame-success``, ``-warning`` and
    ``-error`` (dialogs' frames), ``footer-line`` (the footer's separator), ``footer-muted`` (a
    key that does nothing now: muted, not faded past reading),
    the bars of the review (``bar-progress``, ``bar-complete``, ``chart-min``, ``chart-max``), and
    those of Textual's widgets (``widgets``).

    An ANSI theme's colours are the terminal's, which may differ from ``terminal`` (Textual's
    idea of them): a text colour that is illegible there becomes the terminal's own foreground."""
    return dict(_readable(tuple(sorted(variables.items())), terminal))


@functools.lru_cache(maxsize=64)
def _readable(items: tuple[tuple[str, str], ...], terminal: TerminalTheme) -> dict[str, str]:
    """``readable``, kept for each theme: an app asks at its start and each time a theme is shown
    (the theme picker shows each one the cursor passes), and the answer takes milliseconds. The
    caller gets a copy (``readable``)."""
    variables = dict(items)
    try:
        colours = {name: Color.parse(variables[name]) for name in (
            "background", "surface", "panel", "foreground", "primary", "secondary", "accent",
            "footer-background")}
    except (KeyError, ColorParseError):
        return {}
    if colours["background"].ansi is not None:
        changed = {"frame": variables["secondary"], "frame-focus": variables["primary"],
                   "frame-dialog": variables["accent"], "footer-line": variables["foreground"],
                   "footer-muted": variables["footer-description-foreground"],
                   **{f"frame-{name}": variables[name] for name in ("success", "warning", "error")},
                   **ansi_readable(variables, terminal)}
        return {**changed, **ansi_widgets({**variables, **changed}, terminal)}

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
    changed["footer-muted"] = legible(footer + Color.parse(variables["foreground-muted"]), [footer]).hex
    tinted = surface + Color.parse(changed["foreground"]).with_alpha(0.05)  # a focused table, input
    frames = [background, surface, panel, tinted]
    changed["frame"] = legible(over("background", "secondary", 0.5), frames, DECORATION).hex
    changed["frame-focus"] = legible(colours["primary"], frames, DECORATION).hex
    changed["frame-dialog"] = legible(colours["accent"], frames, DECORATION).hex
    for name in ("success", "warning", "error"):  # frames that say what a dialog is about
        changed[f"frame-{name}"] = legible(Color.parse(variables[name]), frames, DECORATION).hex
    # Bars (the review's progress, its chart: Sparkline shades from its min to its max colour).
    changed["bar-progress"] = changed["chart-max"] = legible(colours["primary"], frames, DECORATION).hex
    changed["chart-min"] = legible(over("background", "primary", 0.3), frames, DECORATION).hex
    changed["bar-complete"] = legible(Color.parse(variables["success"]), frames, DECORATION).hex
    changed.update(widgets(variables, {**colours, "foreground": Color.parse(changed["foreground"])}))
    return changed


def flat(value: str, ground: Color) -> Color:
    """A variable's colour as drawn over ``ground``: its alpha (``#rrggbbaa``, ``colour 40%``)
    blended, and ``auto`` made the contrasting text colour Textual would choose."""
    text, alpha = value.strip(), 1.0
    if text.endswith("%"):
        text, _, percent = text.rpartition(" ")
        alpha = float(percent[:-1]) / 100
    if text == "auto":
        return ground + ground.get_contrast_text(alpha)
    return ground + Color.parse(text).multiply_alpha(alpha)


def towards(colour: Color, end: Color, backgrounds: list[Color], ratio: float) -> Color:
    """``colour`` blended towards ``end`` just enough to reach ``ratio`` against the
    ``backgrounds``; when even ``end`` does not, ``legible`` (towards the other end)."""
    for step in range(51):
        candidate = colour.blend(end, step / 50)
        if min(contrast(candidate, ground) for ground in backgrounds) >= ratio:
            return candidate
    return legible(colour, backgrounds, ratio)


# A button's colours (Textual's Button.-style-default): (its background, when hovered, the lighter
# and the darker edge of its bevel); the default button's label is $button-foreground, a coloured
# one's $button-color-foreground.
BUTTONS = {
    "default": ("surface", "surface-darken-1", "surface-lighten-1", "surface-darken-1"),
    "primary": ("primary", "primary-darken-2", "primary-lighten-3", "primary-darken-3"),
    "success": ("success", "success-darken-2", "success-lighten-2", "success-darken-3"),
    "warning": ("warning", "warning-darken-2", "warning-lighten-2", "warning-darken-3"),
    "error": ("error", "error-darken-1", "error-lighten-2", "error-darken-3"),
}


def widgets(variables: dict[str, str], colours: dict[str, Color]) -> dict[str, str]:
    """Textual's own widgets, legible: buttons (labels and bevels, see ``BUTTONS``; the game's
    ``button-VARIANT-foreground``, ``-top``, ``-bottom`` and, when hovered, ``-hover`` (its face),
    ``-hover-top`` and ``-hover-bottom``, used in sos.tcss), the cursor rows of tables, the borders
    of inputs and selects, their placeholders (the game's ``placeholder``), scrollbars and Markdown
    headings."""
    background, surface, panel = colours["background"], colours["surface"], colours["panel"]
    foreground = colours["foreground"]
    grounds = [background, surface, panel]
    changed: dict[str, str] = {}

    def colour(name: str, ground: Color) -> Color:
        return flat(variables[name], ground)

    for variant, (face, hover, light, dark) in BUTTONS.items():
        face, hover = colour(face, background), colour(hover, background)
        name = "button-foreground" if variant == "default" else "button-color-foreground"
        faces = [face, face + foreground.with_alpha(0.05)]  # focused: tinted
        label = legible(colour(name, face), faces)
        if contrast(label, hover) < TEXT:  # hovered, darker: lighter instead, or the other way round
            away = max((BLACK, WHITE), key=lambda end: contrast(end, label))
            hover = next(face.blend(away, step / 20) for step in range(2, 21)
                         if contrast(label, face.blend(away, step / 20)) >= TEXT)
        light, dark = colour(light, face), colour(dark, face)
        changed[f"button-{variant}-foreground"] = label.hex
        changed[f"button-{variant}-hover"] = hover.hex
        changed[f"button-{variant}-top"] = towards(light, WHITE, faces, DECORATION).hex
        changed[f"button-{variant}-bottom"] = towards(dark, BLACK, faces, DECORATION).hex
        changed[f"button-{variant}-hover-top"] = towards(face, WHITE, [hover], DECORATION).hex
        changed[f"button-{variant}-hover-bottom"] = towards(dark, BLACK, [hover], DECORATION).hex
    changed["button-foreground"] = changed["button-default-foreground"]

    cursor = colour("block-cursor-background", surface)
    changed["block-cursor-foreground"] = legible(colour("block-cursor-foreground", cursor), [cursor]).hex
    rows = [surface, colour("surface-lighten-1", surface).blend(surface, 0.5)]  # a table's zebra stripes
    blurred = [colour("block-cursor-blurred-background", row) for row in rows]
    changed["block-cursor-blurred-foreground"] = legible(
        colour("block-cursor-blurred-foreground", blurred[0]), blurred).hex

    edged = grounds + [surface + foreground.with_alpha(0.05)]
    changed["border-blurred"] = legible(colour("border-blurred", surface), edged, DECORATION).hex
    changed["border"] = legible(colour("border", surface), edged, DECORATION).hex
    changed["placeholder"] = legible(colour("foreground-muted", surface), edged).hex

    track = colour("scrollbar-background", background)
    tracks = [track, *(colour(f"scrollbar-background-{state}", track) for state in ("hover", "active"))]
    for name in ("scrollbar", "scrollbar-hover", "scrollbar-active"):
        changed[name] = legible(colour(name, track), tracks, DECORATION).hex

    for level in (1, 2, 3):
        heading = f"markdown-h{level}-"
        if variables.get(heading + "background", "transparent") in ("transparent", "initial"):
            behind = grounds
        else:
            behind = [colour(heading + "background", ground) for ground in grounds]
        changed[heading + "color"] = legible(colour(heading + "color", behind[0]), behind).hex
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


def ansi_widgets(variables: dict[str, str], terminal: TerminalTheme) -> dict[str, str]:
    """For an ANSI theme, Textual's widgets as Textual draws them there (a button framed in
    ``border-blurred``, or in its variant's colour, see ``widgets``), except that a frame drawn in
    a colour the terminal's background hides (``border-blurred`` is black: the background of most
    dark terminals) is drawn in the bright black, or else in the terminal's foreground."""
    ground = Color(*terminal.background_color)

    def shows(name: str) -> bool:
        colour = Color.parse(name)
        drawn = Color(*colour.rich_color.get_truecolor(terminal))
        return colour.ansi == -1 or contrast(drawn, ground) >= DECORATION

    edges = (variables["border-blurred"], "ansi_bright_black")
    edge = next((name for name in edges if shows(name)), "ansi_default")
    bar = variables["primary"] if shows(variables["primary"]) else "ansi_default"
    changed = {"border-blurred": edge, "placeholder": "ansi_default", "chart-max": bar, "chart-min": bar,
               "bar-progress": bar,
               "bar-complete": variables["success"] if shows(variables["success"]) else "ansi_default"}
    for variant in BUTTONS:
        label, frame = ("button-foreground", edge) if variant == "default" else (variant, variables[variant])
        changed[f"button-{variant}-foreground"] = variables[label]
        for side in ("top", "bottom"):
            changed[f"button-{variant}-{side}"] = frame
            changed[f"button-{variant}-hover-{side}"] = variables["border"] if variant == "default" else frame
        changed[f"button-{variant}-hover"] = variables.get("ansi-background", "ansi_default")  # Textual's
    return changed
