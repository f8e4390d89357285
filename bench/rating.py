"""The statistics of engine matches, as chess engine testers compute them.

- **Pentanomial scoring** (``bench/sprt.py``): games come in pairs (one opening,
  each engine once with each colour); a pair scores 0, ½, 1, 1½ or 2 points, and
  ``counts[k]`` is the number of pairs that scored k/2. Pairs, not games, are
  the independent trials: an opening that favours one colour shows up in both
  games of its pair and cancels out.
- **Elo** is logistic: a score share s is ``-400·log10(1/s − 1)`` Elo.
- **The sequential probability ratio test** is the generalized SPRT of fishtest
  and OpenBench (M. Van den Bergh, "A practical introduction to the GSPRT"): the
  log-likelihood ratio of the hypotheses "the true score share is s1" against "it
  is s0" (s0, s1 the shares of the Elo bounds elo0, elo1), each evaluated at
  the maximum-likelihood pentanomial distribution with that mean. The test
  stops when the LLR leaves (log(β/(1−α)), log((1−β)/α)).
- **Ratings of many players** (``bench/ladder.py``): a Bradley–Terry model
  fitted by maximum likelihood (as Ordo and BayesElo do), a draw counting half a
  win and half a loss, one virtual draw added to every pairing that played (the
  prior that keeps a player who won every game at a finite rating), one player
  anchored at 0; error bars from the inverse of the likelihood's curvature.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)   # a pair's score share, by pentanomial cell
Z95 = 1.959963984540054                     # the normal 97.5 % point


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(share: float) -> float:
    """Logistic Elo of a score share; ±inf at 0 and 1."""
    if share <= 0.0:
        return -math.inf
    if share >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / share - 1.0)


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float     # 95 % interval
    high: float
    score: float   # mean score share
    pairs: int

    def __str__(self) -> str:
        # (+ 0.0 turns a "-0.0" into "+0.0")
        elo, low, high = self.elo + 0.0, self.low + 0.0, self.high + 0.0
        plus = (high - low) / 2
        return (f"{elo:+.1f} ± {plus:.1f} Elo (95 %: {low:+.1f} … {high:+.1f}; "
                f"score {100 * self.score:.1f} % over {self.pairs} pairs)")


def pentanomial_moments(counts) -> tuple[int, float, float]:
    """(pairs, mean score share, variance of a pair's share)."""
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES)) / n
    return n, mean, var


def pentanomial_elo(counts) -> EloEstimate:
    """Elo with its 95 % interval from pentanomial counts (normal approximation
    of the mean pair score, converted to Elo at its ends)."""
    n, mean, var = pentanomial_moments(counts)
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0)
    half = Z95 * math.sqrt(var / n)
    return EloEstimate(elo_from_score(mean), elo_from_score(mean - half),
                       elo_from_score(mean + half), mean, n)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: below, H0 (elo0) is accepted; above, H1 (elo1)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _mle_log_terms(probs, share: float) -> list[float] | None:
    """log of the factors 1 + λ(x − s) of the maximum-likelihood distribution of
    mean ``share`` near the observed ``probs``: p_i = p̂_i / (1 + λ(x_i − s)), λ
    the root of Σ p̂_i (x_i − s) / (1 + λ(x_i − s)) = 0 (found by bisection on
    the interval keeping every factor positive). None: ``share`` lies outside
    the observed scores, so no such distribution exists."""
    seen = [(p, x - share) for p, x in zip(probs, PAIR_SCORES) if p > 0]
    if not any(d > 0 for _, d in seen) or not any(d < 0 for _, d in seen):
        return None
    low = -1.0 / max(d for _, d in seen)
    high = -1.0 / min(d for _, d in seen)
    for _ in range(200):
        lam = (low + high) / 2
        slope = sum(p * d / (1 + lam * d) for p, d in seen)
        # The sum falls as λ grows: a positive sum means λ is too small.
        if slope > 0:
            low = lam
        else:
            high = lam
    lam = (low + high) / 2
    return [math.log(1 + lam * (x - share)) if p > 0 else 0.0
            for p, x in zip(probs, PAIR_SCORES)]


