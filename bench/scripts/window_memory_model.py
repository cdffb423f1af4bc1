#!/usr/bin/env python3
"""The steady-state false positive rate of ddf's fifo-bloom with a window of time, modelled, for issue 29's memory
target (bits per item at 1 %: at most APBF's for the same window guarantee).

    python3 bench/scripts/window_memory_model.py

At the steady rate of n new items per window W, L slices: each of the 2L slots holds n / L items when full, and a
lookup reads the generations still answered: L full ones and the newest, filling (uniform over its slice). Each slot
has M / 2L bits, so b / 2 bits per item when full (b = M / n). A generation is either a standard Bloom filter (the
lower bound of any per-generation layout) or ddf's blocked one: 512-bit blocks, d blocks per item with k / d bits in
each, the items per block Poisson. Prints, per target, the least b (bisection) and its k for: standard, blocked d = 1
(ddf's choice at these memories) and blocked d = 2, at L = 1 and 2. Compare with the measured sweep,
bench/results/window-memory/README.md.
"""
import math

BLOCK = 512


def poisson(lam, count):
    p = math.exp(-lam)
    out = [p]
    for j in range(1, count):
        p *= lam / j
        out.append(p)
    return out


def standard(bpi, k, fill, d=1):
    """A standard Bloom filter with bpi bits per item when full, at a fraction fill of its items."""
    del d
    return (1 - math.exp(-k * fill / bpi)) ** k


def blocked(bpi, k, fill, d=1):
    """A blocked Bloom filter: each item sets k / d bits (with replacement) in each of d blocks of 512 bits."""
    per_block = k // d
    lam = d * BLOCK * fill / bpi
    ps = poisson(lam, int(lam + 12 * math.sqrt(lam + 1) + 30))
    one = sum(p * (1 - (1 - 1 / BLOCK) ** (per_block * j)) ** per_block for j, p in enumerate(ps))
    return one ** d


def steady(layout, bpi, k, slices, d):
    per_generation = bpi / 2  # 2L slots of M / 2L bits, n / L items each when full
    full = layout(per_generation, k, 1.0, d)
    steps = 64
    filling = sum(layout(per_generation, k, (i + 0.5) / steps, d) for i in range(steps)) / steps
    return 1 - (1 - full) ** slices * (1 - filling)


def least_bits(layout, target, slices, d):
    best = None
    for k in range(d, 25, d):
        lo, hi = 2.0, 100.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if steady(layout, mid, k, slices, d) > target:
                lo = mid
            else:
                hi = mid
        if best is None or hi < best[0]:
            best = (hi, k)
    return best


def main():
    print("| target | L | standard Bloom generations | blocked, d = 1 | blocked, d = 2 |")
    print("| --- | --- | --- | --- | --- |")
    for target in (0.1, 0.01, 0.001):
        for slices in (1, 2):
            cells = []
            for layout, d in ((standard, 1), (blocked, 1), (blocked, 2)):
                bits, k = least_bits(layout, target, slices, d)
                cells.append("%.2f (k = %d)" % (bits, k))
            print("| %g %% | %d | %s |" % (target * 100, slices, " | ".join(cells)))


if __name__ == "__main__":
    main()
