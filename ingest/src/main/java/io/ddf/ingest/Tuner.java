package io.ddf.ingest;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.model.QhtModel;
import io.ddf.engine.model.QueuingModel;
import io.ddf.engine.model.QueuingPaperModel;
import io.ddf.engine.model.ShortHashModel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Picks a filter and its parameters for a memory budget from the analytical models ({@code io.ddf.engine.model}).
 * <ul>
 *   <li>No window (seed 000 §4.5): a QHT. For a target FPR x the admissible (k, S) have k = ⌊x(2^s − 1)⌋ ≥ 1, so
 *       FPR_∞ = k/S ≤ x; without a stream length the smallest s wins (it delays saturation most, §4.5); with a
 *       stream length n, the candidate with the lowest predicted FPR_n + FNR_n on a uniform stream over U
 *       (without a target, every (s, k) is a candidate).</li>
 *   <li>A window w: the queuing construction over a QHT, L among the divisors of w (the engine needs w = cL), and
 *       for each L the subfilters' s and k, scored by {@link QueuingModel} (Theorems 5 and 7, and the corrected
 *       form of 6 and 8); and SHF and CSHF (Theorem 3, no false negative). The lowest predicted FPR + FNR wins,
 *       among those with FPR ≤ x when a target is given (seed 001 §5.4 finds L the same way, numerically).</li>
 * </ul>
 */
final class Tuner
{
    /** Largest fingerprint width tried. */
    private static final int MAX_BITS = 32;
    /** Largest k the engine takes. */
    private static final int MAX_BUCKETS = 64;
    /** Windowed search: fingerprint widths and cells per row tried for each L. */
    private static final int WINDOW_MAX_BITS = 20;
    private static final int[] WINDOW_BUCKETS = {1, 2, 3, 4, 6, 8};
    /** Windowed search: at most this many subfilters. */
    private static final long MAX_SUBFILTERS = 4096;
    /** Phases evaluated in the first pass, then exactly for the best few. */
    private static final int COARSE_PHASES = 32;
    private static final int REFINED = 12;

    private Tuner()
    {
    }

    /**
     * A recommended filter.
     *
     * @param kind       the filter kind (the inner kind for a queue).
     * @param parameters command-line parameters, in order (window and subfilters last for a queue).
     * @param fpr        predicted false positive rate.
     * @param fnr        predicted false negative rate.
     * @param basis      which model predicted it, one line.
     */
    record Recommendation(FilterKind kind, Map<String, Long> parameters, double fpr, double fnr, String basis)
    {
        /** @return a builder with exactly these parameters. */
        FilterBuilder builder()
        {
            final FilterBuilder builder = Filters.builder(kind);
            parameters.forEach(builder::param);
            return builder;
        }
    }

    /**
     * @param memoryBits M.
     * @param window     w, or null.
     * @param length     n, or null.
     * @param alphabet   U, or null (taken as infinite: no element repeats by chance).
     * @param target     x, or null.
     * @return the recommendation.
     * @throws IllegalArgumentException for bad input or when nothing meets the target.
     */
    static Recommendation recommend(final long memoryBits, final Long window, final Long length, final Long alphabet,
        final Double target)
    {
        check(memoryBits >= 1, "--memory-bits must be at least 1, got " + memoryBits);
        check(window == null || window >= 1, "--window must be at least 1, got " + window);
        check(length == null || length >= 1, "--stream-length must be at least 1, got " + length);
        check(alphabet == null || alphabet >= 2, "--alphabet must be at least 2, got " + alphabet);
        check(target == null || target > 0 && target < 1, "--target-fpr must be in (0, 1), got " + target);
        final double u = alphabet == null ? Double.POSITIVE_INFINITY : alphabet;
        return window == null ? unbounded(memoryBits, length, u, target) : windowed(memoryBits, window, u, target);
    }

    private static Recommendation unbounded(final long m, final Long length, final double u, final Double target)
    {
        check(target != null || length != null, "give --target-fpr or --stream-length: without a window every QHT " +
            "tends to FPR + FNR = 1 (seed 000 Claim 4.1), the target chooses the trade-off");
        Recommendation best = null;
        for (int s = 2; s <= MAX_BITS; s++)
        {
            final double fingerprints = Math.pow(2, s) - 1;
            final int low = target == null ? 1 : (int)Math.min(MAX_BUCKETS, Math.floor(target * fingerprints));
            final int high = target == null ? (int)Math.min(MAX_BUCKETS, fingerprints - 1) : low;
            for (int k = Math.max(low, 1); k <= high && k < fingerprints; k++)
            {
                final long rows = m / ((long)k * s);
                if (rows < 1 || rows * k < 2)
                {
                    continue;
                }
                final QhtModel model = new QhtModel(rows, k, s);
                final Recommendation candidate = length == null ?
                    new Recommendation(FilterKind.QHT, qhtParameters(m, k, s), model.asymptoticFalsePositiveRate(),
                        model.asymptoticFalseNegativeRate(), "seed 000 Th. 4.1-4.2 asymptotes k/S, 1 - k/S " +
                        "(smallest s for the target: slowest saturation, §4.5)") :
                    new Recommendation(FilterKind.QHT, qhtParameters(m, k, s), model.falsePositiveRate(length, u),
                        model.falseNegativeRate(length, u), "seed 000 Th. 4.1-4.2 over a uniform stream of " + length +
                        " elements from " + alphabetText(u));
                if (best == null || length != null && candidate.fpr() + candidate.fnr() < best.fpr() + best.fnr())
                {
                    best = candidate;
                }
            }
        }
        check(best != null, "no QHT of " + m + " bits reaches FPR " + target + " (k = floor(x (2^s - 1)) >= 1 " +
            "needs more memory or a larger target)");
        return best;
    }

