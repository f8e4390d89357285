"""Statistics at the largest text size (200 %) on a Steam Deck's screen
(1280×800) and at 1280×720, in English and in German (its words run about
30 % longer): every line drawn is read back where it was drawn, and nothing
overlaps — the titles, the three panels, each panel's words, the buttons, the
keys' footer. The record's words grow with the text size, and the rows that
no longer fit scroll."""
from __future__ import annotations

import pytest

import scenes.screens.statistics as statistics
from scenes.core.actions import Action, InputEvent
from scenes.store.words import set_language
from scenes.work.service import shutdown

from .harness import make_app, step


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")
    shutdown()


def drawn_statistics(monkeypatch, size, code, percent, game_id="camelot-solitaire"):
    """The statistics page drawn, and every (text, rect) it drew."""
    lines = []
    real = statistics.draw_text

    def recording(surface, text, *args, **kwargs):
        rect = real(surface, text, *args, **kwargs)
        lines.append((text, rect))
        return rect

    monkeypatch.setattr(statistics, "draw_text", recording)
    app = make_app(size)
    app.settings.language, app.settings.text_scale = code, percent
    app.save_settings()
    app.scenes.push(statistics.StatsScene(app, game_id))
    step(app, 2)
    scene = app.scenes.top
    lines.clear()
    scene._page = None
    scene.draw(app.screen)
    return app, scene, lines


def overlapping(rects):
    return [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if a.colliderect(b)]


@pytest.mark.parametrize("size", [(1280, 800), (1280, 720)])
@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("game_id", ["camelot-solitaire", "camelot-board"])    # the board: bars by level
def test_at_200_percent_nothing_overlaps(monkeypatch, size, code, game_id):
    app, scene, lines = drawn_statistics(monkeypatch, size, code, 200, game_id)
    screen = app.screen.get_rect()
    buttons = [b.rect for b in scene.focus.buttons]
    panels = scene.panel_rects
    assert all(screen.contains(r) for r in buttons + panels + [r for _, r in lines])
    assert not overlapping(buttons + panels)
    for text, rect in lines:
        assert not any(rect.colliderect(b) for b in buttons), f"{text!r} under a button"
        home = [p for p in panels if p.collidepoint(rect.center)]
        if home:
            assert home[0].contains(rect), f"{text!r} leaves its panel"
        else:
            assert not any(rect.colliderect(p) for p in panels), f"{text!r} over a panel"
    for panel in panels:
        inside = [r for _, r in lines if panel.contains(r)]
        assert not overlapping(inside), overlapping(inside)


@pytest.mark.parametrize("size", [(1280, 800), (1280, 720)])
def test_the_record_grows_with_the_text_and_what_does_not_fit_scrolls(monkeypatch, size):
    played = "Gespielt"
    _, _, small = drawn_statistics(monkeypatch, size, "de", 100)
    small_h = dict(small)[played].h
    monkeypatch.undo()
    app, scene, lines = drawn_statistics(monkeypatch, size, "de", 200)
    assert dict(lines)[played].h >= 1.5 * small_h
    last = "Durchschnittszeit"                     # the record's last row: Average time
    if scene.record_more:
        assert last not in dict(lines)
        for _ in range(scene.record_more):
            scene.handle(InputEvent(Action.DOWN, device="keys"))
        lines.clear()
        scene.draw(app.screen)
        assert last in dict(lines) and played not in dict(lines)
    else:
        assert last in dict(lines)
