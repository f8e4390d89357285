"""Shared drawing (scenes.core.ui) drawn a cheaper way draws the same pixels."""
from __future__ import annotations

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scenes.core import ui


@pytest.fixture(scope="module", autouse=True)
def window():
    """A window, as the app has (fonts and converted surfaces want one)."""
    if pygame.display.get_surface() is None:
        pygame.display.init()
        pygame.display.set_mode((64, 64))
    pygame.font.init()


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


@given(size=st.tuples(st.integers(40, 400), st.integers(40, 300)),
       rect=st.tuples(st.integers(-80, 400), st.integers(-80, 300), st.integers(10, 300),
                      st.integers(10, 300)),
       width=st.integers(1, 8), radius=st.integers(0, 30),
       clip=st.none() | st.tuples(st.integers(0, 200), st.integers(0, 150), st.integers(1, 400),
                                  st.integers(1, 300)))
def test_a_glow_ring_in_pieces_is_the_ring_drawn_and_blitted_whole(size, rect, width, radius, clip):
    pieces, whole = pygame.Surface(size), pygame.Surface(size)
    for surface in (pieces, whole):
        surface.fill((20, 90, 50))
        surface.set_clip(clip)
    rect = pygame.Rect(rect)
    painted = ui.glow_rect(pieces, rect, ui.FOCUS, width, radius)
    ring = ui.glow_ring((rect.w + 4 * width, rect.h + 4 * width), ui.FOCUS, width, radius)
    assert painted == whole.blit(ring, (rect.x - 2 * width, rect.y - 2 * width))
    assert _pixels(pieces) == _pixels(whole)


@pytest.mark.parametrize("px, bold", [(20, False), (110, True), (330, True)])
def test_a_shadow_made_from_the_lit_line_is_the_line_rendered_in_black(px, bold):
    lit = ui.FONTS.text("Round Table", px, ui.GOLD, bold)
    black = ui.FONTS.font(px, bold).render("Round Table", True, (0, 0, 0))
    assert _pixels(ui.FONTS.shadow(lit, "Round Table", px, bold)) == _pixels(black)


@given(size=st.tuples(st.integers(1, 300), st.integers(1, 600)), radius=st.integers(0, 40),
       color=st.tuples(*[st.integers(0, 255)] * 4),
       pos=st.tuples(st.integers(-100, 300), st.integers(-100, 400)),
       clip=st.none() | st.tuples(st.integers(0, 200), st.integers(0, 300), st.integers(1, 300),
                                  st.integers(1, 400)))
def test_a_tall_panel_in_slices_is_the_panel_blitted_whole(size, radius, color, pos, clip):
    sliced, whole = pygame.Surface((300, 400)), pygame.Surface((300, 400))
    for surface in (sliced, whole):
        surface.fill((20, 90, 50))
        surface.set_clip(clip)
    ui.TallPanel(size, color, radius).blit_to(sliced, pos)
    whole.blit(ui.rounded_panel(size, color, radius), pos)
    assert _pixels(sliced) == _pixels(whole)


def test_the_felt_painted_on_another_core_is_the_felt_and_the_work_runs_meanwhile():
    size = (640, 360)
    window = pygame.display.set_mode(size)
    ran = []
    ui.draw_felt_while(window, lambda: ran.append(ui.text_surfaces("Round Table", 40, ui.GOLD, shadow=True)))
    painted = _pixels(window)
    window.fill((0, 0, 0))
    ui.draw_felt(window)
    assert painted == _pixels(window)
    (lit, dark), = ran
    assert dark is not None and lit.get_size() == dark.get_size()


def test_a_failure_painting_the_felt_is_raised_in_the_frame_loop(monkeypatch):
    window = pygame.display.set_mode((640, 360))

    def broken(surface):
        raise pygame.error("out of memory")
    monkeypatch.setattr(ui, "draw_felt", broken)
    with pytest.raises(pygame.error, match="out of memory"):
        ui.draw_felt_while(window, lambda: None)


@given(size=st.tuples(st.integers(40, 700), st.integers(40, 500)),
       area=st.tuples(st.integers(-40, 700), st.integers(-40, 500), st.integers(1, 700), st.integers(1, 500)),
       aligned=st.booleans())
def test_the_felt_painted_into_any_area_is_that_part_of_the_whole_felt(size, area, aligned):
    """Painted on the quarter-size grid (scaled straight into place) or off it
    (from the kept blocks), an area of felt is the same pixels as the felt
    painted whole, and nothing outside the area is touched."""
    area = pygame.Rect(area)
    if aligned:
        area = pygame.Rect(area.x // 4 * 4, area.y // 4 * 4, -(-area.w // 4) * 4, -(-area.h // 4) * 4)
    whole, part = pygame.Surface(size), pygame.Surface(size)
    ui.paint_felt(whole)
    part.fill((1, 2, 3))
    ui.paint_felt(part, area)
    inside = area.clip(part.get_rect())
    expected = pygame.Surface(size)
    expected.fill((1, 2, 3))
    expected.blit(whole, inside, inside)
    assert _pixels(part) == _pixels(expected)


def test_without_a_thread_to_be_had_the_felt_is_painted_first_then_the_work(monkeypatch):
    import threading
    window = pygame.display.set_mode((640, 360))

    def refused(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", refused)
    ran = []
    ui.draw_felt_while(window, lambda: ran.append("work"))
    painted = _pixels(window)
    window.fill((0, 0, 0))
    ui.draw_felt(window)
    assert ran == ["work"] and painted == _pixels(window)
