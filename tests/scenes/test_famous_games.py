"""Famous games (issue 12, item 3): records of games people played, shipped in
``data/famous-games/``, listed on the Replay screen and replayed by the board
game's demo.

Every shipped record must replay legally to its stated result (a bad file
fails here, one test per file); the published openings kept as test data
(``tests/data/famous-openings/``) must be legal too, which checks that our
engine reads the WCF notation real games were written in."""
import datetime
from pathlib import Path

import pygame
import pytest

from game.camelot import record as camelot_record
from game.base import Status
from scenes.games.camelot_board_scene import CamelotBoardScene
from scenes.screens.navigation import open_game, open_menu
from scenes.screens.replay import ReplayScene
from scenes.table.board_players import RecordPlayer
from scenes.screens.replay_list import ReplayListScene
from scenes.store import famous, records
from scenes.work import service

from .harness import click, key, make_app, step

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(famous.FAMOUS_DIR.glob("*" + famous.SUFFIX))
REQUIRED_TAGS = ("Event", "Date", "White", "Black", "Result", "Source")
# White holds F16 (Black's castle) and steps G15-G16: a castle win in one move.
CASTLE_WIN = "N1/4M3/10/12/12/12/12/12/12/12/5m6/12/12/1M8/8/2 w 2 2"


@pytest.fixture(autouse=True)
def _no_stray_workers():
    yield
    service.shutdown()


def check_record(path: Path) -> camelot_record.GameRecord:
    """The file reads, names its game and source, and replays move by move to
    the result it states (IllegalMoveError names a move the rules refuse)."""
    record = camelot_record.read(path)
    for name in REQUIRED_TAGS:
        assert record.tag(name) not in (None, "", "?"), f"{path.name}: no {name} tag"
    assert record.tag("Source").startswith(("http://", "https://")), path.name
    game = record.to_game()
    assert camelot_record.result_of(game) == record.result, \
        f"{path.name}: the moves end in {camelot_record.result_of(game)}, the record says " \
        f"{record.result}"
    return record


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_famous_game_replays_to_its_stated_result(path):
    record = check_record(path)
    # a whole game, or an opening long enough to be worth following (Result "*")
    assert record.result != "*" or len(record.moves) >= 20, f"{path.name}: too short an opening"
    assert record.moves, path.name


def test_the_famous_games_folder_is_there_with_its_note():
    assert (famous.FAMOUS_DIR / "README.md").is_file()
    games, problems = famous.list_famous()
    assert problems == [] and [g.path for g in games] == SHIPPED



def test_the_check_fails_a_record_whose_moves_do_not_reach_its_result(tmp_path):
    bad = tmp_path / "bad.camelot"
    bad.write_text(f'[Event "x"]\n[Date "2009.01.01"]\n[White "A"]\n[Black "B"]\n'
                   f'[Result "0-1"]\n[Position "{CASTLE_WIN}"]\n[Source "https://example.org/"]\n'
                   f'\n1.G15-G16 0-1\n')
    with pytest.raises(AssertionError, match="the moves end in 1-0"):
        check_record(bad)
    illegal = tmp_path / "illegal.camelot"
    illegal.write_text(bad.read_text().replace("G15-G16 0-1", "G15-G13 *")
                       .replace('"0-1"', '"*"'))
    with pytest.raises(ValueError, match="G15-G13"):
        check_record(illegal)


def test_a_listing_skips_a_bad_file_and_sorts_by_date(tmp_path):
    for name in ("b.camelot", "a.camelot"):
        (tmp_path / name).write_text(SHIPPED[0].read_text())
    later = SHIPPED[-1].read_text()
    (tmp_path / "0-later.camelot").write_text(later)
    (tmp_path / "broken.camelot").write_text("[Result \"2-0\"]\n")
    games, problems = famous.list_famous(tmp_path)
    assert [g.path.name for g in games] == ["a.camelot", "b.camelot", "0-later.camelot"]
    assert len(problems) == 1 and "broken.camelot" in problems[0] and "\n" not in problems[0]
    first = games[0]
    assert first.players == "Dan Troyka – Michael Nolan" and first.date == "2009-02-07"
    assert first.event == "WCF Camelot World Championship Match, game 1"


