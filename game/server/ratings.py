"""Glicko-2 ratings, as published by Mark Glickman ("Example of the Glicko-2
system", 2013), and the time classes a rating belongs to.

One rating per account and time class. The server rates each game on its own as
one rating period (as game sites do): both players' ratings before the game go
in, both new ratings come out, and the server writes them with the game's result
in one transaction (storage). No network and no storage here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178              # Glicko-2's scale factor between the two scales
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_SIGMA = 0.06
TAU = 0.5                     # how much the volatility may change (Glickman: 0.3-1.2)
EPSILON = 0.000001            # the volatility iteration's tolerance (the paper's)
PROVISIONAL_RD = 110.0        # a rating whose deviation is above this is provisional
MIN_RD = 30.0                 # ratings never become more certain than this

# Time classes by a game's expected length: base + 40 × increment (40 moves each).
TIME_CLASSES = ("blitz", "rapid", "classical", "untimed")
BLITZ_BELOW = 8 * 60
RAPID_BELOW = 25 * 60


def time_class(time_control) -> str:
    """The class of a time control: ``None`` (no clock) → "untimed";
    ``{"base": s, "increment": s}``, ``(base, increment)`` or ``"base+increment"``
    → "blitz" (< 8 min), "rapid" (< 25 min) or "classical" by base + 40 × increment."""
    if time_control is None or time_control == "" or time_control == "untimed":
        return "untimed"
    if isinstance(time_control, dict):
        base, increment = time_control["base"], time_control.get("increment", 0)
    elif isinstance(time_control, str):
        base, _, increment = time_control.partition("+")
        base, increment = int(base), int(increment or 0)
    else:
        base, increment = time_control
    expected = base + 40 * increment
    if expected < BLITZ_BELOW:
        return "blitz"
    return "rapid" if expected < RAPID_BELOW else "classical"


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_sigma(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


@dataclass(frozen=True)
class Period:
    """The paper's quantities for one rating period, on the Glicko-2 scale."""
    mu: float
    phi: float
    v: float
    delta: float
    sigma: float          # the new volatility
    phi_star: float
    mu_new: float
    phi_new: float


def period(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Period:
    """Steps 2-7 of the paper for ``results`` ((opponent before, score 1 / 0.5 / 0))."""
    mu, phi = (player.rating - DEFAULT_RATING) / SCALE, player.rd / SCALE
    v_inverse, delta_sum = 0.0, 0.0
    for opponent, score in results:
        mu_j, phi_j = (opponent.rating - DEFAULT_RATING) / SCALE, opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * e * (1.0 - e)
        delta_sum += _g(phi_j) * (score - e)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    sigma = _new_sigma(phi, player.sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    return Period(mu, phi, v, delta, sigma, phi_star, mu + phi_new * phi_new * delta_sum, phi_new)


def update(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU,
           floor_rd: float = 0.0) -> Rating:
    """The player's rating after one rating period of ``results``. With no
    games only the deviation grows (step 6 of the paper)."""
    if not results:
        phi = player.rd / SCALE
        phi_star = math.sqrt(phi * phi + player.sigma * player.sigma)
        return Rating(player.rating, min(DEFAULT_RD, phi_star * SCALE), player.sigma, player.games)
    p = period(player, results, tau)
    rd = min(DEFAULT_RD, max(floor_rd, p.phi_new * SCALE))
    return Rating(SCALE * p.mu_new + DEFAULT_RATING, rd, p.sigma, player.games + len(results))


def rate_game(white: Rating, black: Rating, winner: str | None,
              tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game (``winner`` None = a draw)."""
    score = {"white": 1.0, "black": 0.0, None: 0.5}[winner]
    return (update(white, [(black, score)], tau, MIN_RD),
            update(black, [(white, 1.0 - score)], tau, MIN_RD))
