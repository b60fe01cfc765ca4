"""OpenSkill's Plackett-Luce model (Weng-Lin), the one rating model of the service (R14).

Pure: the job that rates a finished game, `manage.py rerate` and the benchmark call the same
functions with the same numbers, so they agree to the last bit. OpenSkill's defaults (mu 25,
sigma 25/3, its own tau); no scale of our own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
#: A rating is provisional until it has this many rated games (shown with a "?").
ESTABLISHED_GAMES = 10


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's belief: `mu`, the skill, and `sigma`, how unsure of it the model is."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What the leaderboards sort by: mu - 3·sigma, a skill the player very likely has."""
        return self.mu - 3 * self.sigma


#: A player's rating before their first rated game.
DEFAULT = Skill(MODEL.mu, MODEL.sigma)


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The seats' skills after a game they finished in `ranks` (1 the best, ties equal): one
    `model.rate` with each seat a team of one."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def predict_win(skills: Sequence[Skill]) -> list[float]:
    """Each seat's chance of winning, as OpenSkill predicts it (they add up to 1)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    return [float(p) for p in MODEL.predict_win(teams)]