def gsprt_llr(counts, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of elo1 against elo0 (logistic Elo) for
    pentanomial ``counts``: N·Σ p̂_i·log(p1_i / p0_i), each p the maximum-likelihood
    distribution with the bound's mean. An empty cell counts as 0.001 pairs (as
    OpenBench does), so a run of equal results still moves the test."""
    counts = [max(c, 1e-3) for c in counts]
    n = sum(counts)
    probs = [c / n for c in counts]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    terms0, terms1 = _mle_log_terms(probs, s0), _mle_log_terms(probs, s1)
    if terms0 is None or terms1 is None:
        return 0.0
    # log p1_i − log p0_i = log(1 + λ0(x_i − s0)) − log(1 + λ1(x_i − s1))
    return n * sum(p * (t0 - t1) for p, t0, t1 in zip(probs, terms0, terms1))


def gsprt_llr_approx(counts, elo0: float, elo1: float) -> float:
    """fishtest's closed-form approximation of the same LLR: N/2·log(r0/r1),
    r_s = Σ p̂_i (x_i − s)² (a check on :func:`gsprt_llr`)."""
    n = sum(counts)
    if n == 0:
        return 0.0
    probs = [c / n for c in counts]
    r0, r1 = (sum(p * (x - s) ** 2 for p, x in zip(probs, PAIR_SCORES))
              for s in (score_from_elo(elo0), score_from_elo(elo1)))
    return n / 2 * math.log(r0 / r1)


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    error: float    # half the 95 % interval (relative to the anchor)
    games: int
    points: float


def fit_ratings(players: list[str], results: dict[tuple[str, str], tuple[float, int]],
                anchor: str, prior_draws: float = 1.0) -> list[Rating]:
    """Bradley–Terry ratings by maximum likelihood. ``results[(a, b)]`` is
    (points a scored against b, games between them), each unordered pairing
    given once. ``anchor`` is fixed at 0 Elo; ``prior_draws`` virtual draws are
    added to every pairing that played. Newton's method on the log-likelihood;
    errors from the inverse Hessian (the anchor's row and column removed)."""
    index = {name: i for i, name in enumerate(players)}
    size = len(players)
    wins = np.zeros((size, size))    # wins[i, j]: points i scored against j
    games = np.zeros((size, size))
    for (a, b), (points, count) in results.items():
        i, j = index[a], index[b]
        if count <= 0:
            continue
        wins[i, j] += points + prior_draws / 2
        wins[j, i] += count - points + prior_draws / 2
        games[i, j] += count + prior_draws
        games[j, i] += count + prior_draws
    free = [i for i in range(size) if players[i] != anchor]
    beta = np.zeros(size)   # natural units: Elo · ln(10) / 400
    for _ in range(100):
        expect = 1.0 / (1.0 + np.exp(beta[None, :] - beta[:, None]))   # P(i beats j)
        grad = (wins - games * expect).sum(axis=1)
        weight = games * expect * (1 - expect)
        hess = np.diag(weight.sum(axis=1)) - weight   # minus the Hessian
        sub = hess[np.ix_(free, free)]
        step = np.linalg.solve(sub, grad[free])
        beta[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    expect = 1.0 / (1.0 + np.exp(beta[None, :] - beta[:, None]))
    weight = games * expect * (1 - expect)
    hess = np.diag(weight.sum(axis=1)) - weight
    cov = np.linalg.inv(hess[np.ix_(free, free)])
    scale = 400.0 / math.log(10.0)
    errors = np.zeros(size)
    errors[free] = Z95 * np.sqrt(np.diag(cov)) * scale
    real_games = {name: 0 for name in players}
    real_points = {name: 0.0 for name in players}
    for (a, b), (points, count) in results.items():
        real_games[a] += count
        real_games[b] += count
        real_points[a] += points
        real_points[b] += count - points
    out = [Rating(name, float(beta[i] * scale), float(errors[i]), real_games[name],
                  real_points[name]) for i, name in enumerate(players)]
    return sorted(out, key=lambda r: -r.elo)


__all__ = ["EloEstimate", "Rating", "elo_from_score", "fit_ratings", "gsprt_llr",
           "gsprt_llr_approx", "pentanomial_elo", "pentanomial_moments", "score_from_elo",
           "sprt_bounds", "PAIR_SCORES"]
