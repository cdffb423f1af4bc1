package io.ddf.engine.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/**
 * Turns a model's per-position probabilities into the rates a harness measures, for a {@link Workload}:
 * <ul>
 *   <li>FPR = Σ_m u(m) FP(m) / Σ_m u(m), u(m) = Σ_i p_i (1 − p_i)^m the probability that the element at
 *       position m is unseen (1 for an unbounded alphabet);</li>
 *   <li>FNR = Σ_t v(t) (n − 1 − t) FN(t) / Σ_t v(t) (n − 1 − t), v(t) = Σ_i p_i² (1 − p_i)^t the probability
 *       that a position repeats the element seen t + 1 positions before and not in between (an endless stream
 *       drops the factor n − 1 − t; an unbounded alphabet takes v = 1).</li>
 * </ul>
 * The p_i are the draw probabilities (one class of U equal ones for a uniform stream, a few hundred classes of
 * neighbouring ranks for a Zipf law). The first {@value #EXACT} positions are summed exactly, the rest by the
 * trapezoid rule on a geometric grid of ratio {@value #RATIO} (relative error about 10^−4 for the smooth models
 * here); an endless stream is summed until the weights are below 10^−12 of their total.
 */
final class StreamWeights
{
    private static final int EXACT = 32;
    private static final double RATIO = 1.05;
    /** Zipf ranks up to this are classes of their own; beyond, classes of ranks within a factor ZIPF_BIN. */
    private static final int ZIPF_SINGLE = 64;
    private static final double ZIPF_BIN = 1.06;

    private final Workload workload;
    /** Class sizes and draw probabilities; empty for a uniform stream over an unbounded alphabet. */
    private final double[] counts;
    private final double[] probabilities;
    private final double horizon;
    private final java.util.Map<Long, Long> distinctCache = new java.util.HashMap<>();

    StreamWeights(final Workload workload)
    {
        this.workload = workload;
        final List<double[]> classes = classes(workload);
        counts = new double[classes.size()];
        probabilities = new double[classes.size()];
        double smallest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < classes.size(); i++)
        {
            counts[i] = classes.get(i)[0];
            probabilities[i] = classes.get(i)[1];
            smallest = Math.min(smallest, probabilities[i]);
        }
        // an endless stream: far enough that even the rarest class's weight has decayed (or 10^18 positions)
        final double endless = classes.isEmpty() ? 1e18 : Math.min(1e18, 40 / smallest);
        horizon = workload.finite() ? workload.length() : endless;
    }

    /** @return the positions the sums run over (n, or the horizon of an endless stream). */
    double horizon()
    {
        return horizon;
    }

    /**
     * @param m positions so far.
     * @return the expected number of distinct elements among the first m.
     */
    double distinct(final double m)
    {
        if (counts.length == 0)
        {
            return m;
        }
        double sum = 0;
        for (int i = 0; i < counts.length; i++)
        {
            sum += counts[i] * -Math.expm1(m * Math.log1p(-probabilities[i]));
        }
        return sum;
    }

    /**
     * @param t arrivals.
     * @return the expected distinct elements among t arrivals, memoised (the grid is the same for every shape).
     */
    long distinctArrivals(final long t)
    {
        return distinctCache.computeIfAbsent(t, x -> Math.round(distinct(x)));
    }

    /**
     * @param falsePositive FP(m) for an unseen element after m arrivals.
     * @return the expected FPR over the unseen elements.
     */
    double falsePositiveRate(final LongToDoubleFunction falsePositive)
    {
        return average(falsePositive, true);
    }

    /**
     * @param falseNegative FN(t) for a duplicate whose last occurrence was t + 1 positions back.
     * @return the expected FNR over the duplicates.
     */
    double falseNegativeRate(final LongToDoubleFunction falseNegative)
    {
        return average(falseNegative, false);
    }

    private double average(final LongToDoubleFunction f, final boolean unseen)
    {
        final double end = unseen ? horizon : horizon - 1; // a gap t < n − 1
        double weighted = 0;
        double total = 0;
        for (long t = 0; t < Math.min(EXACT, end); t++)
        {
            final double w = weight(t, unseen);
            weighted += w * f.applyAsDouble(t);
            total += w;
        }
        double a = EXACT - 0.5;
        if (end > EXACT)
        {
            double wa = weight(a, unseen);
            double fa = f.applyAsDouble(Math.round(a));
            while (a < end - 0.5)
            {
                final double b = Math.min(end - 0.5, a * RATIO);
                final double wb = weight(b, unseen);
                final double fb = f.applyAsDouble(Math.round(b));
                weighted += (b - a) * (wa * fa + wb * fb) / 2;
                total += (b - a) * (wa + wb) / 2;
                if (!workload.finite() && wb < 1e-12 * total)
                {
                    break;
                }
                a = b;
                wa = wb;
                fa = fb;
            }
        }
        return total > 0 ? weighted / total : 0;
    }

    /** u(t) or v(t)·(n − 1 − t). */
    private double weight(final double t, final boolean unseen)
    {
        double w;
        if (counts.length == 0)
        {
            w = 1;
        }
        else
        {
            w = 0;
            for (int i = 0; i < counts.length; i++)
            {
                final double p = probabilities[i];
                w += counts[i] * (unseen ? p : p * p) * Math.exp(t * Math.log1p(-p));
            }
        }
        return unseen || !workload.finite() ? w : w * Math.max(0, workload.length() - 1 - t);
    }

    /** {count, probability} classes of the draws. */
    private static List<double[]> classes(final Workload workload)
    {
        final List<double[]> classes = new ArrayList<>();
        final double u = workload.alphabet();
        if (workload.zipf() == 0)
        {
            if (Double.isFinite(u))
            {
                classes.add(new double[] {u, 1 / u});
            }
            return classes;
        }
        final double ranks = Double.isFinite(u) ? u : Workload.ZIPF_UNBOUNDED_RANKS;
        final double s = workload.zipf();
        double norm = 0;
        double from = 1;
        while (from <= ranks)
        {
            final double to = from < ZIPF_SINGLE ? from + 1 : Math.min(ranks + 1, Math.ceil(from * ZIPF_BIN));
            // Σ_{i=from}^{to−1} i^−s, exact for a single rank, by the midpoint integral otherwise
            final double mass = to - from == 1 ? Math.pow(from, -s) : integral(from - 0.5, to - 0.5, s);
            classes.add(new double[] {to - from, mass});
            norm += mass;
            from = to;
        }
        for (final double[] c : classes)
        {
            c[1] = c[1] / norm / c[0]; // the class's mean probability per rank
        }
        return classes;
    }

    /** ∫_a^b x^−s dx. */
    private static double integral(final double a, final double b, final double s)
    {
        return s == 1 ? Math.log(b / a) : (Math.pow(b, 1 - s) - Math.pow(a, 1 - s)) / (1 - s);
    }
}
