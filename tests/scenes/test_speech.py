"""Speech: the announcement stream (``--speech-log``) of games played by
keyboard alone through the real app, headless and with no audio."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygame

from game.base import Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import square_name
from game.camelot_solitaire import CamelotSolitaire
from game.clock import CENTRE, Clock
from game.errors import IllegalMoveError
from scenes.core.announcer import NO_SERVICE, Announcer, SpeechService, one_line
from scenes.core.app import App, AppOptions
from scenes.core.overlays import DialogScene
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
from scenes.screens.navigation import install, open_game, open_menu
from scenes.screens.settings import SettingsScene
from scenes.store.settings import Settings
from scenes.table.board_table import STUCK_WORDS

from .harness import key, pad, settle, step
from .patience_input import focus_to, perform
from .test_camelot_board_scene import CAPTURE, CASTLE_WIN, wait_until
from .test_camelot_board_scene import focus_to as board_focus_to
from .test_camelot_solitaire_scene import WIN_DECK

ROOT = Path(__file__).resolve().parents[2]


def speaking_app(log: Path, size=(1280, 720)) -> App:
    """The real app with announcements on through ``--speech-log``'s option."""
    settings = Settings(fullscreen=False, animation_speed="fast", sound=False)
    app = App(AppOptions(size=size, save_settings=False, speech_log=str(log)), settings=settings)
    install(app)
    return app


def said(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


def spoken_clock(tmp_path, seed: int):
    """A Clock deal open in the speaking app, dealt and settled."""
    log = tmp_path / "speech.log"
    app = speaking_app(log)
    open_game(app, "clock", seed=seed)
    scene = app.scenes.top
    settle(app, scene)
    return log, app, scene


def test_a_whole_clock_game_by_keyboard_is_said(tmp_path):
    log, app, scene = spoken_clock(tmp_path, 3)
    # The focus starts on the middle pile: said with its top card, named.
    top = scene.game.piles()[CENTRE][-1][0]
    assert said(log)[0].startswith(f"The kings' pile in the middle: {top.name}")

    key(app, pygame.K_h)        # a hint is said in words; then the focus, gone to its place
    hinted = scene.game.computer_move()
    assert said(log)[-2] == f"Hint: put the {hinted.card.name} on " + scene.pile_words(hinted.target)
    assert said(log)[-1].lower().startswith(scene.pile_words(hinted.target).lower() + ":")

    expected = Clock(seed=3)
    while scene.game.status is Status.PLAYING:
        move = expected.computer_move()
        key(app, pygame.K_h)                       # the focus goes where the card goes ...
        before = len(said(log))
        key(app, pygame.K_RETURN)                  # ... and Enter plays it there
        settle(app, scene)
        expected.play(move)
        line = said(log)[before]
        assert line.startswith(f"Put the {move.card.name} on ")
        assert scene.pile_words(move.target) in line
        if scene.game.status is Status.PLAYING:            # and the card to play next
            assert said(log)[before + 1] == f"Next: the {scene.game.piles()[CENTRE][-1][0].name}."
    assert scene.game.history == expected.history
    step(app, 200)                                 # a win celebrates before its dialog
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene)
    lines = said(log)
    assert lines[-2].startswith(f"{dialog.title}. ")          # the end of the game, its reason too
    assert lines[-1] == f"{dialog.focus.buttons[0].label}, button"
    key(app, pygame.K_DOWN)                        # the dialog's buttons are said as the focus moves
    assert said(log)[-1] == f"{dialog.focus.buttons[1].label}, button"
    app.close()


def test_f2_and_the_right_stick_read_the_whole_clock(tmp_path):
    log, app, scene = spoken_clock(tmp_path, 5)
    for _ in range(5):
        key(app, pygame.K_RETURN)
        settle(app, scene)
    for read in (lambda: key(app, pygame.K_F2),
                 lambda: pad(app, pygame.CONTROLLER_BUTTON_RIGHTSTICK)):
        before = len(said(log))
        read()
        lines = said(log)[before:]
        piles = scene.game.piles()
        assert lines[:2] == [scene.status_line(), scene.score_line()]
        assert len(lines) == 2 + len(piles) + 1                 # and then the focus again
        assert lines[-1].lower().startswith(scene.pile_words(scene.focus).lower() + ":")
        for line, (pile, cards) in zip(lines[2:], piles.items()):
            assert line.lower().startswith(scene.pile_words(pile).lower() + ":")
            for card, face_up in cards:        # face-up cards by name; face-down ones never
                assert (card.name in line) == face_up, line
            downs = sum(1 for _, up in cards if not up)
            assert (f"{downs} face-down card" in line) == bool(downs)
    # Moving the focus round the clock says each hour as the player sees it.
    key(app, pygame.K_UP)
    first = scene.focus
    assert first != CENTRE
    key(app, pygame.K_RIGHT)
    assert said(log)[-1].lower().startswith(scene.pile_words(scene.focus).lower())
    assert scene.focus != first
    app.close()


