"""One update checked against the published formulas, not only against the library's output.

Weng & Lin (2011, "A Bayesian Approximation Method for Online Ranking", JMLR 12), Algorithm 4
(Plackett-Luce), as OpenSkill documents and implements it (openskill 6.2.0,
`openskill/models/weng_lin/plackett_luce.py`), each seat a team of one, with OpenSkill's
defaults: beta = 25/6 (sigma/2), kappa = 0.0001, tau = 25/300 (mu/300) added to each sigma
before the update (the additive dynamics factor), gamma = sigma_i / c, no sigma limit, no
balance, no margin. Written out here in plain arithmetic for a 3-seat game with a tie, and
compared with `ratings.skill.rate` to 1e-9.

OpenSkill 6.2.0's `_compute` ends with a step of its own, meant to give seats that tie the
mean of their mu changes; but it measures each change against the very object it has just
updated (`result[i][0]` is `original_teams[i][0]`), so every change it sees is 0 and it alters
nothing: tied seats keep the paper's own, different, changes. This test pins that: should a
later OpenSkill make the step work, the ratings would change and `rerate` would report every
tied game, so the pin (openskill==6.2.0) must not move without a decision.
"""

from __future__ import annotations

import math

from ratings.skill import Skill, rate

BETA = 25 / 6
KAPPA = 0.0001
TAU = 25 / 300


def weng_lin(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """Algorithm 4 for teams of one player each (a team's mu and sigma² are its player's)."""
    n = len(skills)
    mu = [s.mu for s in skills]
    sigma2 = [s.sigma**2 + TAU**2 for s in skills]  # the dynamics: sigma² + tau²
    c = math.sqrt(sum(v + BETA**2 for v in sigma2))
    e = [math.exp(m / c) for m in mu]
    # sum_q: over the seats ranked no better than q (q itself included).
    sum_q = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    # A_q: how many seats share q's rank.
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    omega, delta = [], []
    for i in range(n):
        above = [q for q in range(n) if ranks[q] <= ranks[i]]  # ranked no worse than i
        p = {q: e[i] / sum_q[q] for q in above}
        omega_i = sum(((1 if q == i else 0) - p[q]) / a[q] for q in above)
        delta_i = sum(p[q] * (1 - p[q]) / a[q] for q in above)
        gamma = math.sqrt(sigma2[i]) / c
        omega.append(sigma2[i] / c * omega_i)
        delta.append(gamma * sigma2[i] / c**2 * delta_i)
    return [
        Skill(mu[i] + omega[i], math.sqrt(sigma2[i]) * math.sqrt(max(1 - delta[i], KAPPA)))
        for i in range(n)
    ]


def test_one_update_of_three_seats_with_a_tie_follows_the_formulas() -> None:
    skills = [Skill(25.0, 25 / 3), Skill(31.5, 4.2), Skill(19.0, 6.75)]
    ranks = [2, 1, 2]  # the second seat won; the others tie behind it
    by_hand = weng_lin(skills, ranks)
    by_library = rate(skills, ranks)
    for expected, got in zip(by_hand, by_library, strict=True):
        assert math.isclose(got.mu, expected.mu, rel_tol=0, abs_tol=1e-9), (got, expected)
        assert math.isclose(got.sigma, expected.sigma, rel_tol=0, abs_tol=1e-9), (got, expected)
    # The direction: the winner gains, the tied losers lose (each its own amount: the
    # stronger one more), and every sigma shrinks (the game told the model of each seat).
    assert by_hand[1].mu > skills[1].mu
    assert by_hand[0].mu - skills[0].mu < by_hand[2].mu - skills[2].mu < 0
    assert all(after.sigma < before.sigma for before, after in zip(skills, by_hand, strict=True))


def test_a_tie_at_the_top_of_two_seats_is_a_draw() -> None:
    """Two equal players drawing: neither mu moves, both sigmas shrink (the same amount)."""
    by_hand = weng_lin([Skill(25.0, 25 / 3)] * 2, [1, 1])
    by_library = rate([Skill(25.0, 25 / 3)] * 2, [1, 1])
    for expected, got in zip(by_hand, by_library, strict=True):
        assert math.isclose(got.mu, 25.0, abs_tol=1e-12) and math.isclose(expected.mu, 25.0)
        assert math.isclose(got.sigma, expected.sigma, rel_tol=0, abs_tol=1e-9)
        assert got.sigma < 25 / 3
