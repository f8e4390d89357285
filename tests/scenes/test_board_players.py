"""The board screen's players, each kind on its own: a person at the table (a
whole game played by pointer events through the same table a person uses), a
scripted player, a record's player, a remote seat and the computer. Every wait
on a worker is bounded, and no worker process outlives a test."""
from __future__ import annotations

import random
import time

import pygame

from game.base import Status
from game.camelot.board import START_POSITION, CamelotBoard
from scenes.core.overlays import DialogScene
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.games.camelot_computer import ComputerPlayer
from scenes.table.board_players import Pace, Person, RecordPlayer, RemotePlayer, ScriptedPlayer

from .harness import click, key, make_app, post, settle, step
from .test_camelot_board_scene import WORKER_WAIT, _no_stray_workers  # noqa: F401 (fixture)

GAME_SEED = 4       # captures first, at random: White captures every black piece in 111 plies


def captures_first(seed: int):
    """A chooser: a capture when there is one, else any move, from a seeded generator."""
    rng = random.Random(seed)

    def choose(game):
        moves = game.legal_moves()
        return rng.choice([m for m in moves if m.captured] or moves)
    return choose


def engine_game(seed: int) -> CamelotBoard:
    """The same game played on the engine alone, to compare with."""
    game, choose = CamelotBoard(), captures_first(seed)
    while game.status is Status.PLAYING:
        game.play(choose(game))
    return game


def two_players(speed="instant"):
    app = make_app(speed=speed)
    scene = CamelotBoardScene(app, mode="two")
    app.scenes.reset(scene)
    step(app, 2)
    return app, scene


def test_a_person_plays_a_whole_game_through_the_table_with_the_pointer():
    """Each move: a click on the piece, the pointer onto the target, Tab until
    the chosen path is shown, a click: the table hands the move over and
    the board plays it, to the end of the game."""
    expected = engine_game(GAME_SEED)
    assert expected.status is Status.WON and len(expected.history) == 111
    app, scene = two_players()
    choose, view = captures_first(GAME_SEED), scene.table.view
    while scene.game.status is Status.PLAYING:
        move = choose(scene.game)
        click(app, view.square_centre(move.from_square))
        assert scene.table.selected == move.from_square
        target = view.square_centre(move.to_square)
        post(pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(0, 0, 0))
        step(app)
        for _ in range(len(move.paths) * 4):            # Tab, until our path is shown
            _, alts, index = scene.table.preview()
            if alts[index] == (move, move.path):
                break
            key(app, pygame.K_TAB)
        click(app, target)
        settle(app, scene)
    assert scene.game.history == expected.history
    assert scene.game.status is Status.WON and scene.game.winner == "white"
    step(app, 3)
    assert isinstance(app.scenes.top, DialogScene) and app.scenes.top.title == "White wins!"


def test_scripted_players_play_a_whole_game_on_the_same_table():
    app, scene = two_players()
    choose = captures_first(GAME_SEED)
    scene.players = {color: ScriptedPlayer("Script", choose) for color in ("white", "black")}
    assert scene.plays_itself() and not scene.interactive     # no person picks on the table
    for _ in range(5000):
        if scene.game.status is not Status.PLAYING and not scene.busy:
            break
        step(app)
    assert scene.game.history == engine_game(GAME_SEED).history
    assert scene.table.side_label("white") == "Script"
    step(app, 3)
    assert isinstance(app.scenes.top, DialogScene) and app.scenes.top.title == "White wins!"