def refusal_of(history: list[str], source: str, target: str) -> str:
    """The engine's own reason for refusing the waste card on ``target``,
    after ``history``, as the player reads it."""
    game = CamelotSolitaire(deck=WIN_DECK)
    for text in history:
        game.play(game.parse_move(text))
    try:
        game.play(game.move_between(source, 1, target))
    except IllegalMoveError as exc:
        return str(exc)[:1].upper() + str(exc)[1:]
    raise AssertionError(f"{source} to {target} was legal")


def test_a_whole_camelot_patience_by_keyboard_is_said(tmp_path):
    log = tmp_path / "speech.log"
    app = speaking_app(log)
    scene = CamelotSolitaireScene(app, seed=0, game=CamelotSolitaire(deck=WIN_DECK))
    app.scenes.reset(scene)
    settle(app, scene)
    game = scene.game
    perform(app, scene, scene.game.computer_move(), "keys")     # the stock turned: a king in hand
    settle(app, scene)

    # A refusal, with the engine's reason: the king onto a cell that is no
    # corner; the walk there says the cell the focus reaches.
    legal = {getattr(m, "target", None) for m in scene.game.legal_moves()}
    wrong = next(p for p in scene.table.slots if p.startswith("cell:") and p not in legal)
    focus_to(app, scene, wrong)
    name = scene.pile_words(wrong)
    assert said(log)[-1].startswith(f"{name[:1].upper()}{name[1:]}: empty")
    reason = refusal_of(scene.game.history, "waste", wrong)
    key(app, pygame.K_RETURN)
    assert said(log)[-1] == reason and len(scene.game.history) == 1

    moves = 0
    while scene.game.status is Status.PLAYING:
        move = scene.game.computer_move()
        words = scene.move_words(move)
        before = len(said(log))
        perform(app, scene, move, "keys")
        settle(app, scene)
        moves += 1
        assert words[:1].upper() + words[1:] + "." in said(log)[before:], words
        if game.move_text(move) == "t":                   # the card turned up is said
            assert f"In hand: the {scene.game.waste.name}." in said(log)[before:]
    assert scene.game.status is Status.WON and moves > 20
    step(app, 200)
    assert said(log)[-2].startswith("You won! ")
    app.close()


def test_menu_focus_says_each_button(tmp_path):
    log = tmp_path / "speech.log"
    app = speaking_app(log)
    open_menu(app)
    step(app, 3)
    menu = app.scenes.top
    buttons = menu.focus.buttons
    for k in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_RIGHT, pygame.K_UP):
        before = menu.focus.focus
        key(app, k)
        assert menu.focus.focus != before
        assert said(log)[-1] == f"{buttons[menu.focus.focus].label}, button"
    app.close()


def test_announcements_are_off_by_default_and_on_with_the_setting(tmp_path):
    heard: list[str] = []
    settings = Settings()
    assert settings.speech is False
    announcer = Announcer(lambda: settings.speech,
                          find_service=lambda: SpeechService(heard.append, "test"))
    announcer.say("not said")
    settings.speech = True
    announcer.say("said\nonce")
    for _ in range(200):
        if heard:
            break
        time.sleep(0.01)
    assert heard == ["said once"] and announcer.note is None
    assert Settings.from_json(settings.to_json()).speech is True


def test_no_speech_service_is_one_line_then_silence(tmp_path, capsys):
    announcer = Announcer(lambda: True, find_service=lambda: None)
    announcer.say("first")
    announcer.say("second")
    assert announcer.note == NO_SERVICE
    assert capsys.readouterr().err.count(NO_SERVICE) == 1


def test_speaking_never_waits_for_the_voice():
    release = threading.Event()
    service = SpeechService(lambda text: release.wait(5), "slow")
    start = time.perf_counter()
    for n in range(50):
        service.say(f"line {n}")
    took = time.perf_counter() - start
    release.set()
    assert took < 0.5        # a voice that takes seconds holds up no frame


def test_a_log_that_cannot_be_opened_is_one_line_not_a_crash(tmp_path, capsys):
    announcer = Announcer(log_path=str(tmp_path / "no such folder" / "said.log"))
    announcer.say("nothing lost")
    assert announcer.log is None and "cannot write" in announcer.note
    assert capsys.readouterr().err.count("roundtable: speech: cannot write") == 1


def test_one_line_each():
    assert one_line("  a\n b\t c ") == "a b c"


