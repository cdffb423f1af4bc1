package io.ddf.engine.tune;

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
import java.util.Locale;
import java.util.Map;

/**
 * The windowed constructions with a model, steady state on a uniform stream: SHF and CSHF (sliding-window paper Th. 3,
 * no false negative), the exact window (sliding-window paper Th. 1, when the memory holds it), and the queuing
 * construction over QHT subfilters (sliding-window paper Th. 5/7 and the corrected Th. 6/8 of {@link QueuingModel}), L
 * among the divisors of w (the engine needs w = cL), each L with the subfilters' s and k; the few best by a coarse pass
 * are evaluated exactly.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
final class WindowCandidates
{
    private static final int MAX_BITS = 20;
    private static final int[] BUCKETS = {1, 2, 3, 4, 6, 8};
    private static final long MAX_SUBFILTERS = 4096;
    private static final int COARSE_PHASES = 32;
    private static final int REFINED = 24;

    private WindowCandidates()
    {
    }

    /**
     * @param memory   M.
     * @param workload a windowed uniform stream.
     * @return the candidates.
     */
    static List<Candidate> all(final long memory, final Workload workload)
    {
        final long w = workload.window();
        final double u = workload.alphabet();
        final List<Candidate> out = new ArrayList<>();
        for (final boolean compact : new boolean[] {false, true})
        {
            final ShortHashModel model = ShortHashModel.forMemory(memory, w, compact);
            if (model != null)
            {
                out.add(new Candidate(compact ? FilterKind.CSHF : FilterKind.SHF, params(memory, "window", w),
                    model.falsePositive(), 0, "Geraud-Stewart et al. 2020 Th. 3 with " + Math.min(64,
                    ShortHashModel.fingerprintBits(memory, w, compact)) + "-bit fingerprints", ""));
            }
        }
        if (exactWindowBits(w) <= memory)
        {
            final Map<String, Number> p = new LinkedHashMap<>();
            p.put("window", w);
            out.add(new Candidate(FilterKind.EXACT_WINDOW, p, w / Math.pow(2, 64), 0,
                "Geraud-Stewart et al. 2020 Th. 1: errs only on a 64-bit hash collision within the window", ""));
        }
        final List<double[]> queues = new ArrayList<>(); // {L, k, s, coarse cost}
        for (long l = 1; l <= Math.min(w, MAX_SUBFILTERS); l++)
        {
            if (w % l != 0)
            {
                continue;
            }
            final long each = memory / l;
            for (int s = 2; s <= MAX_BITS; s++)
            {
                for (final int k : BUCKETS)
                {
                    final long rows = each / ((long)k * s);
                    if (k >= Math.pow(2, s) - 1 || rows < 1 || rows * k < 2)
                    {
                        continue;
                    }
                    final QueuingModel model = new QueuingModel(new QhtModel(rows, k, s), l, w / l, u, COARSE_PHASES);
                    queues.add(new double[] {l, k, s, model.falsePositiveRate(), model.falseNegativeRate()});
                }
            }
        }
        // the coarse pass keeps the few best for each of a spread of trade-offs, so that every objective finds its own
        final List<double[]> kept = new ArrayList<>();
        for (final double fprShare : new double[] {0.5, 0.1, 0.9})
        {
            queues.sort(Comparator.comparingDouble(q -> fprShare * q[3] + (1 - fprShare) * q[4]));
            for (final double[] q : queues.subList(0, Math.min(REFINED / 3, queues.size())))
            {
                if (!kept.contains(q))
                {
                    kept.add(q);
                }
            }
        }
        for (final double[] q : kept)
        {
            out.add(queue(memory, w, u, (long)q[0], (int)q[1], (int)q[2]));
        }
        return out;
    }

    /** @return the exact window's table in bits, as the engine sizes it. */
    static double exactWindowBits(final long w)
    {
        try
        {
            return 8.0 * Filters.builder(FilterKind.EXACT_WINDOW).window(w).parameters().tableBytes();
        }
        catch (final IllegalArgumentException e)
        {
            return Double.POSITIVE_INFINITY; // a window the engine cannot hold
        }
    }

    private static Candidate queue(final long m, final long w, final double u, final long l, final int k, final int s)
    {
        final QhtModel sub = QhtModel.forMemory(m / l, k, s);
        final QueuingModel model = new QueuingModel(sub, l, w / l, u);
        final QueuingPaperModel paper = new QueuingPaperModel(sub, l, w / l, u);
        final Map<String, Number> params = params(m, "buckets", k);
        params.put("fingerprint-bits", (long)s);
        params.put("window", w);
        params.put("subfilters", l);
        return new Candidate(FilterKind.QHT, params, model.falsePositiveRate(), model.falseNegativeRate(),
            String.format(Locale.ROOT, "Geraud-Stewart et al. 2020 Th. 5/7 and corrected Th. 6/8, %d subfilters of " +
                "%d rows (Th. 7-8 as printed: FPR %.4g, FNR %.4g)", l, sub.rows(), paper.falsePositiveRate(),
                paper.falseNegativeRate()),
            "steady state; subfilters at the mean traffic per row");
    }

    private static Map<String, Number> params(final long memory, final String name, final long value)
    {
        final Map<String, Number> params = new LinkedHashMap<>();
        params.put("memory-bits", memory);
        params.put(name, value);
        return params;
    }
}