def test_a_record_player_plays_its_moves_after_its_pause_and_says_when_it_runs_out():
    ended = []
    game = CamelotBoard()
    player = RecordPlayer("Ann", ("F7-F8", "F10-F9"), pause=1.0, on_end=lambda: ended.append(True))
    pace = Pace(speed=2.0, fresh=False)
    assert player.automatic and player.label() == "Ann"
    assert player.next_move(game, 0.3, pace) is None            # 0.3 s of the 0.5 s pause
    assert player.next_move(game, 0.3, Pace(2.0, False, busy=True)) is None   # the board is busy
    move = player.next_move(game, 0.3, pace)
    assert game.move_text(move) == "F7-F8"
    game.play(move)
    assert player.next_move(game, 0.6, Pace(2.0, fresh=True)) is None     # a fresh game: twice
    game.play(player.next_move(game, 0.6, Pace(2.0, fresh=True)))
    assert game.history == ["F7-F8", "F10-F9"] and not ended
    assert player.next_move(game, 5.0, pace) is None and ended == [True]
    assert player.next_move(game, 5.0, pace) is None and ended == [True]   # said once


def test_a_remote_seat_is_named_by_its_seat_and_never_moves_here():
    seat = {"name": "Bob"}
    remote = RemotePlayer(lambda: seat["name"])
    assert remote.label() == "Bob" and not remote.at_screen and not remote.automatic
    seat["name"] = "Bob · away"
    assert remote.label() == "Bob · away"
    assert remote.next_move(CamelotBoard(), 10.0, Pace(1.0, False)) is None


def test_a_person_chooses_only_when_allowed():
    allowed = [False]
    person = Person("You", may_choose=lambda: allowed[0])
    assert person.at_screen and not person.automatic and not person.may_choose()
    allowed[0] = True
    assert person.may_choose()
    app, scene = two_players()
    scene.players["white"] = Person("You", may_choose=lambda: False)
    assert not scene.interactive                 # the table takes no choice then
    click(app, scene.table.view.square_centre(CamelotBoard().legal_moves()[0].from_square))
    assert scene.table.selected is None and scene.game.history == []


def test_the_computer_answers_for_its_position_and_drops_an_answer_gone_stale():
    toasts = []
    computer = ComputerPlayer("easy", random.Random(1), lambda *a: toasts.append(a))
    game = CamelotBoard(START_POSITION)
    pace = Pace(speed=100.0, fresh=False)
    try:
        assert computer.automatic and computer.thinking and computer.label() == "Computer (easy)"
        assert computer.next_move(game, 0.0, pace) is None          # asked: thinking
        assert computer.worker.requests == 1
        assert computer.next_move(game, 0.0, pace) is None and computer.worker.requests == 1
        end = time.monotonic() + WORKER_WAIT
        move = None
        while move is None and time.monotonic() < end:
            computer.poll(game)
            move = computer.next_move(game, 0.01, pace)
            time.sleep(0.01)
        assert move in game.legal_moves() and not toasts
        game.play(move)
        computer.forget()                      # the game moved on: a new question
        computer.next_move(game, 0.0, pace)
        assert computer.worker.requests == 2
        game.undo()                            # ... and back: its answer would be stale
        end = time.monotonic() + WORKER_WAIT
        while computer.worker.busy and time.monotonic() < end:
            computer.poll(game)
            time.sleep(0.01)
        computer.poll(game)
        assert not computer.worker.busy        # its answer came in, for the other position:
        assert computer.thinking               # dropped
    finally:
        computer.forget()


def test_auto_hands_the_persons_side_to_the_computer_and_back():
    app, scene = two_players(speed="fast")
    assert all(isinstance(p, Person) for p in scene.players.values())
    key(app, pygame.K_a)
    assert scene.autoplay and all(isinstance(p, ComputerPlayer) for p in scene.players.values())
    assert scene.table.side_label("white") == "Player (auto)"
    key(app, pygame.K_a)
    assert not scene.autoplay and all(isinstance(p, Person) for p in scene.players.values())


def test_auto_against_the_computer_keeps_the_computers_own_search_going():
    app = make_app()
    scene = CamelotBoardScene(app, mode="computer", human="black", level="easy")
    app.scenes.reset(scene)
    step(app, 2)
    opponent = scene.players["white"]
    assert isinstance(opponent, ComputerPlayer) and opponent.worker.requests == 1   # it opens
    key(app, pygame.K_a)
    assert scene.players["white"] is opponent and opponent.worker.requests == 1     # not asked anew
    assert scene.table.side_label("black") == "You (auto)"