def test_speech_log_from_the_command_line(tmp_path):
    log = tmp_path / "said.log"
    log.write_text("earlier\n", encoding="utf-8")     # appended to, never overwritten
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "ROUNDTABLE_HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "main.py", "--game", "clock", "--seed", "3", "--frames", "30",
                          "--size", "1280x720", "--speech-log", str(log)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = said(log)
    assert lines[0] == "earlier"
    top = Clock(seed=3).piles()[CENTRE][-1][0]
    assert lines[1].startswith(f"The kings' pile in the middle: {top.name}")
    bad = subprocess.run([sys.executable, "main.py", "--speech-log", str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--speech-log" in bad.stderr and len(bad.stderr.splitlines()) == 1


# --- the board game ---------------------------------------------------------------------------
def spoken_board(tmp_path, position=None, **kw):
    log = tmp_path / "speech.log"
    app = speaking_app(log)
    scene = CamelotBoardScene(app, game=CamelotBoard(position) if position else None, **kw)
    app.scenes.reset(scene)
    step(app, 2)
    return log, app, scene


def test_a_board_game_against_the_computer_by_keyboard_is_said(tmp_path):
    log, app, scene = spoken_board(tmp_path, mode="computer", human="white", level="easy")
    board_focus_to(app, scene, "F7")
    assert said(log)[-1] == "F7: white man"
    key(app, pygame.K_RETURN)
    assert said(log)[-1] == "F7: white man, picked up"
    board_focus_to(app, scene, "F8")
    assert said(log)[-1] == "F8: empty; holding F7: white man"
    key(app, pygame.K_RETURN)
    you, computer = scene.side_label("white"), scene.side_label("black")
    assert said(log)[-3:] == [f"{you} played F7-F8.", f"{computer} to move.", "F8: white man"]
    wait_until(app, lambda: len(scene.game.history) == 2)
    reply = scene.game.history[1]
    assert said(log)[-2:] == [f"{computer} played {reply}.", f"{you} to move."]   # the opponent's too

    settle(app, scene)                        # the reply has landed: our turn
    key(app, pygame.K_h)                      # a hint, from the worker, in notation
    wait_until(app, lambda: scene.table.hint_move is not None)
    hint = scene.table.hint_move
    assert f"Hint: {hint}" in said(log) and hint in scene.game.legal_moves()
    before = len(said(log))
    key(app, pygame.K_F2)                     # the whole position: whose move, then each side
    lines = said(log)[before:]
    assert lines[0] == scene.status_line()
    pieces = scene.game.pieces()
    for color, line in zip(("white", "black"), lines[1:3]):
        assert line.startswith(f"{scene.side_label(color)} ({color}): ")
        for sq, piece in pieces.items():
            assert (f" {square_name(sq).upper()}" in line) == (piece.color == color), (sq, line)
    app.close()


def test_a_refused_piece_and_the_end_of_a_board_game_are_said(tmp_path):
    log, app, scene = spoken_board(tmp_path, position=CAPTURE, mode="two")
    stuck = next(sq for sq, p in scene.game.pieces().items()
                 if p.color == "white" and scene.game.why_piece_cannot_move(sq) is not None)
    board_focus_to(app, scene, square_name(stuck))
    key(app, pygame.K_RETURN)
    assert said(log)[-1] == STUCK_WORDS[scene.game.why_piece_cannot_move(stuck).code]
    app.close()

    (tmp_path / "won").mkdir()
    log, app, scene = spoken_board(tmp_path / "won", position=CASTLE_WIN, mode="two")
    for name in ("G15", "G16"):
        board_focus_to(app, scene, name)
        key(app, pygame.K_RETURN)
    settle(app, scene)
    step(app, 3)
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and scene.game.status is Status.WON
    assert any(line.startswith(f"{dialog.title} ") for line in said(log)[-3:])
    app.close()


def test_hamilton_reads_every_pile_and_says_the_focus(tmp_path):
    log = tmp_path / "speech.log"
    app = speaking_app(log)
    open_game(app, "hamilton", seed=7)
    scene = app.scenes.top
    settle(app, scene)
    key(app, pygame.K_RIGHT)
    name = scene.pile_words(scene.focus)
    assert said(log)[-1].startswith(f"{name[:1].upper()}{name[1:]}: ")
    before = len(said(log))
    key(app, pygame.K_F2)
    lines = said(log)[before:]
    # the status line's solver words may change from one frame to the next: its head
    assert lines[0].split(" · ")[0] == one_line(scene.status_line()).split(" · ")[0]
    assert lines[1] == one_line(scene.score_line())
    for line, pile in zip(lines[2:], scene.table.slots):
        assert line.lower().startswith(scene.pile_words(pile).lower() + ":")
        for card, face_up in scene.game.piles()[pile]:
            assert (card.name in line) == face_up, line
    assert len(lines) == 2 + len(scene.table.slots) + 1
    app.close()


def test_the_speech_setting_by_keyboard_says_its_new_value(tmp_path):
    log = tmp_path / "speech.log"
    app = speaking_app(log)
    app.scenes.reset(SettingsScene(app))
    step(app, 2)
    screen = app.scenes.top
    row = next(i for i, b in enumerate(screen.rows) if b.label.startswith("Speech:"))
    while screen.focus.focus != row:
        key(app, pygame.K_DOWN)
        assert said(log)[-1] == f"{screen.rows[screen.focus.focus].label}, button"
    key(app, pygame.K_RIGHT)
    assert app.settings.speech is True and said(log)[-1] == "Speech: On, button"
    app.close()
