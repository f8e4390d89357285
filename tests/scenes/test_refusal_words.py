"""The rules' refusals on the screen, in the player's language.

An engine (game/) words its refusals in English and gives them a code and
their parts (cards, piles, ranks, squares, numbers: ``game.base.Reason``; the
board's ``Refusal.parts``); the screen words them from those
(``scenes.store.terms.reason_words``). Every refusal the engines give, for
every drag and click a table allows over a game's course, is checked in the
pseudo-language: nothing of it may escape translation. And in French, a
refusal a scene shows is the catalog's sentence with the card's French name.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from game.base import Reason, Status
from game.camelot.board import CamelotBoard
from game.camelot.moves import SQUARE_COORDS
from game.camelot_solitaire import CamelotSolitaire
from game.clock import Clock, ClockMove, hour_pile
from game.hamilton import Hamilton
from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
from scenes.games.clock_scene import ClockScene
from scenes.games.hamilton_scene import HamiltonScene
from scenes.store import words
from scenes.store.catalogs import load_language
from scenes.store.terms import ENGINE_SENTENCES, REASONS, card_name, reason_words
from scenes.work.service import shutdown

from .patience_input import open_scene
from .harness import tap
from .test_camelot_board_scene import CAPTURE, centre
from .test_words import escaped, has_words, messages, pseudo_catalog  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
KNOWN = frozenset(ENGINE_SENTENCES)
# White's man on B3 is walled in by its own men (nothing to step to, canter
# over or jump): it has no legal move.
WALLED_IN = "2/8/10/12/5m6/12/12/12/12/12/12/MM1M8/MMM9/MMM7/M7/2 w 2 2"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    words.set_language("en")
    shutdown()


def table_refusals(game, piles, counts=(1, 2, 3)) -> list[str]:
    """Every refusal a card table can draw from ``game`` as it stands: each
    drag of 1 … 3 cards from a pile onto another, each click, each pick-up."""
    said = []
    for source in piles:
        said.append(game.why_not_pick_up(source, 1))
        click = game.click_move(source)
        if click is not None:
            said.append(game.why_illegal(click))
        for count in counts:
            for target in piles:
                try:
                    move = game.move_between(source, count, target)
                except ValueError:
                    continue
                if move is not None:
                    said.append(game.why_illegal(move))
    return [s for s in said if s]


def refusals_over_a_game(game, piles, rng_seed: int, steps: int) -> list[str]:
    """The refusals at each position of a game played on by seeded random legal moves, and its end."""
    rng = random.Random(rng_seed)
    said = []
    for _ in range(steps):
        if game.status is not Status.PLAYING:
            break
        said += table_refusals(game, piles)
        game.play(rng.choice(game.legal_moves()))
    if game.status_reason:
        said.append(game.status_reason)
    return said


def board_refusals(position: str | None) -> list:
    board = CamelotBoard(position) if position else CamelotBoard()
    said = [board.why_piece_cannot_move(sq) for sq in range(len(SQUARE_COORDS))]
    for sq in range(len(SQUARE_COORDS)):
        f, r = SQUARE_COORDS[sq]
        for df, dr in ((0, 1), (0, -1), (1, 0), (0, 2), (2, 2)):
            there = (f + df, r + dr)
            if there in SQUARE_COORDS:
                said.append(board.why_refused((sq, SQUARE_COORDS.index(there))))
    return [s.reason for s in said if s is not None]


def patience_cases():
    """(scene class, a new engine, the piles its table shows)."""
    return [(CamelotSolitaireScene, lambda seed: CamelotSolitaire(seed=seed)),
            (HamiltonScene, lambda seed: Hamilton(seed=seed)),
            (ClockScene, lambda seed: Clock(seed=seed))]


def assert_translated(said: list[str], places, catalog) -> None:
    words.set_language("xx", catalog)
    escapes = {}
    for text in said:
        assert isinstance(text, Reason) and text.code in REASONS or text in KNOWN, \
            f"a sentence with no code the screen knows: {text!r}"
        shown = reason_words(text, places=places)
        if has_words(escaped(shown)):
            escapes[str(text)] = shown
    assert not escapes, escapes


@pytest.mark.parametrize("scene_class, new_game", patience_cases(),
                         ids=["camelot-solitaire", "hamilton", "clock"])
def test_every_refusal_of_a_patience_is_worded_from_its_code(scene_class, new_game, messages):
    app, scene = open_scene(scene_class, new_game(3), seed=3)
    piles = list(scene.table.slots)
    said = []
    for seed in (3, 8, 21):
        said += refusals_over_a_game(new_game(seed), piles, seed, steps=60)
    codes = {text.code for text in said if isinstance(text, Reason)}
    assert len(codes) >= 3, codes                     # the walk met refusals of several kinds
    assert_translated(said, scene.pile_words, pseudo_catalog(messages))


def test_every_refusal_of_the_board_is_worded_from_its_code(messages):
    said = []
    for position in (None, CAPTURE, WALLED_IN, "2/8/10/12/12/12/5m6/12/12/4MN6/12/12/12/10/8/2 w 2 2"):
        said += board_refusals(position)
    codes = {text.code for text in said}
    assert {"no-piece", "not-your-turn", "must-capture", "not-a-move", "blocked"} <= codes, codes
    assert_translated(said, None, pseudo_catalog(messages))


def test_every_code_an_engine_gives_has_its_words():
    """Read from the engines' source: each Reason code, each board refusal constant."""
    given = set()
    for path in list((ROOT / "game").glob("*.py")) + [ROOT / "game" / "camelot" / "board.py"]:
        text = path.read_text(encoding="utf-8")
        given |= set(re.findall(r'Reason\(\s*"([a-z-]+)"', text))
        given |= set(re.findall(r'\b[A-Z_]+ = "([a-z-]+)"', text)) if path.name == "board.py" else set()
        for names in re.findall(r"^((?:[A-Z_]+, )+[A-Z_]+) = ((?:\"[a-z-]+\", )+\"[a-z-]+\")", text, re.M):
            given |= set(re.findall(r'"([a-z-]+)"', names[1]))
    given.discard("wrong-marks")              # a notation's marks: only the command line reads them
    assert len(given) > 30 and not given - set(REASONS), sorted(given - set(REASONS))


