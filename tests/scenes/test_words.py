"""Words through one door (scenes.store.words): every visible string is looked
up at draw time, and every shipped language is complete.

The pseudo-language "xx" is made here from the code's own messages (extracted
by Babel, as tools/translations.py does): each message wrapped in ⟦ ⟧ and some
30 % longer. The real app is driven through every screen at 1280×720 with it,
and every line drawn is read back: whatever is left of a line once its ⟦…⟧
parts are taken out escaped translation (the data of a game — numbers, names
from a record, notation — has no words of its own). Every button's label must
fit its button and every line the surface it is drawn on.
"""
from __future__ import annotations

import gettext
import io
import math
import re
import string
import sys
from pathlib import Path

import pygame
import pytest

from scenes.core import ui
from scenes.store import words
from scenes.store.catalogs import load_language, locale_dir, mo_bytes, po_path, read_po
from scenes.store.settings import Settings, load_settings, save_settings
from tests.scenes.harness import make_app, step

babel = pytest.importorskip("babel", reason="Babel (the test extra) extracts the messages")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402  (tools/translations.py)

SHIPPED = ("de", "es", "fr", "he")
OPEN, CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """``text`` in brackets, some 30 % longer (in short runs a long line can wrap at)."""
    extra = math.ceil(len(text) * 0.3)
    padding = " ".join("~" * min(6, extra - k) for k in range(0, extra, 7))
    return OPEN + text + (" " if " " in text and extra > 6 else "") + padding + CLOSE


@pytest.fixture(scope="module")
def messages():
    return [m for m in translations.extract_catalog() if m.id]


def pseudo_catalog(messages) -> gettext.GNUTranslations:
    table = {("", None): "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"}
    out = {"": table[("", None)]}
    for m in messages:
        if isinstance(m.id, tuple):
            out[m.id] = [pseudo(m.id[0]), pseudo(m.id[1])]
        else:
            out[m.id] = pseudo(m.id)
    return gettext.GNUTranslations(io.BytesIO(mo_bytes(out)))


def escaped(text: str) -> str:
    """What is left of a drawn line outside its ⟦…⟧ parts (innermost first)."""
    inner = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:
        shorter = inner.sub("", text)
        if shorter == text:
            return text
        text = shorter


# A line's rest may hold data: numbers, times, percentages, notation (E9, A6xC8),
# a card's rank, a deal's number; no word of two or more letters in a row.
NOT_WORDS = re.compile(r"\b[A-Za-z]*[0-9]+[A-Za-z0-9]*\b|\b[A-Za-z]\b")


def data_out(line: str) -> str:
    """The line without the data of the famous games it shows (players' names,
    events): a record's words are its own, never translated."""
    for text in FAMOUS_DATA:
        line = line.replace(text, " ")
    return line


def _famous_data() -> list[str]:
    from scenes.store.famous import list_famous
    found = set()
    for famous in list_famous()[0]:
        record = famous.record
        found.update(t for t in (record.tag("White"), record.tag("Black"), record.tag("Event")) if t)
    return sorted(found, key=len, reverse=True)


FAMOUS_DATA = _famous_data()


def has_words(rest: str) -> bool:
    rest = NOT_WORDS.sub(" ", rest)
    return re.search(r"[^\W\d_]{2,}", rest) is not None


class Drawn:
    """Every line of text rendered (ui.FONTS.text) and every problem of fit."""

    def __init__(self, monkeypatch) -> None:
        self.lines: dict[str, str] = {}       # text -> the scene it was seen on
        self.unfit: list[str] = []
        self.scene = "?"
        self.recording = True
        fonts_text = ui.Fonts.text

        def text(fonts, line, px, color=ui.INK, bold=False):
            if self.recording:
                self.lines.setdefault(line, self.scene)
            return fonts_text(fonts, line, px, color, bold)
        monkeypatch.setattr(ui.Fonts, "text", text)

        button_draw = ui.Button.draw

        def draw(button, surface, scale):
            button_draw(button, surface, scale)
            if button.label_surface().get_width() > button.rect.w:
                self.unfit.append(f"{self.scene}: button {button.label!r} "
                                  f"({button.label_surface().get_width()} px in {button.rect.w})")
        monkeypatch.setattr(ui.Button, "draw", draw)

        original = ui.draw_text

        def draw_text(surface, line, *args, **kwargs):
            rect = original(surface, line, *args, **kwargs)
            if rect.w and not surface.get_rect().contains(rect):
                self.unfit.append(f"{self.scene}: line {line!r} at {tuple(rect)} "
                                  f"outside {surface.get_size()}")
            return rect

        # A paragraph wrapped, or a line cut to fit: it is read whole, its pieces not.
        self.pieces: set[str] = set()
        wrap, fit = ui.wrap_text, ui.fit_text

        def read_whole(cut, as_lines):
            def cutting(text, *args, **kwargs):
                if self.recording:
                    self.lines.setdefault(text, self.scene)
                out = cut(text, *args, **kwargs)
                self.pieces.update(out if as_lines else [out])
                return out
            return cutting
        wrap_text, fit_text = read_whole(wrap, True), read_whole(fit, False)
        for name, module in list(sys.modules.items()):
            if not name.startswith("scenes"):
                continue
            for attribute, replacement, was in (("draw_text", draw_text, original),
                                                ("wrap_text", wrap_text, wrap), ("fit_text", fit_text, fit)):
                if getattr(module, attribute, None) is was:
                    monkeypatch.setattr(module, attribute, replacement)

    def whole_lines(self) -> dict[str, str]:
        return {line: scene for line, scene in self.lines.items() if line not in self.pieces}