# --- the Replay screen lists them ----------------------------------------------------------
def test_the_replay_list_shows_famous_games_beside_kept_ones_and_opens_them(monkeypatch):
    records.keep_record(_castle_record("Ann"), records.records_dir(),
                        datetime.datetime(2026, 1, 2, 10, 0, 0))
    app = make_app()
    open_menu(app)
    step(app, 2)
    menu = app.scenes.top
    click(app, next(b for b in menu.buttons if b.label == "Replay a game").rect.center)
    step(app, 2)
    listing = app.scenes.top
    assert isinstance(listing, ReplayListScene)
    assert listing.wait_until_read(30)     # the kept games are read in the background
    assert len(listing.famous) == 3 and len(listing.kept) == 1
    # famous first, oldest first, each with players, event and date; then the kept game
    assert listing.labels[0] == "2009-02-07 · game 1   Dan Troyka – Michael Nolan   " \
                                "Opening (game drawn), 12 moves   WCF Camelot World Championship Match"
    assert "Michael Nolan – Dan Troyka" in listing.labels[1] and "2009-03-08" in listing.labels[1]
    assert "Ann" in listing.labels[3]
    assert "3 famous games" in listing._summary() and "1 of yours" in listing._summary()
    # keys: down to the second famous game, open it, and its players are the record's
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    replay = app.scenes.top
    assert isinstance(replay, ReplayScene)
    assert replay.record.tag("Round") == "4" and replay.side_label("white") == "Michael Nolan"
    assert replay.plies == 20
    key(app, pygame.K_ESCAPE)
    step(app, 2)
    assert app.scenes.top is listing
    # the mouse: a click on the kept game's row opens it
    click(app, listing.rows[3].rect.center)
    assert isinstance(app.scenes.top, ReplayScene)
    assert app.scenes.top.record.tag("White") == "Ann"


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_long_labels_fit_their_rows(monkeypatch, size):
    app = make_app(size)
    open_menu(app)
    app.navigator.open_replay()
    step(app, 2)
    listing = app.scenes.top
    from scenes.core.ui import FONTS
    for button in listing.rows:
        font = FONTS.font(int(button.rect.h * 0.5), bold=True)
        assert font.size(button.label)[0] <= button.rect.w


# --- the demo replays them ----------------------------------------------------------------------
def _castle_record(white="Ann", result_move="G15-G16"):
    return camelot_record.GameRecord(
        (("Event", "Club final"), ("Date", "1931.05.02"), ("White", white), ("Black", "Bob"),
         ("Result", "1-0"), ("Position", CASTLE_WIN), ("Source", "https://example.org/game")),
        (result_move,), "1-0")


def _play_frames(app, condition, frames=3000):
    for _ in range(frames):
        if condition():
            return
        step(app)
    raise AssertionError("the demo never got there")


def test_the_demo_replays_a_famous_game_then_the_computer_plays(tmp_path, monkeypatch):
    camelot_record.write(_castle_record(), tmp_path / "club-final.camelot")
    monkeypatch.setattr(famous, "FAMOUS_DIR", tmp_path)
    app = make_app()
    open_game(app, "camelot-board", seed=3, demo=True)
    scene = app.scenes.top
    assert isinstance(scene, CamelotBoardScene)
    assert all(isinstance(player, RecordPlayer) for player in scene.players.values())
    assert scene.famous is not None and scene.demo and scene.computer_to_move
    assert scene.side_label("white") == "Ann" and scene.side_label("black") == "Bob"
    assert scene.game.position_text().startswith(CASTLE_WIN.split()[0])
    assert scene._hud_texts()["famous"][0][0] == "Ann – Bob, Club final, 1931-05-02"
    # the record's move is played (never asked of the computer), and the game is won
    _play_frames(app, lambda: scene.game.status is Status.WON)
    assert scene.game.history == ["G15-G16"]
    # after the pause the next demo game is the computer's, from the usual start
    _play_frames(app, lambda: scene.famous is None)
    assert scene.game.history == [] and scene.side_label("white").startswith("Computer")
    key(app, pygame.K_x)                # any key leaves the demo
    assert not isinstance(app.scenes.top, CamelotBoardScene)


def test_a_famous_record_that_stops_early_ends_its_demo_game_with_a_line(monkeypatch):
    app = make_app()
    open_game(app, "camelot-board", seed=1, demo=True)
    scene = app.scenes.top
    record = scene.famous.record
    _play_frames(app, lambda: scene.record_over, frames=len(record.moves) * 400)
    assert scene.game.history == list(record.moves)          # every move, none of its own
    assert scene.game.status is Status.PLAYING
    assert scene._hud_texts()["famous"][0][0].endswith(": the published opening ends here")
    _play_frames(app, lambda: scene.famous is None)          # then the computer's game
    assert scene.game.history == []


def test_without_famous_games_the_demo_is_the_computers(tmp_path, monkeypatch):
    monkeypatch.setattr(famous, "FAMOUS_DIR", tmp_path)     # an empty folder
    app = make_app()
    open_game(app, "camelot-board", demo=True)
    scene = app.scenes.top
    assert scene.famous is None and scene.side_label("white").startswith("Computer")
    assert "famous" not in scene._hud_texts()
    key(app, pygame.K_x)
