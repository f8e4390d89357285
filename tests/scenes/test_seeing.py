"""Issue 24, point 2, seeing: the four-colour deck, the high-contrast theme and
reduced motion, chosen in Settings and kept, as the player sees them."""
from __future__ import annotations

import json

import pygame
import pytest

from game.base import Status
from game.hamilton import Hamilton
from scenes.core.anim import shake
from scenes.core.overlays import DialogScene
from scenes.core.ui import felt
from scenes.games.hamilton_scene import HamiltonScene
from scenes.screens.settings import SettingsScene
from scenes.store.settings import (SEEING_CHOICES, Settings, config_dir, load_settings,
                                   save_settings)
from scenes.table.card_art import CardArt, shared_card_art

from .harness import key, make_app, settle, step
from .patience_input import open_scene, play_line

WIDTH = 110


def _colour_at_centre(surface: pygame.Surface) -> tuple[int, int, int]:
    w, h = surface.get_size()
    return tuple(surface.get_at((w // 2, h // 2)))[:3]


def _hue(rgb) -> str:
    r, g, b = rgb
    if max(rgb) < 60:
        return "black"
    return max((("red", r), ("green", g), ("blue", b)), key=lambda kv: kv[1])[0]


# --- the four-colour deck -------------------------------------------------------------
@pytest.mark.parametrize("four, expected", [
    (False, {"C": "black", "D": "red", "H": "red", "S": "black"}),
    (True, {"C": "green", "D": "blue", "H": "red", "S": "black"}),
])
def test_each_suit_has_its_own_colour_in_the_four_colour_deck(four, expected):
    # The ace's big pip sits in the middle of the card.
    art = CardArt(WIDTH, four_colour=four)
    assert {suit: _hue(_colour_at_centre(art.face(f"A{suit}"))) for suit in "CDHS"} == expected


def test_the_four_colour_court_cards_wear_their_suits_colour():
    classic, four = CardArt(WIDTH), CardArt(WIDTH, four_colour=True)
    for card in ("KC", "QD", "JC"):
        assert pygame.image.tobytes(classic.face(card), "RGBA") != \
            pygame.image.tobytes(four.face(card), "RGBA")
    assert pygame.image.tobytes(classic.face("KH"), "RGBA") == \
        pygame.image.tobytes(four.face("KH"), "RGBA")        # hearts stay red


def test_the_table_draws_with_the_chosen_deck():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    assert not scene.art.four_colour
    app.settings.four_colour = True
    scene.resume()                            # back from Settings
    assert scene.art.four_colour and scene.art is shared_card_art(app, scene.art.width)


# --- high contrast ---------------------------------------------------------------------
def test_high_contrast_cards_are_white_edged_in_black_with_deeper_colours():
    normal, high = CardArt(WIDTH), CardArt(WIDTH, high_contrast=True)
    edge = (WIDTH // 2, 1)                    # the middle of the top edge
    assert sum(high.face("5S").get_at(edge)[:3]) < 60 < sum(normal.face("5S").get_at(edge)[:3])
    assert tuple(high.face("2C").get_at((WIDTH // 2, WIDTH // 2))[:3]) == (255, 255, 255)
    red_normal, red_high = _colour_at_centre(normal.face("AH")), _colour_at_centre(high.face("AH"))
    assert red_high[0] < red_normal[0] and _hue(red_high) == "red"


def test_high_contrast_darkens_the_table_and_thickens_the_rings():
    app = make_app()
    size = (640, 360)
    normal = sum(felt(size).get_at((320, 180))[:3])
    app.settings.high_contrast = True
    app.save_settings()                       # what the Settings screen does after a change
    dark = sum(felt(size).get_at((320, 180))[:3])
    app.settings.high_contrast = False
    app.save_settings()
    assert dark < normal / 2 and sum(felt(size).get_at((320, 180))[:3]) == normal


# --- reduced motion ---------------------------------------------------------------------
def test_reduced_motion_places_moves_and_deals_at_once():
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    app.settings.reduced_motion = True
    key(app, pygame.K_n)                      # a new deal, and one more frame: all in place
    step(app)
    assert scene.seed != 28 and not scene.table.busy
    key(app, pygame.K_RETURN)                 # the stock: a move, placed in its frame
    assert scene.game.history and not scene.table.busy
    assert shake(app, 0.5, 4) == 0            # a refused pile's ring stays still
    app.settings.reduced_motion = False
    assert shake(app, 0.5, 4) != 0


def test_reduced_motion_wins_without_a_wheel_and_the_dialog_comes_at_once():
    from .test_hamilton_scene import WIN_28
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28)
    app.settings.reduced_motion = True
    play_line(app, scene, WIN_28, hows=("click",))
    settle(app, scene)
    step(app, 2)
    assert scene.game.status is Status.WON and not scene.table.celebrating
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and dialog.title == "You won!"
    assert dialog.age >= 0.2                  # no rise-in


# --- the settings, kept and chosen --------------------------------------------------------
def test_the_seeing_settings_are_kept_and_a_bad_value_sets_the_file_aside():
    chosen = Settings(four_colour=True, high_contrast=True, reduced_motion=True, text_scale=150)
    assert save_settings(chosen) is None
    assert load_settings()[0] == chosen
    assert chosen.speed_factor == Settings(animation_speed="instant").speed_factor
    path = config_dir() / "settings.json"
    path.write_text(json.dumps({"version": 1, "text_scale": 130}))
    settings, message = load_settings()
    assert settings == Settings() and "text size" in message and "130" in message


def test_the_settings_screen_changes_them_by_keys():
    app = make_app()
    screen = SettingsScene(app)
    app.scenes.push(screen)
    step(app, 2)
    first = [b.label for b in screen.rows].index("Card colours: Red and black")
    for _ in range(first):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)
    assert app.settings.four_colour
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert app.settings.high_contrast
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_LEFT)                   # text size, round from 100 % to 200 %
    assert app.settings.text_scale == 200
    labels = [b.label for b in screen.rows]
    assert [labels[first + k].split(":")[0] for k in range(4)] == [c.title for c in SEEING_CHOICES]
    assert "Text size: 200 %" in labels


# --- text and controls from 100 % to 200 % ----------------------------------------------
def _text_rects(scene):
    return [scene._texts_rect([t]) for texts in scene._hud_texts().values() for t in texts]


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_at_200_percent_the_table_s_text_and_controls_double_and_nothing_overlaps(size):
    app, scene = open_scene(HamiltonScene, Hamilton(seed=28), seed=28, size=size)
    before = [b.rect.copy() for b in scene.toolbar.buttons]
    label_px = scene.toolbar.buttons[0].label_surface().get_height()
    app.settings.text_scale = 200
    app.save_settings()                       # as Settings does: every screen laid out again
    step(app)
    screen = pygame.Rect((0, 0), size)
    bars = scene.toolbar.buttons
    assert all(screen.contains(b.rect) for b in bars)
    assert bars[0].rect.h > before[0].h * 1.5
    assert bars[0].label_surface().get_height() > label_px * 1.5
    assert not any(a.rect.colliderect(b.rect) for a, b in zip(bars, bars[1:]))
    texts = _text_rects(scene)
    assert all(r.bottom <= scene.hud_h + 4 for r in texts)
    assert not any(a.colliderect(b) for i, a in enumerate(texts) for b in texts[i + 1:])
    assert scene.play_area.top >= scene.hud_h and scene.play_area.bottom <= bars[0].rect.top
    key(app, pygame.K_RETURN)
    settle(app, scene)
    key(app, pygame.K_n)                      # a dialog, its text and buttons inside its panel
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene)
    assert all(dialog.panel_rect.contains(b.rect) for b in dialog.focus.buttons)
    assert screen.contains(dialog.panel_rect)
    app.settings.text_scale = 100
    app.save_settings()
    assert [b.rect for b in scene.toolbar.buttons] == before      # back as it was
