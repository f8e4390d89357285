"""The main menu (the four games, demo, settings, quit) and the settings screen."""
from __future__ import annotations

import math

import pygame

from game import GAME_IDS, title

from ..core.actions import Action, InputEvent
from .navigation import has_scene, open_game, open_menu
from ..core.overlays import FocusButtons
from ..core.scene import Scene
from ..table.card_art import BACK_STYLES
from ..store.settings import ANIMATION_SPEEDS
from ..core.ui import (FOCUS, GOLD, INK, INK_DIM, Button, draw_text, felt, glow_rect, layout_row,
                 rounded_panel, ui_scale)

BLURBS = {  # two lines under each game's name
    "camelot-solitaire": ("Pictures to their places,", "tens and pairs away"),
    "hamilton": ("Choose the start card,", "build by colour"),
    "clock": ("Twelve hours, four kings:", "the automatic game"),
    "camelot-board": ("Men and knights,", "canters and charges"),
}


ATTRACT_AFTER = 60.0  # s left alone on the menu before the demos play


class MenuScene(Scene):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.idle = 0.0
        self.tiles = [Button(title(gid), self._starter(gid), enabled=has_scene(gid)) for gid in GAME_IDS]
        self.tile_ids = list(GAME_IDS)
        self.buttons = [Button("Watch a demo", self.demo), Button("How to play", self.help),
                        Button("Statistics", self.statistics), Button("Settings", self.settings),
                        Button("Quit", lambda: self.app.quit())]
        self.focus = FocusButtons(self.tiles + self.buttons)
        last = app.settings.last_game
        if last in self.tile_ids and self.tiles[self.tile_ids.index(last)].enabled:
            self.focus.focus = self.tile_ids.index(last)
        self.age = 0.0

    def enter(self) -> None:
        # Once a launch: a game left in the middle is offered again.
        if getattr(self.app, "_resume_offered", False):
            return
        self.app._resume_offered = True
        from ..store.saves import load_save
        data, message = load_save()
        if message:
            self.app.report(message)
        if data is not None:
            self.offer_resume(data)

    def offer_resume(self, data: dict) -> None:
        from ..core.overlays import DialogScene
        from ..store.saves import clear_save, describe, resume_scene

        def resume():
            self.app.settings.last_game = data["game_id"]
            self.app.save_settings()
            self.app.scenes.reset(resume_scene(self.app, data))

        def discard():
            clear_save()
            self.app.scenes.remove(dialog)

        dialog = DialogScene(self.app, "Welcome back", [
            f"Resume {describe(data)}?", "It was left in the middle when the game was closed."],
            [("Resume", resume), ("Discard", discard)], on_back=discard)
        self.app.scenes.push(dialog)

    def statistics(self) -> None:
        from .statistics import StatsScene
        self.app.scenes.push(StatsScene(self.app, self._chosen_game()))

    def resume(self) -> None:
        self.idle = 0.0

    def _starter(self, game_id: str):
        return lambda: open_game(self.app, game_id)

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
        open_game(self.app, self._chosen_game(), demo=True)

    def help(self) -> None:
        from .help import HelpScene
        self.app.scenes.push(HelpScene(self.app, self._chosen_game()))

    def settings(self) -> None:
        self.app.scenes.push(SettingsScene(self.app))

    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        w, h = size
        n = len(self.tiles)
        gap = int(24 * s)
        tile_w = max(1, int(min(260 * s, (w - gap * (n + 1)) / n)))   # App keeps w ≥ 640; never < 1
        tile_h = int(tile_w * 1.25)
        x = (w - (tile_w * n + gap * (n - 1))) // 2
        top = int(h * 0.30)
        for tile in self.tiles:
            tile.rect = pygame.Rect(x, top, tile_w, tile_h)
            x += tile_w + gap
        layout_row(self.buttons, (w // 2, top + tile_h + int(70 * s)), int(48 * s), int(20 * s),
                   int(24 * s))
        self.tile_panel = rounded_panel((tile_w, tile_h), (12, 40, 28, 215), radius=int(18 * s))

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
            return
        if a == Action.BACK:
            return
        self.focus.handle(event)

    def update(self, dt: float) -> None:
        self.age += dt
        self.idle += dt
        if self.idle >= ATTRACT_AFTER and self.app.scenes.top is self and self.tiles:
            # Attract mode: the demos of all the games in turn; any input
            # returns to the menu (GameScene.handle in demo mode).
            from .navigation import playable_games
            open_game(self.app, playable_games()[0], demo=True, cycle=True)

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        w, h = self.size
        surface.blit(felt(self.size), (0, 0))
        draw_text(surface, "Round Table", 110 * s, (w // 2, int(h * 0.12)), GOLD, anchor="center",
                  shadow=True)
        draw_text(surface, "Four classic games: three patiences and a board game of 1930",
                  28 * s, (w // 2, int(h * 0.12 + 70 * s)), INK_DIM, anchor="center")
        for i, (gid, tile) in enumerate(zip(self.tile_ids, self.tiles)):
            focused = self.focus.focus == i
            lift = int(6 * s) if focused and tile.enabled else 0
            rect = tile.rect.move(0, -lift)
            panel = self.tile_panel
            if not tile.enabled:
                panel = panel.copy()
                panel.set_alpha(120)
            surface.blit(panel, rect)
            self._draw_emblem(surface, gid, pygame.Rect(rect.x, rect.y + int(rect.h * 0.08),
                                                        rect.w, int(rect.h * 0.5)), tile.enabled)
            color = INK if tile.enabled else (130, 140, 135)
            draw_text(surface, tile.label, 30 * s, (rect.centerx, rect.y + int(rect.h * 0.66)),
                      color, anchor="center")
            lines = BLURBS[gid] if tile.enabled else ("Coming soon",)
            for k, line in enumerate(lines):
                draw_text(surface, line, 20 * s, (rect.centerx, rect.y + int(rect.h * (0.77 + 0.08 * k))),
                          INK_DIM if tile.enabled else (110, 120, 115), anchor="center")
            if focused and tile.enabled:
                glow_rect(surface, rect, FOCUS, max(2, int(3 * s)), int(18 * s))
        for k, b in enumerate(self.buttons):
            b.hot = self.focus.focus == len(self.tiles) + k
            b.draw(surface, s)
        draw_text(surface, "Arrows, D-pad or mouse to choose · Enter / A to play · F11 full screen",
                  20 * s, (w // 2, h - int(24 * s)), INK_DIM, anchor="center")

    def _draw_emblem(self, surface, gid: str, rect: pygame.Rect, enabled: bool) -> None:
        """A small picture of each game, drawn with shapes."""
        s = self.scale
        c = rect.center
        ink = (235, 225, 200) if enabled else (110, 120, 115)
        accent = GOLD if enabled else (110, 120, 115)
        r = int(min(rect.w, rect.h) * 0.38)
        width = max(1, int(3 * s))
        if gid == "clock":
            pygame.draw.circle(surface, ink, c, r, width)
            for hour in range(12):
                a = math.radians(hour * 30)
                pygame.draw.circle(surface, accent, (c[0] + int(r * 0.82 * math.sin(a)),
                                                     c[1] - int(r * 0.82 * math.cos(a))), max(2, int(4 * s)))
            t = self.age * 0.5
            pygame.draw.line(surface, ink, c, (c[0] + int(r * 0.6 * math.sin(t)), c[1] - int(r * 0.6 * math.cos(t))), width)
            pygame.draw.line(surface, accent, c, (c[0] + int(r * 0.45 * math.sin(t / 12)),
                                                  c[1] - int(r * 0.45 * math.cos(t / 12))), width + 1)
        elif gid == "camelot-board":
            cell = r * 2 // 6
            x0, y0 = c[0] - cell * 3, c[1] - cell * 3
            for i in range(6):
                for j in range(6):
                    if (i + j) % 2 == 0:
                        pygame.draw.rect(surface, (60, 90, 70) if enabled else (50, 60, 55),
                                         (x0 + i * cell, y0 + j * cell, cell, cell))
            pygame.draw.rect(surface, ink, (x0, y0, cell * 6, cell * 6), width)
            pygame.draw.circle(surface, (230, 230, 220) if enabled else ink, (x0 + int(cell * 1.5), y0 + int(cell * 4.5)), cell // 2)
            pygame.draw.circle(surface, (40, 40, 50), (x0 + int(cell * 4.5), y0 + int(cell * 1.5)), cell // 2)
            pygame.draw.circle(surface, accent, (x0 + int(cell * 4.5), y0 + int(cell * 1.5)), cell // 2, width)
        else:
            cw, ch = int(r * 0.9), int(r * 1.26)
            for k in range(3):
                card = pygame.Rect(0, 0, cw, ch)
                card.center = (c[0] + (k - 1) * int(cw * 0.55), c[1] + abs(k - 1) * int(ch * 0.06))
                face = (245, 242, 232) if enabled else (120, 125, 120)
                pygame.draw.rect(surface, face, card, border_radius=max(3, cw // 10))
                pygame.draw.rect(surface, (60, 60, 60), card, 1, border_radius=max(3, cw // 10))
                pip = (200, 40, 40) if k != 1 else (30, 30, 40)
                if not enabled:
                    pip = (90, 95, 90)
                label = {"camelot-solitaire": "KQJ", "hamilton": "A23"}[gid][k]
                draw_text(surface, label, ch * 0.42, card.center, pip, anchor="center")


class SettingsScene(Scene):
    """Fullscreen or window, animation speed, sound, volume, card back, which deals: left/right or click changes."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.rows = [Button("", self._toggle_fullscreen), Button("", self._next_speed),
                     Button("", self._toggle_sound), Button("", self._change_volume),
                     Button("", self._next_back), Button("", self._toggle_winnable_only),
                     Button("Back", self.back)]
        self.focus = FocusButtons(self.rows)

    def _labels(self) -> None:
        st = self.app.settings
        self.rows[0].label = f"Display: {'Full screen' if self.app.fullscreen else 'Window'}"
        self.rows[1].label = f"Animation speed: {st.animation_speed.capitalize()}"
        self.rows[2].label = f"Sound: {'On' if st.sound else 'Off'}"
        self.rows[3].label = f"Volume: {round(st.volume * 100)} %"
        self.rows[4].label = f"Card back: {st.card_back.capitalize()}"
        self.rows[5].label = f"Deals: {'Winnable only' if st.winnable_only else 'Any'}"

    def _toggle_fullscreen(self) -> None:
        self.app.toggle_fullscreen()

    def _next_speed(self, step: int = 1) -> None:
        speeds = list(ANIMATION_SPEEDS)
        st = self.app.settings
        st.animation_speed = speeds[(speeds.index(st.animation_speed) + step) % len(speeds)]
        self.app.save_settings()

    def _toggle_sound(self) -> None:
        self.app.settings.sound = not self.app.settings.sound
        self.app.sound.set_enabled(self.app.settings.sound)
        self.app.save_settings()

    def _change_volume(self, step: int = 1, wrap: bool = True) -> None:
        """±10 %; a click (or Enter) goes up and wraps from 100 % to 0."""
        st = self.app.settings
        tenths = round(st.volume * 10) + step
        tenths = 0 if wrap and tenths > 10 else max(0, min(10, tenths))
        st.volume = tenths / 10
        self.app.sound.set_volume(st.volume)
        self.app.sound.play("deal")  # hear the new level
        self.app.save_settings()

    def _next_back(self, step: int = 1) -> None:
        backs = list(BACK_STYLES)
        st = self.app.settings
        st.card_back = backs[(backs.index(st.card_back) + step) % len(backs)]
        self.app.save_settings()

    def _toggle_winnable_only(self) -> None:
        """Patience deals: any deal, or only deals the solver proved winnable."""
        self.app.settings.winnable_only = not self.app.settings.winnable_only
        self.app.save_settings()

    def back(self) -> None:
        self.app.scenes.pop()

    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        from ..core.ui import layout_column
        layout_column(self.rows, size[0] // 2, int(size[1] * 0.27), int(520 * s), int(52 * s), int(12 * s))

    def handle(self, event: InputEvent) -> None:
        a = event.action
        if a == Action.BACK:
            self.back()
            return
        if a in (Action.LEFT, Action.RIGHT):
            i = self.focus.focus
            step = 1 if a == Action.RIGHT else -1
            if i == 1:
                self._next_speed(step)
            elif i == 3:
                self._change_volume(step, wrap=False)
            elif i == 4:
                self._next_back(step)
            elif i in (0, 2, 5):
                self.rows[i].action()
            return
        self.focus.handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        self._labels()
        surface.blit(felt(self.size), (0, 0))
        draw_text(surface, "Settings", 80 * s, (self.size[0] // 2, int(self.size[1] * 0.16)), GOLD,
                  anchor="center", shadow=True)
        self.focus.draw(surface, s)
        draw_text(surface, "Left / right or click to change · Escape or B to go back", 22 * s,
                  (self.size[0] // 2, self.size[1] - int(30 * s)), INK_DIM, anchor="center")


__all__ = ["MenuScene", "SettingsScene", "open_menu"]