def visit(app, drawn: Drawn, name: str, frames: int = 4) -> None:
    drawn.scene = name
    step(app, frames)


def tour(app, drawn: Drawn) -> None:
    """Every screen the app has offline, with its dialogs."""
    from scenes.games import playable_games
    from scenes.screens.help import HelpScene
    from scenes.screens.statistics import StatsScene
    nav = app.navigator
    nav.open_menu()
    visit(app, drawn, "menu", 30)
    nav.open_settings()
    settings = app.scenes.top
    for row in range(len(settings.rows)):
        settings.focus.focus = row
        visit(app, drawn, f"settings row {row}", 2)
    app.scenes.pop()
    for game_id in playable_games():
        app.scenes.push(HelpScene(app, game_id))
        visit(app, drawn, f"help {game_id}")
        app.scenes.top.set_page(1)
        visit(app, drawn, f"help controls {game_id}")
        app.scenes.pop()
        app.scenes.push(StatsScene(app, game_id))
        visit(app, drawn, f"statistics {game_id}")
        app.scenes.pop()
    for game_id in playable_games():
        nav.open_game(game_id, seed=3)
        scene = app.scenes.top
        visit(app, drawn, f"game {game_id}", 40)
        if game_id == "camelot-board":           # the players' dialog first
            dialog = app.scenes.top
            visit(app, drawn, "board setup")
            dialog.focus.buttons[0].action()
            visit(app, drawn, "board game", 40)
            scene = app.scenes.top
        scene.hint()
        visit(app, drawn, f"hint {game_id}", 30)
        scene.open_pause()
        visit(app, drawn, f"pause {game_id}")
        app.scenes.pop()
        if hasattr(scene, "choose_deal"):
            scene.choose_deal()
            visit(app, drawn, f"deal number {game_id}")
            app.scenes.pop()
        scene.toggle_autoplay()
        visit(app, drawn, f"automatic {game_id}", 120)
        nav.open_game(game_id, seed=3, demo=True)
        visit(app, drawn, f"demo {game_id}", 60)
    nav.open_replay()
    listing = app.scenes.top
    listing.wait_until_read(30)
    visit(app, drawn, "replay list")
    listing.rows[0].action()
    visit(app, drawn, "replay", 30)
    app.scenes.top.to_end()
    visit(app, drawn, "replay at the end", 30)
    nav.open_online()
    visit(app, drawn, "online: connect")
    online = app.scenes.top
    online.connect(url="ws://127.0.0.1:9")        # nothing answers there: the link's line
    visit(app, drawn, "online: connecting", 30)
    online.disconnect()


@pytest.fixture(scope="module")
def pseudo_run(messages):
    monkeypatch = pytest.MonkeyPatch()
    try:
        import scenes.store.catalogs as catalogs
        shipped = catalogs.translations
        catalog = pseudo_catalog(messages)
        monkeypatch.setattr(catalogs, "translations",
                            lambda code, root=None: catalog if code == "xx" else shipped(code, root))
        app = make_app((1280, 720))
        drawn = Drawn(monkeypatch)
        app.options.lang = "xx"          # as --lang would: the settings' language gives way
        assert app.apply_language() is None and words.language() == "xx"
        try:
            tour(app, drawn)
        finally:
            drawn.recording = False
            words.set_language("en")
            app.close()
        yield drawn
    finally:
        monkeypatch.undo()


