"""Words go through one door: every visible string is looked up here, at draw
time, in the player's language (gettext), so a switch in Settings shows at once.

    from ..store.words import _, N_, ngettext
    draw_text(surface, _("Settings"), …)                    # looked up now
    TITLE = N_("Card colours")   # at import: marked for extraction, looked up where drawn
    _("Deal {seed}").format(seed=seed)   # the template is translated, then filled

English is the source; the others come from ``locale/<code>/LC_MESSAGES``
(:func:`scenes.store.catalogs.load_language`). A right-to-left language is drawn by the
font with its direction set (``scenes.core.ui``); :func:`visual_order` prepares
its lines for that.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    import gettext

# The shipped languages, by code: their own names (as the Settings row shows them).
LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch", "es": "Español", "he": "עברית"}
RIGHT_TO_LEFT = frozenset({"he", "ar"})
SCRIPTS = {"he": "Hebr", "ar": "Arab"}      # ISO 15924, for the font's shaping
SYSTEM = "system"     # the setting's value for "whatever the system prefers"


class UnknownLanguageError(ValueError):
    """A language code that is not shipped (the command line's --lang)."""


class _English:
    """No catalog: every message as it is written (gettext's NullTranslations,
    without loading gettext at start-up)."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


class _Door:
    code = "en"
    catalog: gettext.NullTranslations | _English = _English()
    listeners: list[Callable[[str], None]] = []


def _(message: str) -> str:
    """``message`` in the player's language (itself in English, or where missing)."""
    return _Door.catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` (of ``singular``/``plural``) in the player's language."""
    return _Door.catalog.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a string made at import time for extraction; it is looked up with
    :func:`_` where it is drawn."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular and plural made at import time for extraction as one
    message; :func:`ngettext` looks them up with the number where drawn."""
    return singular, plural


def language() -> str:
    return _Door.code


def right_to_left() -> bool:
    return _Door.code in RIGHT_TO_LEFT


def script() -> str | None:
    return SCRIPTS.get(_Door.code)


def check_language(code: str) -> str:
    """A shipped language's code (or "system"), else UnknownLanguageError."""
    if code == SYSTEM or code in LANGUAGES:
        return code
    raise UnknownLanguageError(f"there is no language {code[:20]!r}; the languages are "
                               f"{', '.join(LANGUAGES)}")


def preferred(locales: Iterable) -> str:
    """The first shipped language among the system's preferred ones (as
    ``pygame.system.get_pref_locales`` gives them, {"language": "de", "country":
    "AT"}, or codes such as "fr_CA", "he-IL"), else English."""
    for locale in locales:
        name = locale.get("language") or "" if isinstance(locale, dict) else str(locale)
        code = name.replace("-", "_").split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def set_language(code: str, catalog: gettext.NullTranslations | _English | None = None) -> None:
    """Speak ``code`` from now on, in the messages of ``catalog`` (None: English;
    the shipped languages are read by ``store.catalogs.load_language``, a test's
    pseudo-language is given here)."""
    catalog = catalog or _English()
    changed = code != _Door.code or catalog is not _Door.catalog
    _Door.code, _Door.catalog = code, catalog
    if changed:
        for listener in list(_Door.listeners):
            listener(code)


def on_language_change(listener: Callable[[str], None]) -> None:
    """``listener(code)`` after every change of language (the fonts' direction)."""
    _Door.listeners.append(listener)


# --- right to left -----------------------------------------------------------------
def _kinds(text: str) -> list[str]:
    """Each character as the bidirectional algorithm sees it, simplified: "R"
    (Hebrew, Arabic), "L" (Latin; a number after Latin counts as Latin: "F11"),
    "EN" (a number among right-to-left words) or "N" (spaces, punctuation)."""
    import unicodedata  # start-up: only right-to-left lines need it
    kinds, strong = [], "R"            # a right-to-left line starts right to left
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            strong = "R"
            kinds.append("R")
        elif kind == "L":
            strong = "L"
            kinds.append("L")
        elif kind in ("EN", "AN"):
            kinds.append("L" if strong == "L" else "EN")
        else:
            kinds.append("N")
    return kinds


def _runs(text: str) -> list[tuple[int, int]]:
    """Where the runs that read left to right are: Latin words with what lies
    between them ("Enter / A"), and numbers with a single separator or sign
    inside or next to them ("12:30", "1.5", "50%")."""
    import unicodedata  # start-up: as in _kinds
    kinds, runs, i, n = _kinds(text), [], 0, len(text)
    while i < n:
        if kinds[i] == "L":
            j = i
            while j + 1 < n and kinds[j + 1] != "R":
                j += 1
            while kinds[j] != "L":           # neutrals after the last Latin belong to the line
                j -= 1
            runs.append((i, j + 1))
            i = j + 1
        elif kinds[i] == "EN":
            j = i
            while j + 1 < n and (kinds[j + 1] == "EN" or (
                    j + 2 < n and kinds[j + 2] == "EN" and text[j + 1] in ".,:/+-")):
                j += 1
            if j + 1 < n and unicodedata.bidirectional(text[j + 1]) == "ET":   # 50%
                j += 1
            runs.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    return runs


def visual_order(text: str) -> str:
    """A right-to-left line made ready for a font whose direction is right to
    left, which lays out the whole line backwards: the runs that read left to
    right inside it (numbers, Latin names, notation such as "E9") are turned
    around first, so they come out the right way."""
    out, at = [], 0
    for start, end in _runs(text):
        out.append(text[at:start])
        out.append(text[start:end][::-1])
        at = end
    out.append(text[at:])
    return "".join(out)
