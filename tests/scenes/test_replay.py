"""Kept game records and the replay screen (issue 12, item 3).

A board game finished in the app is kept as a record; that file replays through
``python -m game play camelot-board --record`` to the same final position; the
replay screen steps and jumps when driven by keys, gamepad and mouse; a bad
record file is one line. Every wait on a worker is bounded."""
import datetime
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.camelot import record as camelot_record
from game.base import Status
from game.camelot.board import CamelotBoard
from scenes.core.overlays import DialogScene
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.launcher import main as launcher_main
from scenes.screens.navigation import open_menu
from scenes.screens.replay import ReplayScene
from scenes.screens.replay_list import ReplayListScene, open_replay
from scenes.store import records
from scenes.work import analysis, service

from .harness import click, key, make_app, pad, settle, step

ROOT = Path(__file__).resolve().parents[2]
# White holds F16 (Black's castle) and can step G15-G16: a castle win.
CASTLE_WIN = "N1/4M3/10/12/12/12/12/12/12/12/5m6/12/12/1M8/8/2 w 2 2"
ANALYSIS_WAIT = 30.0     # s: a loaded machine; a hang fails, never blocks


@pytest.fixture(autouse=True)
def _no_stray_workers():
    yield
    service.shutdown()


def kept_files():
    return sorted(records.records_dir().glob("*" + records.SUFFIX))


