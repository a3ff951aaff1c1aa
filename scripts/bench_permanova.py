"""PERMANOVA speed: mlbench's batched permutations against scikit-bio's, on one MSQAD-sized
cell (two languages × one topic's direct responses, 384-dimensional embeddings).

    python scripts/bench_permanova.py [--rows 775] [--dim 384] [--permutations 999]

Prints both timings and checks that the pseudo-F and p-value agree (needs scikit-bio).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mlbench.stats.permanova import euclidean_distances, permanova


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=775, help="questions per language (Disability Rights: 775)")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--permutations", type=int, default=999)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from skbio import DistanceMatrix
    from skbio.stats.distance import permanova as skbio_permanova

    rng = np.random.default_rng(args.seed)
    points = rng.normal(size=(2 * args.rows, args.dim))
    points[: args.rows] += 0.02  # a small shift, so p is neither 0.001 nor 1
    grouping = ["en"] * args.rows + ["zh"] * args.rows
    distances = euclidean_distances(points)

    start = time.perf_counter()
    ours = permanova(distances, grouping, permutations=args.permutations, seed=args.seed)
    ours_s = time.perf_counter() - start
    start = time.perf_counter()
    theirs = skbio_permanova(DistanceMatrix(distances), grouping, permutations=args.permutations, seed=args.seed)
    theirs_s = time.perf_counter() - start

    print(f"n={2 * args.rows}, {args.permutations} permutations")
    print(f"  mlbench    {ours_s:7.2f} s   pseudo-F {ours.pseudo_f:.6f}  p {ours.p:.4f}")
    print(f"  scikit-bio {theirs_s:7.2f} s   pseudo-F {theirs['test statistic']:.6f}  p {theirs['p-value']:.4f}")
    print(
        f"  speed-up {theirs_s / ours_s:.1f}×; same result: "
        f"{np.isclose(ours.pseudo_f, theirs['test statistic'], rtol=1e-9) and ours.p == theirs['p-value']}"
    )


if __name__ == "__main__":
    main()