def test_in_french_a_clock_refusal_names_the_card_in_french():
    app, scene = open_scene(ClockScene, Clock(seed=5), seed=5)
    assert load_language("fr") is None
    card = scene.game.centre_card
    wrong = hour_pile(card.rank % 12 + 1)
    scene.play(ClockMove(card, wrong))
    shown = app._toasts[-1][0]
    english = scene.game.why_illegal(ClockMove(card, wrong))
    assert card_name(card).lower() in shown.lower() and card.name not in shown.lower()
    template = words._("the {card} goes to {hour} o'clock, not to {place}") if card.rank != 13 else \
        words._("the {card} stays in the centre, not to {place}")
    assert template != "the {card} goes to {hour} o'clock, not to {place}"
    assert shown.lower() == template.format(card=card_name(card), hour=card.rank,
                                            place=scene.pile_words(wrong)).lower()
    assert english.code in ("goes-to-hour", "king-stays") and str(english) not in shown


def test_in_french_a_stuck_piece_on_the_board_names_its_square():
    from .test_camelot_board_scene import start
    app, scene = start(position=WALLED_IN)
    assert load_language("fr") is None
    tap(app, centre(scene, "B3"))                     # the walled-in man: a toast says why
    assert app._toasts[-1][0] == ("La pièce en B3 n’a aucun coup légal : chaque case qu’elle "
                                  "pourrait atteindre est occupée ou interdite")


def test_the_server_s_common_refusals_are_said_in_the_player_s_language():
    # A wrong password answered by the server (English, as every client gets it):
    # in French the screen says the catalog's sentence for its code; in English
    # the server's own sentence; a code without words stays as the server said it.
    from scenes.games.camelot_online import error_line
    from scenes.store.catalogs import load_language
    from scenes.store.terms import SERVER_REFUSALS
    wrong = {"type": "error", "code": "bad_password", "message": "wrong name or password"}
    odd = {"type": "error", "code": "bad_field", "message": "text is too long"}
    try:
        load_language("fr")
        assert error_line(wrong) == "Le serveur refuse : le nom ou le mot de passe est faux"
        assert error_line(odd).endswith("text is too long")
        from scenes.store.words import _
        assert all(_(sentence) != sentence for sentence in SERVER_REFUSALS.values())
    finally:
        load_language("en")
    assert error_line(wrong) == "The server refused: wrong name or password"
