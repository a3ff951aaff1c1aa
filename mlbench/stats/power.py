"""The minimum detectable difference (MDD) of a paired comparison: the smallest true
difference in means that ``n`` paired questions would find significant with the given
power, at a two-sided level alpha. A difference that is not significant but whose MDD is
larger than the differences that matter says the test could not have seen them, not that
they are absent.

Two designs, matching the two paired tests of the report:

- a continuous metric (Wilcoxon signed-rank in the report; the MDD uses the normal
  approximation of the paired t-test, which the signed-rank test matches to within its
  asymptotic relative efficiency, 0.955 under normality)::

      MDD = (z_{1-α/2} + z_{power}) · sd_d / √n

  with ``sd_d`` the standard deviation of the paired differences (ddof=1);

- a 0/1 metric (McNemar), Connor's sample size for the paired-proportions design
  (R. J. Connor, "Sample size for testing differences in proportions for the
  paired-sample design", Biometrics 43(1):207–211, 1987)::

      n = [z_{1-α/2} · √ψ + z_{power} · √(ψ − δ²)]² / δ²

  with ψ the share of discordant questions (right under one condition only) and δ the
  difference of the two shares, solved for δ at the observed n and ψ. Squaring and
  taking the root with √n·δ ≥ z_{1-α/2}·√ψ gives the closed form::

      δ = √ψ · [z_{1-α/2} · √n + z_{power} · √(n − z_{1-α/2}² + z_{power}²)] / (n + z_{power}²)

  which tends to (z_{1-α/2} + z_{power}) · √ψ / √n for large n.

Both use the observed spread (sd_d, ψ) as if it were the true one: they say what these
data could detect, not what a new study needs.

>>> round(mdd_mean_difference(0.3, 100), 4)
0.084
>>> round(mdd_mcnemar(0.2, 100), 4)
0.1238
"""

from __future__ import annotations

import math
from statistics import NormalDist

ALPHA = 0.05
POWER = 0.8


def _z(probability: float) -> float:
    return NormalDist().inv_cdf(probability)


def mdd_mean_difference(sd: float, n: int, *, alpha: float = ALPHA, power: float = POWER) -> float | None:
    """The MDD of a paired mean difference whose paired differences have standard
    deviation ``sd``, over ``n`` pairs (normal approximation). None without a spread to
    base it on (fewer than 2 pairs, or every difference the same)."""
    if n < 2 or not sd > 0:
        return None
    return (_z(1 - alpha / 2) + _z(power)) * sd / math.sqrt(n)


def mdd_mcnemar(discordant: float, n: int, *, alpha: float = ALPHA, power: float = POWER) -> float | None:
    """The MDD of the difference of two paired shares (McNemar's design, Connor 1987),
    with ``discordant`` the share of the ``n`` pairs that disagree. None without a
    discordant pair (nothing to base it on), or for an n so small (under 4 at the
    defaults) that Connor's equation has no solution. It can exceed ``discordant`` for a
    small n: then no difference these questions could show would be detected with that
    power."""
    z_alpha, z_power = _z(1 - alpha / 2), _z(power)
    spread = n - z_alpha**2 + z_power**2
    if n < 2 or not discordant > 0 or spread < 0:
        return None
    root = z_alpha * math.sqrt(n) + z_power * math.sqrt(spread)
    return math.sqrt(discordant) * root / (n + z_power**2)