def test_no_visible_string_escapes_translation(pseudo_run):
    escapes = sorted({f"{scene}: {line!r}" for line, scene in pseudo_run.whole_lines().items()
                      if has_words(escaped(data_out(line)))})
    assert len(pseudo_run.lines) > 300, "the tour drew too little to judge"
    assert not escapes, "drawn without a lookup:\n" + "\n".join(escapes)


def test_nothing_is_clipped_at_1280x720(pseudo_run):
    assert not pseudo_run.unfit, "\n".join(sorted(set(pseudo_run.unfit)))


def test_the_pseudo_check_finds_a_string_that_escapes():
    assert has_words(escaped("⟦Score {score}~~⟧ · Quit"))
    assert not has_words(escaped("⟦⟦White~⟧ · ⟦You~⟧~~⟧ · 3:05 · E9xG7 · 12 %"))


# --- the shipped languages ------------------------------------------------------------------
PLACEHOLDER = re.compile(r"{[^{}]*}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_template_is_the_code_s_messages(messages):
    """locale/messages.pot is what the code says now (tools/translations.py extract)."""
    with open(locale_dir() / "messages.pot", "rb") as pot:
        kept = {m.id for m in babel.messages.pofile.read_po(pot) if m.id}
    assert kept == {m.id for m in messages}


@pytest.mark.parametrize("code", SHIPPED)
def test_every_shipped_language_is_complete(code, messages):
    translated = read_po(po_path(code).read_text(encoding="utf-8"))
    missing, broken = [], []
    for m in messages:
        key = m.id if isinstance(m.id, str) else tuple(m.id)
        found = translated.get(key)
        if not found:
            missing.append(m.id)
            continue
        if isinstance(key, str):
            if placeholders(found) != placeholders(key):
                broken.append((key, found))
        else:
            # the other forms keep every placeholder; the singular may say "one" in words
            for form in found[1:]:
                if placeholders(form) != placeholders(key[1]):
                    broken.append((key, form))
            if not placeholders(found[0]) <= placeholders(key[1]):
                broken.append((key, found[0]))
    assert not missing, f"{code}: {len(missing)} not translated, e.g. {missing[:5]}"
    assert not broken, f"{code}: placeholders changed: {broken[:5]}"


@pytest.mark.parametrize("code", SHIPPED)
def test_a_shipped_language_formats_every_template(code, messages):
    """Every translation formats with the names its message has (no stray brace)."""
    catalog = gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po_path(code).read_text("utf-8")))))
    for m in messages:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        names = {name: "x" for text in ids for _, name, _, _ in string.Formatter().parse(text) if name}
        for n in (1, 2, 5):
            said = catalog.ngettext(ids[0], ids[1], n) if len(ids) > 1 else catalog.gettext(ids[0])
            said.format(**names)


def test_the_shipped_face_covers_every_shipped_language():
    """DejaVu Sans has a glyph for every letter the translations use."""
    pygame.font.init()
    for bold in (False, True):
        face = pygame.font.Font(str(ui.font_dir() / ui.FACE_FILES[bold]), 20)
        for code in SHIPPED:
            text = "".join(set(po_path(code).read_text(encoding="utf-8")))
            letters = [c for c in text if c.isalpha()]
            missing = [c for c, metrics in zip(letters, face.metrics("".join(letters))) if metrics is None]
            assert not missing, f"{code}: no glyph for {''.join(missing)!r}"


# --- choosing a language ----------------------------------------------------------------------
def test_a_language_switch_in_settings_shows_at_once():
    app = make_app()
    try:
        app.navigator.open_menu()
        step(app, 3)
        menu = app.scenes.top
        assert menu.buttons[-1].label == "Quit"
        app.settings.language = "de"
        app.save_settings()
        assert words.language() == "de"
        assert menu.buttons[-1].label == "Beenden"        # looked up as it is drawn
        step(app, 2)
        app.settings.language = "he"
        app.save_settings()
        assert ui.FONTS.font(20).rtl and menu.buttons[-1].label == "יציאה"
        step(app, 2)
        app.settings.language = "en"
        app.save_settings()
        assert menu.buttons[-1].label == "Quit" and not ui.FONTS.font(20).rtl
    finally:
        words.set_language("en")
        app.close()


def test_the_settings_keep_the_language(tmp_path):
    path = tmp_path / "settings.json"
    assert save_settings(Settings(language="fr"), path) is None
    assert load_settings(path)[0].language == "fr"
    path.write_text('{"version": 1, "language": "tlh"}', encoding="utf-8")
    settings, message = load_settings(path)
    assert settings.language == "system" and "language" in message