def replay_through_cli(path) -> dict:
    out = subprocess.run([sys.executable, "-m", "game", "play", "camelot-board", "--record",
                          str(path), "--json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# --- a finished game is kept, and replays through the CLI -------------------------------
def test_a_game_won_by_clicks_is_kept_and_replays_to_the_same_position():
    app = make_app()
    scene = CamelotBoardScene(app, game=CamelotBoard(CASTLE_WIN), mode="two")
    app.scenes.reset(scene)
    step(app, 2)
    click(app, scene.view.square_centre(_sq("G15")))
    click(app, scene.view.square_centre(_sq("G16")))
    settle(app, scene)
    step(app, 3)
    assert scene.game.status is Status.WON
    [path] = kept_files()
    record = camelot_record.read(path)
    assert record.tag("Event") == "Round Table"
    assert (record.tag("White"), record.tag("Black")) == ("Player 1", "Player 2")
    assert record.result == "1-0" and record.moves == ("G15-G16",)
    assert record.tag("Position") == CASTLE_WIN
    assert replay_through_cli(path)["position"] == scene.game.position_text()
    # the game-over dialog offers its replay, which opens over the board
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene)
    labels = [b.label for b in dialog.focus.buttons]
    dialog.focus.buttons[labels.index("Replay this game")].action()
    step(app, 2)
    assert isinstance(app.scenes.top, ReplayScene)
    assert app.scenes.top.record == record


def _sq(name):
    from game.camelot.moves import parse_square
    return parse_square(name)


def test_a_whole_game_from_the_start_is_kept_once():
    """A game from the usual start, played through the scene until it ends (a
    seeded random game that prefers captures ends in 52 plies), kept, and
    replayed by the CLI to the same position."""
    app = make_app(speed="instant")
    scene = CamelotBoardScene(app, mode="two")
    app.scenes.reset(scene)
    step(app, 2)
    rng = random.Random(6)
    for _ in range(400):
        if scene.game.status is not Status.PLAYING:
            break
        moves = scene.game.legal_moves()
        captures = [m for m in moves if m.captured]
        scene.play(rng.choice(captures or moves))
        settle(app, scene)
    step(app, 3)
    assert scene.game.status is not Status.PLAYING
    [path] = kept_files()
    record = camelot_record.read(path)
    assert record.tag("Position") is None and len(record.moves) == len(scene.game.history) > 20
    assert record.result == camelot_record.result_of(scene.game)
    assert replay_through_cli(path)["position"] == scene.game.position_text()
    scene.show_game_over()          # the same ending shown again keeps no second copy
    assert len(kept_files()) == 1


def test_the_players_are_named_as_the_game_had_them():
    from types import SimpleNamespace
    from scenes.games.camelot_keeping import player_names
    assert player_names(SimpleNamespace(mode="computer", human="black", level="hard")) == \
        {"white": "Computer (hard)", "black": "You"}
    assert player_names(SimpleNamespace(mode="two", human="white", level="easy")) == \
        {"white": "Player 1", "black": "Player 2"}


# --- the records folder --------------------------------------------------------------------
def _record(moves=("F7-F8", "F11-F9"), white="You"):
    game = CamelotBoard()
    for m in moves:
        game.play(m)
    return camelot_record.from_game(game, Event="Round Table", White=white, Black="Player 2")


def test_records_are_named_by_time_listed_newest_first_and_bounded(tmp_path):
    folder = tmp_path / "records"
    t = datetime.datetime(2026, 11, 25, 1, 2, 3)
    paths = [records.keep_record(_record(white=f"P{i}"), folder, t + datetime.timedelta(minutes=i))[0]
             for i in range(3)]
    again, problem = records.keep_record(_record(white="same second"), folder, t)
    assert problem is None and again.name == "2026-11-25_010203-2.camelot"
    assert paths[0].name == "2026-11-25_010203.camelot"
    kept, problems = records.list_records(folder)
    assert problems == []
    assert [k.record.tag("White") for k in kept] == ["P2", "P1", "same second", "P0"]
    assert kept[0].when == "2026-11-25 01:04"
    assert records.prune(folder, keep=2) == 2
    assert [k.record.tag("White") for k in records.list_records(folder)[0]] == ["P2", "P1"]


def test_a_bad_file_is_skipped_with_one_line_and_a_device_is_never_written(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "2026-11-25_010000.camelot").write_text("not a record\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # a link named like a record, to a FIFO: listing skips it, keeping writes beside it
    os.symlink(fifo, folder / "2026-11-25_020000.camelot")
    kept, problems = records.list_records(folder)
    assert kept == [] and len(problems) == 1
    assert problems[0].startswith("Skipped 2026-11-25_010000.camelot: ") and "\n" not in problems[0]
    path, problem = records.keep_record(_record(), folder, datetime.datetime(2026, 11, 25, 2, 0, 0))
    assert problem is None and path.name == "2026-11-25_020000-2.camelot"
    assert os.path.islink(folder / "2026-11-25_020000.camelot") and not os.path.isfile(fifo)
    # the records folder is a file: nothing written, one line
    blocked = tmp_path / "blocked"
    blocked.write_text("x")
    path, problem = records.keep_record(_record(), blocked)
    assert path is None and problem.startswith("The game was not kept: ")
    assert blocked.read_text() == "x"


# --- the replay screen -----------------------------------------------------------------------
# ply 4 (F9xD7xD9) takes two men; ply 8 canters and jumps
MOVES = ("F7-E8", "E10-F9", "D7-D8", "F9xD7xD9", "H6-H5", "D9-E9", "H5-G4", "D10-F8xH6xH8",
         "I7xG9", "H10xF8")


def _open(tmp_path, size=(1280, 720), moves=MOVES, name="game.camelot"):
    path = tmp_path / name
    camelot_record.write(_record(moves), path)
    app = make_app(size)
    open_menu(app)
    step(app, 2)
    open_replay(app, path)
    step(app, 2)
    scene = app.scenes.top
    assert isinstance(scene, ReplayScene)
    return app, scene


def _at(scene, ply):
    assert scene.ply == ply
    assert scene.shown == scene.record.to_game(ply).pieces()


def test_replay_steps_forward_with_the_path_and_back(tmp_path):
    app, scene = _open(tmp_path)
    _at(scene, 0)
    key(app, pygame.K_RIGHT)
    assert scene.busy and scene.travel.path == scene.game.last_move.path   # it travels
    settle(app, scene)
    _at(scene, 1)
    key(app, pygame.K_RIGHT)
    settle(app, scene)
    key(app, pygame.K_LEFT)
    settle(app, scene)                            # back travels too (see below)
    _at(scene, 1)
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)
    settle(app, scene)
    _at(scene, 2)
    pad(app, pygame.CONTROLLER_BUTTON_Y)          # the gamepad's undo: one back
    settle(app, scene)
    _at(scene, 1)
    # a capture: the jumped piece goes as the mover passes
    scene.jump(3)
    key(app, pygame.K_RIGHT)
    assert scene.travel.captured == frozenset(scene.game.last_move.captures) and \
        len(scene.travel.captured) == 2
    settle(app, scene)
    _at(scene, 4)
    assert len(scene.shown) == len(scene.record.to_game(3).pieces()) - 2


def test_a_step_back_travels_the_path_in_reverse_and_the_captured_come_back(tmp_path):
    """Situation: the replay after move 4, a double capture (the position after move 3
    had two more pieces). Action: step back one move. Expected: not at once — the mover
    is lifted from where the move ended and travels the same squares in reverse; each
    captured piece comes back (fading in, then at rest) only once the mover has passed
    over it again; at the end the position after move 3, and the move before lit."""
    app, scene = _open(tmp_path)
    scene.jump(4)
    step(app, 2)
    move = scene.game.last_move
    after, before = scene.game.pieces(), scene.record.to_game(3).pieces()
    captured = sorted(move.captures)
    key(app, pygame.K_LEFT)
    assert scene.ply == 3 and scene.busy
    travel = scene.travel
    assert travel.path == tuple(reversed(move.path)) and travel.piece == after[move.path[-1]]
    lifted = {sq: piece for sq, piece in after.items() if sq != move.path[-1]}
    assert scene.shown == lifted                  # the mover is in the air; nobody is back yet
    seen_back = []
    for _ in range(600):
        if not scene.busy:
            break
        step(app)
        if scene.travel is not None and scene.travel.moving:
            assert move.path[-1] not in scene.shown or move.path[-1] == move.path[0]
        back = [sq for sq in captured if sq in scene.shown
                or any(c[1] == sq for c in scene.appearing)]
        if back != (seen_back[-1] if seen_back else []):
            seen_back.append(back)
    assert not scene.busy
    # one by one, the last captured first (the mover goes back over it first)
    order = [step.captured for step in reversed(move.steps) if step.captured is not None]
    assert seen_back == [sorted(order[:n]) for n in range(1, len(order) + 1)]
    _at(scene, 3)
    assert scene.shown == before
    assert scene.last_move[0] == scene.record.to_game(3).last_move.path
    # a jump stays at once
    scene.jump(1)
    assert not scene.busy
    _at(scene, 1)


def test_replay_jumps_by_home_end_buttons_and_a_click_in_the_move_list(tmp_path):
    app, scene = _open(tmp_path)
    key(app, pygame.K_END)
    _at(scene, len(MOVES))
    key(app, pygame.K_HOME)
    _at(scene, 0)
    step(app, 2)
    cell = next(rect for rect, ply in scene._move_rects if ply == 6)
    click(app, cell.center)
    _at(scene, 6)
    button = next(b for b in scene.toolbar.buttons if b.label == "|<")
    click(app, button.rect.center)
    _at(scene, 0)
    button = next(b for b in scene.toolbar.buttons if b.label == ">")
    click(app, button.rect.center)
    settle(app, scene)
    _at(scene, 1)
    key(app, pygame.K_ESCAPE)                      # back to the menu it was opened over
    assert not isinstance(app.scenes.top, ReplayScene)


def test_replay_shows_the_engines_view_of_each_position(tmp_path):
    app, scene = _open(tmp_path)
    scene.jump(3)
    answer = scene.analyst.wait(ANALYSIS_WAIT)
    step(app, 2)
    assert answer is not None and scene.analysis == answer
    assert answer["depth"] >= 1 and not answer["static"]
    board = scene.record.to_game(3)
    board.parse_move(answer["move"])            # a legal move of this position
    assert answer["pv"][0] == answer["move"]
    assert any(k[1] == "evalbar" for k in scene._items)
    assert any(k[1] == "path" for k in scene._items)    # the best move drawn


def test_a_finished_position_gets_the_static_evaluation_labelled_so():
    from scenes.table.board_analysis import score_words
    game = CamelotBoard(CASTLE_WIN)
    game.play("G15-G16")                      # White's second piece in the castle: over
    answer = analysis.analyse({"position": game.position_text()})
    assert answer["static"] and answer["depth"] == 0 and answer["move"] is None
    assert isinstance(answer["white_score"], int)
    assert score_words(answer).startswith("Static evaluation (no search): ")
    searched = analysis.analyse({"position": CASTLE_WIN, "depth": 2})
    assert not searched["static"] and searched["move"] == "G15-G16"
    assert score_words(searched) == "Engine: White wins by force in 1"


def test_the_list_of_kept_games_opens_one(tmp_path):
    folder = records.records_dir()
    records.keep_record(_record(white="Older"), folder, datetime.datetime(2026, 1, 1, 10, 0, 0))
    records.keep_record(_record(white="Newer"), folder, datetime.datetime(2026, 1, 2, 10, 0, 0))
    (folder / "2026-01-03_100000.camelot").write_text("[Event \"x\"]\n\n1.Z9-Z8 *\n")
    app = make_app()
    open_menu(app)
    step(app, 2)
    menu = app.scenes.top
    next(b for b in menu.buttons if b.label == "Replay a game").action()
    step(app, 2)
    listing = app.scenes.top
    assert isinstance(listing, ReplayListScene)
    assert [k.record.tag("White") for k in listing.kept] == ["Newer", "Older"]
    assert any("Skipped 2026-01-03_100000.camelot" in t[0] for t in app._toasts)
    for _ in listing.famous:          # the shipped famous games come first
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert isinstance(app.scenes.top, ReplayScene)
    assert app.scenes.top.record.tag("White") == "Newer"


# --- bad record files: one line ---------------------------------------------------------------
def test_bad_record_files_are_one_line_from_the_command_line(tmp_path, capsys):
    illegal = tmp_path / "illegal.camelot"
    illegal.write_text('[Event "x"]\n\n1.F7-F8 F11-F9 2.F8-F12 *\n')
    garbage = tmp_path / "garbage.camelot"
    garbage.write_bytes(b"\xff\xfe\x00junk")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target, words in [(illegal, "move 2. F8-F12"), (garbage, "not a game record"),
                          (fifo, "not a regular file"), (tmp_path / "missing", "cannot read"),
                          (tmp_path, "not a regular file")]:
        assert launcher_main(["--record", str(target)]) == 2
        _, err = capsys.readouterr()
        assert err.startswith("roundtable: error: --record") and words in err, err
        assert err.count("\n") == 1
    assert launcher_main(["--record", str(illegal), "--game", "clock"]) == 2
    assert "does not go with" in capsys.readouterr().err


def test_a_bad_record_opened_in_the_app_is_one_line_and_opens_nothing(tmp_path):
    bad = tmp_path / "bad.camelot"
    bad.write_text("[Result \"2-0\"]\n")
    app = make_app()
    open_menu(app)
    step(app, 2)
    top = app.scenes.top
    open_replay(app, bad)
    assert app.scenes.top is top
    [(text, _)] = app._toasts
    assert "Result" in text and "\n" not in text


# --- analysis in play (item 4) -----------------------------------------------------------------
def _wait(app, condition, seconds=ANALYSIS_WAIT):
    import time
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out waiting for the analysis"
        step(app)
        time.sleep(0.002)


def test_the_hint_draws_the_best_move_and_the_expected_reply():
    app = make_app()
    scene = CamelotBoardScene(app, mode="two")
    app.scenes.reset(scene)
    step(app, 2)
    key(app, pygame.K_h)
    _wait(app, lambda: scene.hint_move is not None)
    step(app, 2)
    answer = scene.analysis
    assert scene.hint_move == scene.game.parse_move(answer["move"])
    after = CamelotBoard(scene.game.position_text())
    after.play(scene.hint_move)
    reply = after.parse_move(answer["pv"][1])
    assert scene.hint_reply[1] == reply.path
    paths = [k for k in scene._items if k[1] == "path"]
    assert {k[2] for k in paths} == {scene.hint_move.path, reply.path}
    assert any("expected reply " + answer["pv"][1] in t[0] for t in app._toasts)
    assert not any(k[1] == "evalbar" for k in scene._items)    # the bar is off by default


def test_the_evaluation_bar_follows_the_game_when_the_setting_is_on():
    app = make_app()
    app.settings.eval_bar = True
    scene = CamelotBoardScene(app, game=CamelotBoard(CASTLE_WIN), mode="two")
    app.scenes.reset(scene)
    step(app, 2)
    _wait(app, lambda: any(k[1] == "evalbar" for k in scene._items))
    bar = next(k for k in scene._items if k[1] == "evalbar")
    assert bar[2] == 100                     # White wins by force: the bar is all White's
    assert scene.view.bar_rect().right <= scene.view.panel_rect.left
    assert scene.view.bar_rect().left >= scene.view.board_rect.right


def test_a_record_that_opens_with_black_lines_its_moves_up_under_black(tmp_path):
    """The Position tag has Black to move: the list starts ``1. …  F10-G9`` and a
    click on a move still jumps to that move."""
    start = "2/8/10/12/12/2nmmmmmmn2/3nmmmmn3/12/12/3NMMMMN3/2NMMMMMMN2/12/12/10/8/2 b 2 2"
    game = CamelotBoard(start)
    for move in ("F10-G9", "F7-H5-J7-J5", "J11-K12", "H7-J7", "H11-I12"):
        game.play(move)
    path = tmp_path / "black.camelot"
    camelot_record.write(camelot_record.from_game(game, White="A", Black="B"), path)
    app = make_app()
    open_menu(app)
    open_replay(app, path)
    step(app, 2)
    scene = app.scenes.top
    assert scene.record.tag("Position") == start
    cells = dict((ply, rect) for rect, ply in scene._move_rects)
    assert cells[1].x > cells[2].x and cells[1].y < cells[2].y   # Black's column, first row
    click(app, cells[4].center)
    _at(scene, 4)
    assert scene.game.position_text() == camelot_record.read(path).to_game(4).position_text()


def test_a_kept_game_opened_by_its_path_is_titled_by_when_it_ended(tmp_path):
    path, _ = records.keep_record(_record(), when=datetime.datetime(2026, 11, 25, 1, 45, 2))
    app = make_app()
    open_menu(app)
    open_replay(app, path)
    assert app.scenes.top.name == "2026-11-25 01:45"


def test_a_temporary_file_left_by_a_killed_write_goes_at_the_next_keep(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    stale = folder / ".record-abc123.tmp"
    stale.write_text("half a rec")
    old = os.path.getmtime(stale) - 3600
    os.utime(stale, (old, old))
    path, problem = records.keep_record(_record(), folder)
    assert problem is None and path.exists() and not stale.exists()


def test_the_analysis_worker_killed_is_replaced_and_the_question_asked_again():
    import signal
    analyst = analysis.Analyst()
    analyst.ask(CASTLE_WIN)
    assert analyst.wait(ANALYSIS_WAIT)["move"] == "G15-G16"
    pid = service.work_service().worker_pids()[0]
    os.kill(pid, signal.SIGKILL)
    start = CamelotBoard().position_text()
    analyst.ask(start)        # the pool may or may not have seen its worker die yet
    answer = None
    for _ in range(3):        # wait() returns when the first (broken) answer is in
        answer = analyst.wait(ANALYSIS_WAIT)
        if answer is not None:
            break
    assert answer is not None and analyst.position == start and answer["move"] is not None
    assert service.work_service().worker_pids() and pid not in service.work_service().worker_pids()


def test_a_record_saved_beside_ours_by_online_play_is_listed_and_never_pruned(tmp_path):
    folder = tmp_path / "records"
    records.keep_record(_record(white="Ours"), folder, datetime.datetime(2020, 1, 1, 0, 0, 0))
    online = folder / "camelot-online-7.txt"
    camelot_record.write(_record(white="Online"), online)
    (folder / "notes.md").write_text("not a record, not listed")
    kept, problems = records.list_records(folder)
    assert [k.record.tag("White") for k in kept] == ["Online", "Ours"] and problems == []
    assert kept[0].when == kept[0].record.tag("Date").replace(".", "-")
    assert records.prune(folder, keep=0) == 1 and online.exists()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_long_file_name_in_the_heading_stops_before_the_status_line(tmp_path, size):
    app, scene = _open(tmp_path, size, name="a-record-with-a-long-name-from-a-tournament-" * 2
                       + ".camelot")
    texts = scene._hud_texts()
    heading, centre = scene._texts_rect(texts["left"]), scene._texts_rect(texts["centre"])
    assert texts["left"][0][0].startswith("Replay · a-record") and texts["left"][0][0].endswith("…")
    assert heading.right <= centre.left