    private static Recommendation windowed(final long m, final long w, final double u, final Double target)
    {
        final List<Recommendation> candidates = new ArrayList<>();
        for (final boolean compact : new boolean[] {false, true})
        {
            final ShortHashModel model = ShortHashModel.forMemory(m, w, compact);
            if (model != null)
            {
                final Map<String, Long> params = new LinkedHashMap<>();
                params.put("memory-bits", m);
                params.put("window", w);
                candidates.add(new Recommendation(compact ? FilterKind.CSHF : FilterKind.SHF, params,
                    model.falsePositive(), 0, "seed 001 Th. 3 with " + Math.min(64, ShortHashModel.fingerprintBits(m, w, compact)) +
                    "-bit fingerprints"));
            }
        }
        final List<long[]> queues = new ArrayList<>(); // {L, k, s, coarse FPR bits, coarse FNR bits}
        for (long l = 1; l <= Math.min(w, MAX_SUBFILTERS); l++)
        {
            if (w % l != 0)
            {
                continue;
            }
            final long each = m / l;
            for (int s = 2; s <= WINDOW_MAX_BITS; s++)
            {
                for (final int k : WINDOW_BUCKETS)
                {
                    final long rows = each / ((long)k * s);
                    if (k >= Math.pow(2, s) - 1 || rows < 1 || rows * k < 2)
                    {
                        continue;
                    }
                    final QueuingModel model = new QueuingModel(new QhtModel(rows, k, s), l, w / l, u, COARSE_PHASES);
                    queues.add(new long[] {l, k, s, Double.doubleToLongBits(model.falsePositiveRate()),
                        Double.doubleToLongBits(model.falseNegativeRate())});
                }
            }
        }
        queues.sort(Comparator.comparingDouble(q -> score(Double.longBitsToDouble(q[3]),
            Double.longBitsToDouble(q[4]), target)));
        for (final long[] q : queues.subList(0, Math.min(REFINED, queues.size())))
        {
            candidates.add(queue(m, w, u, q[0], (int)q[1], (int)q[2]));
        }
        candidates.sort(Comparator.comparingDouble(r -> score(r.fpr(), r.fnr(), target)));
        for (final Recommendation candidate : candidates)
        {
            if (target != null && candidate.fpr() > target)
            {
                break;
            }
            try
            {
                candidate.builder().parameters(); // the engine's own checks (e.g. largest table)
                return candidate;
            }
            catch (final IllegalArgumentException e)
            {
                // the model liked it but the engine cannot build it: try the next
            }
        }
        throw new IllegalArgumentException("no filter of " + m + " bits over window " + w + " is predicted to reach" +
            " FPR " + target + " (best: " + (candidates.isEmpty() ? "none" : String.format("%.4g",
            candidates.stream().mapToDouble(Recommendation::fpr).min().getAsDouble())) + ")");
    }

    private static Recommendation queue(final long m, final long w, final double u, final long l, final int k,
        final int s)
    {
        final QhtModel sub = QhtModel.forMemory(m / l, k, s);
        final QueuingModel model = new QueuingModel(sub, l, w / l, u);
        final QueuingPaperModel paper = new QueuingPaperModel(sub, l, w / l, u);
        final Map<String, Long> params = qhtParameters(m, k, s);
        params.put("window", w);
        params.put("subfilters", l);
        return new Recommendation(FilterKind.QHT, params, model.falsePositiveRate(), model.falseNegativeRate(),
            String.format("seed 001 Th. 5/7 and corrected Th. 6/8, %d subfilters of %d rows, uniform stream from " +
                "%s (Th. 7-8 as printed: FPR %.4g, FNR %.4g)", l, sub.rows(), alphabetText(u),
                paper.falsePositiveRate(), paper.falseNegativeRate()));
    }

    /** Lower is better; a candidate over the target sorts after every one under it. */
    private static double score(final double fpr, final double fnr, final Double target)
    {
        return (target != null && fpr > target ? 10 : 0) + fpr + fnr;
    }

    private static Map<String, Long> qhtParameters(final long m, final int k, final int s)
    {
        final Map<String, Long> params = new LinkedHashMap<>();
        params.put("memory-bits", m);
        params.put("buckets", (long)k);
        params.put("fingerprint-bits", (long)s);
        return params;
    }

    private static String alphabetText(final double u)
    {
        return Double.isInfinite(u) ? "an unbounded alphabet" : String.format("%.0f", u);
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