def test_the_system_s_preferred_language_is_chosen(monkeypatch):
    assert words.preferred([{"language": "ja", "country": "JP"}, {"language": "de", "country": "AT"},
                            {"language": "fr", "country": None}]) == "de"
    assert words.preferred(["ja_JP", "de_AT", "fr"]) == "de"
    assert words.preferred(["he-IL"]) == "he"
    assert words.preferred(["pt_BR", "C"]) == "en"
    assert words.preferred([]) == "en"


def test_an_unknown_language_on_the_command_line_is_one_line(capsys):
    from scenes.launcher import main
    assert main(["--lang", "xx"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["roundtable: error: --lang: there is no language 'xx'; the languages are "
                   "en, fr, de, es, he"]


def test_a_language_is_compiled_once_into_the_cache(tmp_path, monkeypatch):
    import scenes.store.catalogs as catalogs
    root = tmp_path / "locale"                  # the .po alone (a build leaves a .mo beside it)
    po_path("es", root).parent.mkdir(parents=True)
    po_path("es", root).write_bytes(po_path("es").read_bytes())
    monkeypatch.setattr(catalogs, "locale_dir", lambda: root)
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    assert load_language("es") is None
    assert words._("Settings") == "Ajustes"
    compiled = list((tmp_path / "cache" / "locale").glob("es-*.mo"))
    assert len(compiled) == 1 and not list(compiled[0].parent.glob("*.tmp"))
    words.set_language("en")
    assert words._("Settings") == "Settings"


def test_a_damaged_translation_falls_back_to_english(tmp_path, monkeypatch):
    import scenes.store.catalogs as catalogs
    root = tmp_path / "locale"
    po = po_path("fr", root)
    po.parent.mkdir(parents=True)
    po.write_text('msgid "Settings"\nmsgstr "Réglages\n', encoding="utf-8")   # an unclosed quote
    monkeypatch.setattr(catalogs, "locale_dir", lambda: root)
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    problem = load_language("fr")
    assert problem.startswith("The Français translation cannot be read (line 2") and words.language() == "en"


# --- right to left ---------------------------------------------------------------------------
def test_right_to_left_lines_keep_numbers_and_latin_the_right_way():
    """The font lays the whole line out backwards: runs that read left to right
    are turned first, so they come out as written."""
    assert words.visual_order("שלום") == "שלום"
    assert words.visual_order("קופה 24") == "קופה 42"
    assert words.visual_order("Enter / A למשחק") == "A / retnE למשחק"
    assert words.visual_order("12:30") == "03:21"
    # a number among Hebrew words reads on its own; after Latin it is part of it (F11)
    assert words.visual_order("מתוך 2: Tab, גלגלת") == "מתוך 2: baT, גלגלת"
    assert words.visual_order("F11 מסך") == "11F מסך"


def test_hebrew_is_drawn_right_to_left():
    pygame.font.init()
    font = ui.ScreenFont(str(ui.font_dir() / ui.FACE_FILES[False]), 30)
    font.right_to_left("Hebr")
    if not font.rtl:
        pytest.skip("this SDL_ttf has no text direction (no HarfBuzz)")
    line = pygame.surfarray.array_alpha(font.render("א ב", True, (0, 0, 0)))
    alone = ui.ScreenFont(str(ui.font_dir() / ui.FACE_FILES[False]), 30)
    aleph = pygame.surfarray.array_alpha(alone.render("א", True, (0, 0, 0))).sum()
    half = line.shape[0] // 2
    assert abs(int(line[half:].sum()) - int(aleph)) < abs(int(line[:half].sum()) - int(aleph))


def test_the_tour_reads_translated_lines(pseudo_run):
    """The escape check sees real lines: most are in brackets, and a line made
    of data alone (a clock, a score) passes."""
    lines = pseudo_run.whole_lines()
    bracketed = [line for line in lines if OPEN in line]
    assert len(bracketed) > 0.6 * len(lines)
    assert any(not has_words(escaped(line)) and OPEN not in line and line.strip() for line in lines)


def test_the_app_speaks_the_system_s_language(monkeypatch):
    """With the setting "system", the app asks SDL which languages the player prefers."""
    monkeypatch.setenv("SDL_PREFERRED_LOCALES", "ja_JP,es_MX")
    app = make_app()
    try:
        assert app.settings.language == "system" and words.language() == "es"
    finally:
        words.set_language("en")
        app.close()


def test_a_cache_that_cannot_be_written_still_gives_the_language(tmp_path, monkeypatch):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("ROUNDTABLE_HOME", str(blocked))       # its cache/ cannot be made
    assert load_language("de") is None and words._("Settings") == "Einstellungen"
    words.set_language("en")
