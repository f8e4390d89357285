"""Card art: sizes, alpha, colours, distinctness and caching (no golden images)."""
from __future__ import annotations

import pygame
import pytest

from game.cards import FULL_DECK, Card
from scenes.table.card_art import (
    BACK_STYLES, CardArt, card_height_for, pip_surface, suit_path_svg, suit_svg)

WIDTH = 96


@pytest.fixture(scope="module")
def art() -> CardArt:
    a = CardArt(WIDTH)
    a.prerender()
    return a


def _pixels(surf: pygame.Surface):
    """(r, g, b, a) tuples of every pixel."""
    data = pygame.image.tobytes(surf, "RGBA")
    return [tuple(data[i:i + 4]) for i in range(0, len(data), 4)]


def _is_red(p) -> bool:
    r, g, b, a = p
    return a > 128 and r > 150 and r - max(g, b) > 90


def test_size_and_corner_radius():
    a = CardArt(110)
    assert a.size == (110, 154)
    assert a.height == card_height_for(110) == 154
    assert CardArt(320).size == (320, 448)
    assert 2 <= a.corner_radius < 20


def test_every_face_has_the_card_size_and_alpha(art):
    w, h = art.size
    for card in FULL_DECK:
        surf = art.face(card)
        assert surf.get_size() == (w, h), card
        assert surf.get_flags() & pygame.SRCALPHA, card
        assert surf.get_at((0, 0)).a == 0, f"{card}: corner should be transparent (rounded)"
        assert surf.get_at((w - 1, h - 1)).a == 0, card
        assert surf.get_at((w // 2, 1)).a == 255, card  # the top edge is solid
        assert surf.get_at((w // 2, h // 2)).a == 255, card


def test_faces_all_differ(art):
    images = {pygame.image.tobytes(art.face(c), "RGBA") for c in FULL_DECK}
    assert len(images) == 52


def test_top_strip_identifies_every_card(art):
    """The top 22% of a face (what shows in an overlapped column) is unique."""
    w, h = art.size
    strip = (0, 0, w, int(h * 0.22))
    tops = {pygame.image.tobytes(art.face(c).subsurface(strip), "RGBA") for c in FULL_DECK}
    assert len(tops) == 52
    # and the suit shows there as colour: red suits have red pixels in the strip
    for card in (Card(10, "H"), Card(10, "D"), Card(1, "H"), Card(13, "D")):
        assert sum(map(_is_red, _pixels(art.face(card).subsurface(strip)))) > 20, card


def test_red_suits_are_red_and_black_suits_are_not(art):
    for card in FULL_DECK:
        reds = sum(map(_is_red, _pixels(art.face(card))))
        if card.is_red:
            assert reds > 50, f"{card}: expected red ink"
        else:
            assert reds == 0, f"{card}: black suit with {reds} red pixels"
            darks = sum(1 for p in _pixels(art.face(card))
                        if p[3] > 128 and max(p[:3]) < 70)
            assert darks > 50, f"{card}: expected near-black ink"


def test_courts_are_richer_than_pip_cards(art):
    """Court figures bring more colours than a plain pip card (a cheap sanity check)."""
    def colours(card):
        return len({p[:3] for p in _pixels(art.face(card)) if p[3] == 255})
    for suit in "CDHS":
        assert min(colours(Card(r, suit)) for r in (11, 12, 13)) > colours(Card(10, suit))


def test_cache_returns_the_same_objects(art):
    assert art.face(Card(12, "H")) is art.face(Card(12, "H"))
    assert art.face(Card.parse("QH")) is art.face(Card(12, "H"))
    assert art.back() is art.back()
    assert art.shadow() is art.shadow()
    assert art.outline((255, 200, 0)) is art.outline((255, 200, 0))
    assert art.outline((255, 200, 0), art.outline_thickness() + 2) is not art.outline((255, 200, 0))
    assert art.placeholder("K") is art.placeholder("K")
    assert art.placeholder() is art.placeholder(None)
    assert pip_surface("S", 20) is pip_surface("S", 20)


def test_back_shadow_placeholder_sizes(art):
    w, h = art.size
    for surf in (art.back(), art.shadow(), art.placeholder(), art.placeholder("A"),
                 art.placeholder("H")):
        assert surf.get_size() == (w, h)
        assert surf.get_flags() & pygame.SRCALPHA
    assert art.back().get_at((w // 2, h // 2)).a == 255
    assert art.back().get_at((0, 0)).a == 0
    # the shadow is translucent everywhere, darkest in the middle, clear at the edge
    sh = art.shadow()
    assert 40 < sh.get_at((w // 2, h // 2)).a < 200
    assert sh.get_at((0, h // 2)).a < 30
    # placeholders are faint; a label adds ink
    assert art.placeholder().get_at((w // 2, h // 2)).a < 80
    for label in ("K", "H"):
        assert (pygame.image.tobytes(art.placeholder(label), "RGBA")
                != pygame.image.tobytes(art.placeholder(), "RGBA"))


def test_outline_is_a_ring_around_the_card(art):
    w, h = art.size
    t = art.outline_thickness()
    ring = art.outline((255, 215, 0))
    assert ring.get_size() == (w + 2 * t, h + 2 * t)
    assert art.outline_offset() == (-t, -t)
    assert ring.get_at((w // 2 + t, t // 2)).a > 200          # on the ring
    assert ring.get_at((w // 2 + t, h // 2 + t)).a == 0       # hollow
    thin = art.outline((0, 255, 0, 128), 2)
    assert thin.get_size() == (w + 4, h + 4)
    assert 90 < thin.get_at((w // 2 + 2, 0)).a < 160          # colour alpha respected


def test_back_styles():
    backs = {style: pygame.image.tobytes(CardArt(60, style).back(), "RGBA")
             for style in ("blue", "red", "green")}
    assert len(set(backs.values())) == 3
    assert set(BACK_STYLES) >= {"blue", "red", "green"}
    with pytest.raises(ValueError):
        CardArt(60, "tartan")
    with pytest.raises(ValueError):
        CardArt(0)


def test_pip_helpers():
    for suit in "CDHS":
        assert suit_path_svg(suit).startswith("M")
        assert suit_svg(suit, 10).startswith(b"<svg")
        s = pip_surface(suit, 24)
        assert s.get_size() == (24, 24)
        assert s.get_at((12, 12)).a == 255   # the middle of every symbol is ink
        assert s.get_at((0, 0)).a == 0
        assert _is_red(s.get_at((12, 12))) == (suit in "DH")
    white = pip_surface("S", 16, (255, 255, 255))
    assert tuple(white.get_at((8, 8)))[:3] == (255, 255, 255)
    with pytest.raises(ValueError):
        suit_path_svg("X")


def test_large_and_tiny_sizes():
    big = CardArt(320)
    for card in (Card(13, "S"), Card(10, "H"), Card(1, "S")):
        assert big.face(card).get_size() == (320, 448)
    tiny = CardArt(24)
    for card in (Card(12, "D"), Card(7, "C")):
        assert tiny.face(card).get_size() == (24, 34)
    assert tiny.back().get_size() == (24, 34)


def test_with_a_display_surfaces_keep_alpha():
    pygame.display.init()
    try:
        pygame.display.set_mode((32, 32))
        a = CardArt(50)
        surf = a.face(Card(1, "H"))
        assert surf.get_flags() & pygame.SRCALPHA
        assert surf.get_at((0, 0)).a < 40   # rounded corner (a little anti-aliasing)
        assert a.back().get_size() == a.size
    finally:
        pygame.display.quit()


def test_faces_rendered_in_the_background_while_the_frame_loop_draws_its_own():
    """The frame loop may draw a face (and a placeholder, an outline) while the
    background thread renders the deck ahead: both blit the same cached pieces,
    which pygame refuses to do at once; one draws at a time, and every picture
    is the one a single thread draws."""
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    reference = CardArt(150)
    for _ in range(3):
        art = CardArt(150)
        worker = art.prerender_in_background()
        for card in reversed(FULL_DECK):
            art.face(card)
            art.placeholder("K")
            art.outline((255, 221, 87))
        worker.join(60)
        assert not worker.is_alive()
        for card in FULL_DECK[::13]:
            assert pygame.image.tobytes(art.face(card), "RGBA") == \
                pygame.image.tobytes(reference.face(card), "RGBA")
