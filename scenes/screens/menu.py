"""The main menu (the four games, demo, settings, quit); the settings screen is
``scenes.screens.settings``."""
from __future__ import annotations

import pygame

from ..core.actions import Action, InputEvent
from ..core.kept_pictures import keep_frame, kept_lines, read_frame
from ..core.overlays import DialogScene, FocusButtons
from ..core.scene import Scene
from ..core.ui import (FOCUS, GOLD, INK, INK_DIM, Button, TallPanel, draw_felt, draw_felt_while, draw_text,
                       drawing_options, for_reading, glow_rect, layout_row, layout_rows, text_surfaces,
                       touch_target, ui_scale)
from ..games import GAMES, check_saved_options, descriptor, playable_games, warm_scene_modules
from ..store.words import N_, _, language

ATTRACT_AFTER = 60.0  # s left alone on the menu before the demos play
WARM_AFTER = 0.25     # s on the menu before the games' modules and art load in the background


class MenuScene(Scene):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.idle = 0.0
        self.games = list(GAMES.values())
        self.tiles = [Button(d.title, self._starter(d.id)) for d in self.games]
        self.tile_ids = [d.id for d in self.games]
        self.buttons = [Button(N_("Play online"), self.online),
                        Button(N_("Watch a demo"), self.demo), Button(N_("How to play"), self.help),
                        Button(N_("Statistics"), self.statistics), Button(N_("Replay a game"), self.replays),
                        Button(N_("Settings"), self.settings),
                        Button(N_("Quit"), self.app.quit)]
        self.focus = FocusButtons(self.tiles + self.buttons)
        last = app.settings.last_game
        if last in self.tile_ids and self.tiles[self.tile_ids.index(last)].enabled:
            self.focus.focus = self.tile_ids.index(last)
        self.age = 0.0

    def offer_game_left(self) -> None:
        """Once a launch, with the menu on screen: a game left in the middle is
        offered again (start-up: the saved game is read after the first frame)."""
        if getattr(self.app, "_resume_offered", False):
            return
        self.app._resume_offered = True
        from ..store.saves import load_save  # start-up: see above
        data, message = load_save(check_options=check_saved_options)
        if message:
            self.app.report(message)
        if data is not None:
            self.offer_resume(data)

    def offer_resume(self, data: dict) -> None:
        game = descriptor(data["game_id"])

        def resume():
            self.app.settings.last_game = game.id
            self.app.save_settings()
            self.app.scenes.reset(game.resume(self.app, data))

        def discard():
            from ..store.saves import clear_save  # start-up: see offer_game_left
            clear_save()
            self.app.scenes.remove(dialog)

        dialog = DialogScene(self.app, N_("Welcome back"), [
            _("Resume {game}?").format(game=game.describe(data)),
            N_("It was left in the middle when the game was closed.")],
            [(N_("Resume"), resume), (N_("Discard"), discard)], on_back=discard)
        self.app.scenes.push(dialog)

    def online(self) -> None:
        self.app.navigator.open_online()

    def statistics(self) -> None:
        from .statistics import StatsScene  # start-up: loads when first asked for, not with the menu
        self.app.scenes.push(StatsScene(self.app, self._chosen_game()))

    def replays(self) -> None:
        self.app.navigator.open_replay()

    def resume(self) -> None:
        self.idle = 0.0
        self._drawn_look = None         # what was over the menu is on the screen: all again

    def _starter(self, game_id: str):
        app = self.app      # not self: the menu's buttons must not hold the menu (a cycle)
        return lambda: app.navigator.open_game(game_id)

    def _chosen_game(self) -> str:
        """The focused game, or the last one focused, or the first playable one."""
        focused = self.focus.buttons[self.focus.focus]
        game_id = next((gid for gid, tile in zip(self.tile_ids, self.tiles)
                        if tile is focused and tile.enabled), None)
        if game_id:
            self._last_game = game_id
        return game_id or getattr(self, "_last_game", None) or next(
            gid for gid, tile in zip(self.tile_ids, self.tiles) if tile.enabled)

    def demo(self) -> None:
        self.app.navigator.open_game(self._chosen_game(), demo=True)

    def help(self) -> None:
        from .help import HelpScene  # start-up: loads when first asked for, not with the menu
        self.app.scenes.push(HelpScene(self.app, self._chosen_game()))

    def settings(self) -> None:
        self.app.navigator.open_settings()

    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        w, h = size
        n = len(self.tiles)
        gap = int(24 * s)
        tile_w = max(1, int(min(260 * s, (w - gap * (n + 1)) / n)))   # App keeps w ≥ 640; never < 1
        tile_h = int(tile_w * 1.25)
        top = int(h * 0.30)
        target = touch_target(size)
        if target:      # touch: the buttons in two rows a finger can hit, the tiles as tall as leaves room
            row_gap = int(12 * s)
            tile_h = max(target, min(tile_h, h - int(48 * s) - top - 2 * target - 3 * row_gap))
        x = (w - (tile_w * n + gap * (n - 1))) // 2
        for tile in self.tiles:                       # in reading order: right to left in Hebrew
            tile.rect = for_reading(pygame.Rect(x, top, tile_w, tile_h), 0, w)
            x += tile_w + gap
        if target:
            layout_rows(self.buttons, w // 2, top + tile_h + 2 * row_gap, target, row_gap,
                        (len(self.buttons) + 1) // 2)
        else:
            layout_row(self.buttons, (w // 2, top + tile_h + int(70 * s)), int(48 * s), int(20 * s),
                       int(24 * s))
        self.tile_panel = TallPanel((tile_w, tile_h), (12, 40, 28, 215), radius=int(18 * s))
        self._first_frame = True
        self._from_kept_frame = False
        self._lines_rendered = True
        self._drawn_look = None

    def handle(self, event: InputEvent) -> None:
        a = event.action
        self.idle = 0.0
        if a in (Action.UP, Action.DOWN):
            # Up/down jumps between the row of games and the row of buttons.
            i = self.focus.focus
            n = len(self.tiles)
            if i < n:
                self._last_game = self.tile_ids[i]
            if a == Action.DOWN and i < n:
                self.focus.focus = n + min(len(self.buttons) - 1, i * len(self.buttons) // n)
            elif a == Action.UP and i >= n:
                choices = [k for k, t in enumerate(self.tiles) if t.enabled]
                target = (i - n) * n // len(self.buttons)
                self.focus.focus = min(choices, key=lambda k: abs(k - target)) if choices else i
            self.focus.say_focus()
            return
        if a == Action.BACK:
            return
        self.focus.handle(event)

    def update(self, dt: float) -> None:
        if self.age > 0:
            # The menu is on screen (a frame has gone by): the sound starts,
            # which a game would otherwise wait for as it opens; and a moment
            # later (the worker processes are starting first) the games'
            # modules and art load in the background while the player chooses.
            self.app.sound.start()
            self.offer_game_left()
            if self.age >= WARM_AFTER:
                warm_scene_modules(self.size)
        self.age += dt
        self.idle += dt
        if self.idle >= ATTRACT_AFTER and self.app.scenes.top is self and self.tiles:
            # Attract mode: the demos of all the games in turn; any input
            # returns to the menu (GameScene.handle in demo mode).
            self.app.navigator.open_game(playable_games()[0], demo=True, cycle=True)

    def _tile_rect(self, i: int) -> pygame.Rect:
        """Tile ``i`` where it is drawn: lifted a little under the focus or the pointer."""
        lifted = self.focus.focus == i or self.focus.hover == i
        return self.tiles[i].rect.move(0, -int(6 * self.scale) if lifted else 0)

    def _lines(self) -> list[tuple]:
        """The menu's lines of text but the buttons' labels, in the order drawn
        (the footer last): (text, px, centre, colour, shadow)."""
        s = self.scale
        w, h = self.size
        lines = [(_("Round Table"), 110 * s, (w // 2, int(h * 0.12)), GOLD, True),
                 (_("Four classic games: three patiences and a board game of 1930"), 28 * s,
                  (w // 2, int(h * 0.12 + 70 * s)), INK_DIM, False)]
        for i, (game, tile) in enumerate(zip(self.games, self.tiles)):
            rect = self._tile_rect(i)
            lines.append((tile.label, 30 * s, (rect.centerx, rect.y + int(rect.h * 0.66)), INK, False))
            lines.extend((_(line), 20 * s, (rect.centerx, rect.y + int(rect.h * (0.77 + 0.08 * k))),
                          INK_DIM, False) for k, line in enumerate(game.blurb))
        lines.append((_("Arrows, D-pad or mouse to choose · Enter / A to play · F11 full screen"),
                      20 * s, (w // 2, h - int(24 * s)), INK_DIM, False))
        return lines

    def _render_lines(self, lines: list[tuple]) -> None:
        with kept_lines():      # the same at every launch of this size: from the user's cache
            for text, px, _, color, shadow in lines:
                text_surfaces(text, px, color, shadow)
            for button in self.buttons:
                button.label_surface()

    def _emblem_rect(self, i: int) -> pygame.Rect:
        rect = self._tile_rect(i)
        return pygame.Rect(rect.x, rect.y + int(rect.h * 0.08), rect.w, int(rect.h * 0.5))

    def draw_incremental(self, surface: pygame.Surface, restore: list[pygame.Rect]) -> list[pygame.Rect] | None:
        """The menu is still but for a moving emblem (Clock's hands): only its
        area is painted again each frame, and where a message was (``restore``);
        all of it when the focus or the pointer's tile changed, or something
        was over it. Returns the areas painted, or None for the whole screen."""
        look = (self.focus.focus, self.focus.hover)
        if self._first_frame or look != self._drawn_look:
            first = self._first_frame
            self.draw(surface)
            if first and not self._from_kept_frame and self.app.first_frame_seconds is None:
                # The launch's first frame, the menu alone on the screen (a
                # dialog over it draws through Scene.draw, not here): kept for
                # the next launch. Not a menu opened later in the run (another
                # focus, another size): its 33 MB at 4K would stall a frame.
                keep_frame(surface, "menu", self._first_look)
            self._drawn_look = look
            self._drawn_tick = self._emblem_age()
            return None
        tick = self._emblem_age()
        areas = [self._emblem_rect(i) for i, game in enumerate(self.games)
                 if game.emblem_moves and tick != self._drawn_tick]
        areas += restore
        for area in areas:
            surface.set_clip(area)       # the whole menu drawn, within the area
            self.draw(surface)
        surface.set_clip(None)
        self._drawn_tick = tick
        return areas

    def _emblem_age(self) -> int:
        """The moving emblems' time: whole seconds (Clock's hands tick once a
        second, so a still menu is repainted, and woken, once a second)."""
        return int(self.age)

    def next_change_in(self) -> float:
        if self.age < WARM_AFTER:
            return 0.0                   # the first moments start the sound and the warm-up
        return min(1.0 - self.age % 1.0, max(0.0, ATTRACT_AFTER - self.idle))

    def _frame_look(self, lines: list[tuple]) -> tuple:
        """All the first frame shows, as the menu knows it (``lines``: its
        ``_lines()``): the name of its kept picture (kept_pictures.read_frame;
        the drawing code is in the name too)."""
        return (self.size, self.scale, language(), lines, self.focus.focus, self.focus.hover,
                [(g.id, tuple(self._tile_rect(i)), t.enabled) for i, (g, t) in enumerate(zip(self.games, self.tiles))],
                [(b.label, tuple(b.rect), b.enabled, b.hot, b.hovered) for b in self.buttons],
                self._emblem_age(), drawing_options())

    def _set_button_looks(self) -> None:
        for k, b in enumerate(self.buttons):
            b.hot = self.focus.focus == len(self.tiles) + k
            b.hovered = self.focus.hover == len(self.tiles) + k

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        lines = self._lines()
        self._set_button_looks()
        if self._first_frame:
            self._first_frame = False
            # Start-up: the first frame as the last launch kept it, read into
            # the window (a few ms at 4K, against some 30 of drawing) ...
            self._first_look = self._frame_look(lines)
            self._from_kept_frame = read_frame(surface, "menu", self._first_look)
            if self._from_kept_frame:
                self._lines_rendered = False      # rendered (or read) for the next frame drawn
                return
            # ... or drawn: its text rendered (some ms at 4K) while the felt
            # is painted on the other core.
            draw_felt_while(surface, lambda: self._render_lines(lines))
        else:
            if not self._lines_rendered:
                self._lines_rendered = True
                self._render_lines(lines)
            draw_felt(surface)
        for i, game in enumerate(self.games):
            self.tile_panel.blit_to(surface, self._tile_rect(i).topleft)
            game.emblem(surface, self._emblem_rect(i), s, self._emblem_age())
        for text, px, pos, color, shadow in lines[:-1]:
            draw_text(surface, text, px, pos, color, anchor="center", shadow=shadow)
        if self.focus.focus < len(self.tiles):
            glow_rect(surface, self._tile_rect(self.focus.focus), FOCUS, max(2, int(3 * s)), int(18 * s))
        for b in self.buttons:
            b.draw(surface, s)
        text, px, pos, color, shadow = lines[-1]
        draw_text(surface, text, px, pos, color, anchor="center", shadow=shadow)


__all__ = ["MenuScene"]
