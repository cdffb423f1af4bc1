package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.model.FifoBloomModel;
import io.ddf.engine.model.InsertedLoad;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The capacity filter ({@code fifo-bloom}) on a uniform stream without a window: its shapes for a memory budget and
 * their predicted rates along the stream.
 *
 * <p>The model (mean field over the stream, uniform draws over U; U infinite allowed): the filter holds the
 * H = held(I) most recently inserted items ({@link FifoBloomModel#held}), I the items judged new so far, plus B
 * elements blocked by a false positive (a Bloom false positive is the same for the same element until the
 * generations it matched are recycled, so a blocked element keeps answering "present"; B decays as the filter
 * turns over). A duplicate (one of the D(t) elements seen so far) is present with probability q = (H + B)/D. With
 * f(I) the Bloom FPR of the held generations:
 * <ul>
 *   <li>an unseen arrival is a false positive with probability f(I);</li>
 *   <li>a duplicate is a false negative with probability (1 − q)(1 − f(I)): forgotten and no false match;</li>
 *   <li>I grows by the arrivals judged new (unseen, or seen and absent) times 1 − f(I); B by those times f(I).</li>
 * </ul>
 * The sums run over {@value #STEPS} steps of the stream (or of the horizon of an endless one). A subfilter's FPR after
 * r insertions is {@link #insertedFprTable}'s: the inserted items are those that were not false positives
 * ({@link InsertedLoad}, shared with FifoBloomModel and BF.INFO).
 * Validity: uniform streams only (a Zipf stream's held items are not a uniform sample of the seen ones), K ≥ 2.
 * Measured (ModelVsMeasurementTest, 600,000 elements over 67,108 and 536,871): within 0.4 points of FPR and 0.8 of
 * FNR at 3 bits or more per capacity item and when nothing is forgotten; at 2 bits per item the FNR 3.3–4.4 points
 * above the model (blocked elements: B's decay over one generation is a rough guess). K = 1 is not offered: the
 * generations use the same bit positions, and an item is inserted only where its bit is clear in every generation,
 * so with one hash the generations partition the bits and the filter's FPR is their union (measured 77–96 % against
 * the product form's 58–63 %, nothing forgotten against 14–30 %).
 */
final class FifoBloomCandidates
{
    /** Steps of the mean-field sums. */
    static final int STEPS = 2000;
    /** Phases of a rotation averaged when a step spans whole rotations. */
    private static final int PHASES = 8;
    /** Grid of {@link #insertedFprTable}. */
    private static final int GRID = 256;
    /** Points of a blocked generation's rate table. */
    private static final int BLOCKED_GRID = 32;
    /** Memory per capacity item tried, bits. */
    private static final double[] BITS_PER_ITEM = {2, 3, 4, 6, 8, 12, 16, 24, 32};
    /** Generations tried. */
    private static final int[] GENERATIONS = {1, 2, 3, 4, 8, 16};
    private static final long MIN_SUBFILTER_BITS = 64;
    private static final long MAX_CAPACITY = 1L << 40;
    private static final String MODEL = "fifo-bloom: the newest held(I) items of I judged new, Bloom FPR per " +
        "generation (FifoBloomModel), mean field along the stream";

    private static final String DENSE = "fewer than 3 bits per capacity item while forgetting: with blocked " +
        "generations measured up to 9 points of FPR above and 16 of FNR below the model (2 bits per item, 2.7 x 10^5 " +
        "distinct)";
    private static final double DENSE_BITS = 3;
    private static final String SMALL = "subfilters under 1,024 bits: measured 4.7 points off the model (100 bits, " +
        "bench/results/seed000-table2-tuner-scale0.01)";
    private static final long SMALL_BITS = 1024;

    private FifoBloomCandidates()
    {
    }

    /**
     * @param memory   M.
     * @param workload a uniform stream without a window.
     * @param weights  its weights (horizon, distinct counts).
     * @return the shapes that fit M, with predicted rates.
     */
    static List<Candidate> all(final long memory, final Workload workload, final StreamWeights weights)
    {
        final List<Candidate> out = new ArrayList<>();
        for (final int l : GENERATIONS)
        {
            // the blocked layout new filters take: whole 512-bit blocks per generation
            final long blocks = memory / l / BlockedBloomModel.BLOCK_BITS;
            final long bits = blocks * BlockedBloomModel.BLOCK_BITS;
            if (bits < MIN_SUBFILTER_BITS)
            {
                continue;
            }
            long previous = -1;
            for (final double b : BITS_PER_ITEM)
            {
                final long capacity = Math.min(MAX_CAPACITY, Math.round(memory / l * l / b));
                final long perSubfilter = (capacity + l - 1) / l;
                if (capacity < l || capacity == previous)
                {
                    continue;
                }
                previous = capacity;
                final int k = BlockedBloomModel.bestHashFunctions(blocks, 1, perSubfilter);
                final BlockedBloomModel layer = new BlockedBloomModel(blocks, k, 1);
                final Map<String, Number> params = new LinkedHashMap<>();
                params.put("memory-bits", memory); // the filter takes the whole blocks of it, bits · l
                params.put("capacity", capacity);
                params.put("generations", (long)l);
                params.put("hash-functions", (long)k);
                params.put("blocks-per-item", 1L);
                final double[] rates = rates(FifoBloomModel.blocked(layer, capacity, l), insertedFprTable(layer,
                    perSubfilter), perSubfilter, l, workload.alphabet(), weights);
                out.add(new Candidate(FilterKind.FIFO_BLOOM, params, rates[0], rates[1], MODEL,
                    bits < SMALL_BITS ? SMALL : b < DENSE_BITS && capacity < distinct(weights) ? DENSE : ""));
            }
        }
        return out;
    }

    private static double distinct(final StreamWeights weights)
    {
        return weights.distinct(weights.horizon());
    }

    /**
     * @return {FPR, FNR} along the stream, by the mean field of the class comment.
     */
    static double[] rates(final FifoBloomModel model, final double[] table, final long perSubfilter,
        final int generations, final double alphabet, final StreamWeights weights)
    {
        final double horizon = weights.horizon();
        final double step = horizon / STEPS;
        double inserted = 0;
        double blocked = 0;
        double unseen = 0;
        double falsePositives = 0;
        double duplicates = 0;
        double falseNegatives = 0;
        for (int i = 0; i < STEPS; i++)
        {
            final double t = (i + 0.5) * step;
            final double distinct = weights.distinct(t);
            final double growth = step; // at most one insertion per arrival: decides whether a step spans rotations
            final double held;
            final double fpr;
            if (inserted > (double)generations * perSubfilter && growth >= perSubfilter)
            {
                // a step spans whole rotations: average over the newest generation's load r, uniform in [1, c]
                double sumHeld = 0;
                double sumFpr = 0;
                for (int j = 0; j < PHASES; j++)
                {
                    final long h = (generations - 1) * perSubfilter + Math.max(1, Math.round((j + 0.5) *
                        perSubfilter / PHASES));
                    sumHeld += h;
                    sumFpr += fpr(h, table, perSubfilter, generations);
                }
                held = sumHeld / PHASES;
                fpr = sumFpr / PHASES;
            }
            else
            {
                final long h = model.held((long)(inserted + growth / 2));
                held = h;
                fpr = fpr(h, table, perSubfilter, generations);
            }
            final double pUnseen = Double.isInfinite(alphabet) ? 1 : Math.exp(-t / alphabet);
            // a seen element answers "present" if held, or if it was blocked by a false positive, which stays one
            // until the generations it matched are recycled
            final double present = distinct <= 0 ? 1 : Math.min(1, (held + blocked) / distinct);
            final double absentSeen = (1 - pUnseen) * (1 - present);
            unseen += pUnseen * step;
            falsePositives += pUnseen * fpr * step;
            duplicates += (1 - pUnseen) * step;
            falseNegatives += absentSeen * (1 - fpr) * step;
            final double added = (pUnseen + absentSeen) * (1 - fpr) * step;
            final double full = (double)generations * perSubfilter;
            blocked += (pUnseen + absentSeen) * fpr * step - (inserted > full ? blocked * Math.min(1, added /
                perSubfilter) : 0);
            inserted += added;
        }
        return new double[] {unseen == 0 ? 0 : falsePositives / unseen, duplicates == 0 ? 0 :
            falseNegatives / duplicates};
    }

    /** 1 − Π (1 − p(n_i)) over the generations, the newest holding the remainder. */
    private static double fpr(final long held, final double[] table, final long perSubfilter, final int generations)
    {
        long remaining = held;
        double none = 1;
        for (int i = 0; i < generations && remaining > 0; i++)
        {
            final long load = i == 0 && remaining % perSubfilter != 0 ? remaining % perSubfilter : perSubfilter;
            none *= 1 - at(table, (double)load / perSubfilter);
            remaining -= load;
        }
        return 1 - none;
    }

    /**
     * The FPR of one subfilter after r insertions, for r / c on a grid of {@value #GRID} steps: the inserted items are
     * those that were not false positives, so it is Bloom's at the x(r) items offered ({@link InsertedLoad}, the same
     * model BF.INFO uses), above p(r) (at 2 bits per item, K = 2, 0.30 against 0.37 measured).
     */
    static double[] insertedFprTable(final long bits, final int k, final long perSubfilter)
    {
        return InsertedLoad.fprTable(bits, k, perSubfilter, GRID);
    }

    /**
     * The same for a blocked generation ({@link BlockedBloomModel#fprTable}), whose rate costs far more to compute:
     * {@value #BLOCKED_GRID} points, interpolated linearly onto the grid.
     */
    static double[] insertedFprTable(final BlockedBloomModel layer, final long perSubfilter)
    {
        final double[] coarse = layer.fprTable(perSubfilter, BLOCKED_GRID);
        final double[] table = new double[GRID + 1];
        for (int j = 0; j <= GRID; j++)
        {
            final double pos = (double)j * BLOCKED_GRID / GRID;
            final int i = Math.min(BLOCKED_GRID - 1, (int)pos);
            table[j] = coarse[i] + (pos - i) * (coarse[i + 1] - coarse[i]);
        }
        return table;
    }

    /** Linear interpolation in a {@link #insertedFprTable} at fraction f ∈ [0, 1] of c. */
    private static double at(final double[] table, final double f)
    {
        final double pos = Math.min(GRID, Math.max(0, f * GRID));
        final int j = (int)Math.min(GRID - 1, Math.floor(pos));
        return table[j] + (pos - j) * (table[j + 1] - table[j]);
    }
}
