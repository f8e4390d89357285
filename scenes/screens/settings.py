"""The settings screen: fullscreen or window, animation speed, sound, volume,
card back, which deals, the winnable indicator, the board's evaluation bar, and
what helps players see (four-colour deck, high contrast, reduced motion, text size)."""
from __future__ import annotations

from functools import partial

import pygame

from ..core.actions import Action, InputEvent
from ..core.overlays import FocusButtons
from ..core.scene import Scene
from ..core.ui import (GOLD, INK, INK_DIM, Button, draw_text, felt, for_reading, layout_column, text_scale,
                       touch_target, ui_scale, wrap_text)
from ..store.settings import ANIMATION_SPEEDS, CARD_BACKS, CHOICE_ROWS, seeing_words, step_seeing
from ..store.words import LANGUAGES, SYSTEM, N_, _, language

# The settings' values in words (the store keeps them as English names).
SPEED_WORDS = {"slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast"), "instant": N_("Instant")}
BACK_WORDS = {"blue": N_("Blue"), "red": N_("Red"), "green": N_("Green"), "purple": N_("Purple"),
              "black": N_("Black")}


class SettingsScene(Scene):
    """Fullscreen or window, animation speed, sound, volume, card back, which deals: left/right or click changes."""

    still_until_input = True

    def __init__(self, app) -> None:
        super().__init__(app)
        self.rows = [Button("", self._toggle_fullscreen), Button("", self._next_speed),
                     Button("", self._toggle_sound), Button("", self._change_volume),
                     Button("", self._next_back), Button("", self._toggle_winnable_only),
                     Button("", self._toggle_indicator), Button("", self._toggle_eval_bar),
                     *[Button("", partial(self._step_seeing, c)) for c in CHOICE_ROWS],
                     Button("", self._next_language), Button(N_("Back"), self.back)]
        self.focus = FocusButtons(self.rows)

    def _labels(self) -> None:
        st = self.app.settings
        on_off = {True: _("On"), False: _("Off")}
        self.rows[0].label = _("Display: {value}").format(
            value=_("Full screen") if self.app.fullscreen else _("Window"))
        self.rows[1].label = _("Animation speed: {value}").format(value=_(SPEED_WORDS[st.animation_speed]))
        self.rows[2].label = _("Sound: {value}").format(value=on_off[st.sound])
        self.rows[3].label = _("Volume: {percent} %").format(percent=round(st.volume * 100))
        self.rows[4].label = _("Card back: {value}").format(value=_(BACK_WORDS[st.card_back]))
        self.rows[5].label = _("Deals: {value}").format(
            value=_("Winnable only") if st.winnable_only else _("Any"))
        self.rows[6].label = _("Winnable indicator: {value}").format(value=on_off[st.winnable_indicator])
        self.rows[7].label = _("Board game evaluation bar: {value}").format(value=on_off[st.eval_bar])
        for row, seeing in zip(self.rows[8:], CHOICE_ROWS):
            row.label = seeing_words(st, seeing)
        self.rows[-2].label = _("Language: {value}").format(value=self._language_name(st.language))

    @staticmethod
    def _language_name(code: str) -> str:
        """A language by its own name; the system's choice says which it is now."""
        if code == SYSTEM:
            return _("As the system ({language})").format(language=LANGUAGES.get(language(), language()))
        return LANGUAGES[code]

    def _next_language(self, step: int = 1) -> None:
        """The next language (or "as the system"): every screen speaks it at once."""
        codes = [SYSTEM, *LANGUAGES]
        st = self.app.settings
        st.language = codes[(codes.index(st.language) + step) % len(codes)]
        self.app.options.lang = None         # a --lang given at start gives way to the player's choice
        self.app.save_settings()

    def description(self) -> str:
        """What the focused setting means, in a line under the rows."""
        st = self.app.settings
        lines = [
            N_("Play in a window or fill the screen (F11 switches at any time)."),
            N_("How fast cards and pieces move."),
            N_("Sound effects for moves, refusals, wins and losses."),
            N_("How loud the sound effects are."),
            N_("The pattern on the backs of the cards."),
            N_("Winnable only: every new Camelot and Hamilton deal is one the solver has proved "
               "can be won. Any: every deal, winnable or not.") if st.winnable_only else
            N_("Any: every deal, winnable or not. Winnable only: every new Camelot and Hamilton "
               "deal is one the solver has proved can be won."),
            N_("Camelot and Hamilton say in the top bar whether the game can still be won "
               "(off: no spoilers)."),
            N_("Camelot, the board game: the engine's evaluation of the position in a bar "
               "beside the board."),
            *[seeing.description for seeing in CHOICE_ROWS],
            N_("The language of every screen and of speech (as the system: its preferred language)."),
            N_("Back to where you were."),
        ]
        return _(lines[self.focus.focus])
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
        backs = list(CARD_BACKS)
        st = self.app.settings
        st.card_back = backs[(backs.index(st.card_back) + step) % len(backs)]
        self.app.save_settings()

    def _toggle_winnable_only(self) -> None:
        """Patience deals: any deal, or only deals the solver proved winnable."""
        self.app.settings.winnable_only = not self.app.settings.winnable_only
        self.app.save_settings()

    def _step_seeing(self, seeing, step: int = 1) -> None:
        step_seeing(self.app.settings, seeing, step)
        self.app.save_settings()

    def _toggle_eval_bar(self) -> None:
        self.app.settings.eval_bar = not self.app.settings.eval_bar
        self.app.save_settings()

    def _draw_back_preview(self, surface: pygame.Surface) -> None:
        """The chosen card back, beside its row (left / right shows the others)."""
        row = self.rows[4].rect
        width = max(20, min(int(64 * self.scale), int(row.h * 0.6)))
        key = (self.app.settings.card_back, width)
        if getattr(self, "_preview_key", None) != key:
            self._preview_key = key
            from ..table.card_art import CardArt  # start-up: the cards' art loads after the menu's first frame
            self._preview = CardArt(width, self.app.settings.card_back).back()
        if self.in_columns:              # columns: the back inside its row, at the right
            rect = self._preview.get_rect(midright=(row.right - int(12 * self.scale), row.centery))
        else:
            rect = self._preview.get_rect(midleft=(row.right + int(24 * self.scale), row.centery))
        surface.blit(self._preview, rect)

    def _toggle_indicator(self) -> None:
        """The "winnable?" words in a patience's top bar: a spoiler for some."""
        self.app.settings.winnable_indicator = not self.app.settings.winnable_indicator
        self.app.save_settings()

    def back(self) -> None:
        self.app.scenes.pop()

    def resize(self, size) -> None:
        super().resize(size)
        s = self.scale = ui_scale(size)
        # every row fits, at every text size (the column grows with the text)
        row = min(int(44 * s), int((size[1] * 0.62 / len(self.rows) - 6 * s) / text_scale()))
        touch = touch_target(size)
        # Columns for a finger, or where one column would squeeze the rows' words too small.
        self.in_columns = bool(touch) or row < int(36 * s)
        if self.in_columns:
            self._columns(size, touch or int(44 * s * text_scale()))
            return
        layout_column(self.rows, size[0] // 2, int(size[1] * 0.17), int(520 * s), row, int(6 * s))

    def _columns(self, size, target: int) -> None:
        """The rows in columns (two, or three where two would not fit), each
        row ``target`` tall (as a finger needs, in touch mode); the keys still
        go down the first column, then the next."""
        s = self.scale
        gap = int(6 * s)
        top = int(size[1] * 0.11)               # under a smaller title (draw)
        fit = max(1, (size[1] - top - int(44 * s)) // (target + gap))   # a line of words below
        columns = max(2, -(-len(self.rows) // fit))
        per_column = -(-len(self.rows) // columns)
        width = min(int(560 * s), (size[0] - (columns + 3) * 2 * gap) // columns)
        left = size[0] // 2 - (columns * width + (columns - 1) * 2 * gap) // 2
        for i, row in enumerate(self.rows):
            column, k = divmod(i, per_column)
            row.rect = for_reading(pygame.Rect(left + column * (width + 2 * gap), top + k * (target + gap),
                                               width, target), 0, size[0])    # the first column on the right in Hebrew

    def handle(self, event: InputEvent) -> None:
        a = event.action
        self._labels()      # the rows' words are current when one is said
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
            elif i in (0, 2, 5, 6, 7):
                self.rows[i].action()
            elif 8 <= i < 8 + len(CHOICE_ROWS):
                self._step_seeing(CHOICE_ROWS[i - 8], step)
            elif i == 8 + len(CHOICE_ROWS):
                self._next_language(step)
            self._say_changed()
            return
        self.focus.handle(event)
        if a == Action.SELECT and self.app.scenes.top is self:
            self._say_changed()

    def _say_changed(self) -> None:
        """The focused row's new value, for the announcer."""
        self._labels()
        self.focus.say_focus()

    def draw(self, surface: pygame.Surface) -> None:
        s = self.scale
        self._labels()
        surface.blit(felt(self.size), (0, 0))
        columns = self.in_columns
        draw_text(surface, _("Settings"), (52 if columns else 80) * s,
                  (self.size[0] // 2, int(self.size[1] * (0.055 if columns else 0.1))), GOLD,
                  anchor="center", shadow=True)
        self.focus.draw(surface, s)
        self._draw_back_preview(surface)
        y = max(row.rect.bottom for row in self.rows) + int((12 if columns else 24) * s)
        lines = wrap_text(self.description(), int(24 * s), int((1200 if columns else 720) * s))
        for line in lines[:1] if columns else lines:      # columns: the rows take the room
            draw_text(surface, line, 24 * s, (self.size[0] // 2, y), INK, anchor="midtop")
            y += int(30 * s)
        if not touch_target(self.size):    # keys and pad; a finger taps the rows
            draw_text(surface, _("Left / right or click to change · Escape or B to go back"), 22 * s,
                      (self.size[0] // 2, self.size[1] - int(30 * s)), INK_DIM, anchor="center")


__all__ = ["SettingsScene"]
