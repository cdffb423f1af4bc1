package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Picks a filter kind and its shape for a memory budget (or a capacity and an error rate) from the error models
 * of {@code io.ddf.engine.model}: every kind with a model is enumerated over its shapes, each shape's FPR and FNR
 * predicted for the stream ({@link Workload}), and the objective ({@link Objective}: weighted cost, optional caps)
 * ranks them. Shapes the engine would refuse are skipped.
 *
 * <p>Entry points: {@link #tune} (everything: the pick, the best per kind, the trade-off frontier),
 * {@link #pick} (the pick only), {@link #forCapacity} (the daemon's default sizing, {@link CapacitySizing}).
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
public final class Tuner
{
    /** Largest memory the engine builds: 2^43 bits. */
    public static final long MAX_MEMORY_BITS = 1L << 43;

    private static final Map<FilterKind, String> UNBOUNDED_GAPS = new EnumMap<>(Map.of(
        FilterKind.CUCKOO, "no model: the streaming cuckoo filter's fill by relocation and its drop-the-last-victim " +
            "eviction have no closed form here",
        FilterKind.DSQF, "no model: its shared bucket pool with LRU eviction couples the rows",
        FilterKind.RSBF, "no model: its paper's analysis (Bera et al. 2012) does not reproduce " +
            "(bench/results/README.md)",
        FilterKind.BSBF, "no model: its paper (Bera et al. 2012) gives a recursion whose limit (FNR -> 0) " +
            "measurement contradicts",
        FilterKind.BSBFSD, "no model: as BSBF",
        FilterKind.RLBSBF, "no model: as BSBF",
        FilterKind.A2, "no model: its buffers swap after a quota of insertions, which depends on the verdicts",
        FilterKind.BDBF, "windowed counters; on an unbounded stream not modelled"));
    private static final String FIFO_ZIPF = "modelled on uniform streams only: on a skewed stream its held items " +
        "are not a uniform sample of the elements seen";
    private static final String WINDOW_ONLY = "a windowed filter: give --window";
    private static final String QUEUE_GAP = "not modelled as a windowed filter (only the queue of QHT " +
        "subfilters, SHF, CSHF and the exact window are)";

    private Tuner()
    {
    }

    /**
     * @param memoryBits M, in 1..2^43.
     * @param workload   the stream.
     * @param objective  what to minimise, under which caps.
     * @return the pick, the best per kind and the trade-off frontier.
     * @throws IllegalArgumentException for a memory out of range, or when no modelled filter fits the memory.
     */
    public static Tuning tune(final long memoryBits, final Workload workload, final Objective objective)
    {
        return tune(memoryBits, workload, objective, EnumSet.allOf(FilterKind.class));
    }

    /**
     * @param memoryBits M, in 1..2^43.
     * @param workload   the stream.
     * @param objective  what to minimise.
     * @param kinds      the kinds to consider (others are left out).
     * @return the pick, the best per kind and the trade-off frontier.
     */
    public static Tuning tune(final long memoryBits, final Workload workload, final Objective objective,
        final Set<FilterKind> kinds)
    {
        return tune(memoryBits, workload, objective, kinds, c -> true);
    }

    private static Tuning tune(final long memoryBits, final Workload workload, final Objective objective,
        final Set<FilterKind> kinds, final Predicate<Candidate> shapes)
    {
        if (memoryBits < 1 || memoryBits > MAX_MEMORY_BITS)
        {
            throw new IllegalArgumentException("memory must be in 1..2^43 bits, got " + memoryBits);
        }
        final List<Candidate> all = new ArrayList<>();
        for (final Candidate c : workload.windowed() ? WindowCandidates.all(memoryBits, workload) :
            UnboundedCandidates.all(memoryBits, workload, kinds))
        {
            if (kinds.contains(c.kind()) && shapes.test(c) && Double.isFinite(c.fpr()) && Double.isFinite(c.fnr()))
            {
                all.add(c);
            }
        }
        if (objective.changelog())
        {
            // each candidate's changelog cost, worked out once for the sort
            final double newFraction = ChangelogCost.newFraction(workload);
            final Map<Candidate, ChangelogCost> costs = new java.util.IdentityHashMap<>();
            for (final Candidate c : all)
            {
                costs.put(c, ChangelogCost.estimate(c, workload, newFraction));
            }
            all.sort((a, b) -> objective.compare(a, b, costs::get));
        }
        else
        {
            all.sort(objective::compare);
        }
        Candidate pick = null;
        final Map<String, Candidate> perKind = new LinkedHashMap<>();
        for (final Candidate c : all)
        {
            if (!perKind.containsKey(c.family()) && buildable(c))
            {
                perKind.put(c.family(), c);
                pick = pick == null ? c : pick;
            }
        }
        if (pick == null)
        {
            throw new IllegalArgumentException("no modelled filter fits in " + memoryBits + " bits" +
                (workload.windowed() ? " for window " + workload.window() : ""));
        }
        return new Tuning(memoryBits, workload, objective, pick, List.copyOf(perKind.values()), frontier(all),
            all.size(), notModelled(workload, kinds));
    }

    /**
     * @param memoryBits M.
     * @param workload   the stream.
     * @param objective  what to minimise.
     * @return the best candidate (check {@link Objective#admits} when the objective has caps).
     */
    public static Candidate pick(final long memoryBits, final Workload workload, final Objective objective)
    {
        return tune(memoryBits, workload, objective).pick();
    }

    /**
     * The daemon's default sizing for {@code BF.RESERVE key error_rate capacity} and auto-created keys: the
     * least-memory filter that keeps RedisBloom's promise (at most 0.1 % of the items forgotten at the capacity, the
     * false positive rate at most the error rate, also past the capacity), by {@link CapacitySizing}.
     *
     * @param capacity  items to hold, at least 1.
     * @param errorRate the largest FPR, in (0, 1).
     * @return the candidate (fpr: its largest FPR; fnr: the fraction forgotten at the capacity).
     * @throws IllegalArgumentException for bad input.
     */
    public static Candidate forCapacity(final long capacity, final double errorRate)
    {
        return CapacitySizing.forCapacity(capacity, errorRate);
    }

    /**
     * The model's prediction for one shape the tuner enumerates (for checking a model against measurement).
     *
     * @param kind       the kind.
     * @param parameters its parameters as the tuner writes them (memory-bits first; window and subfilters for a
     *                   queue; target-fpr as a Double for SBF).
     * @param workload   the stream.
     * @return the candidate with its predicted rates.
     * @throws IllegalArgumentException when the tuner has no model for that shape.
     */
    public static Candidate predict(final FilterKind kind, final Map<String, Number> parameters,
        final Workload workload)
    {
        final Number memory = parameters.get("memory-bits");
        if (memory == null)
        {
            throw new IllegalArgumentException("give memory-bits");
        }
        final List<Candidate> shapes = workload.windowed() ? WindowCandidates.all(memory.longValue(), workload) :
            UnboundedCandidates.all(memory.longValue(), workload, EnumSet.of(kind));
        for (final Candidate c : shapes)
        {
            if (c.kind() == kind && c.parameters().equals(parameters))
            {
                return c;
            }
        }
        throw new IllegalArgumentException("the tuner has no model for " + kind.cliName() + " " + parameters);
    }

    private static boolean buildable(final Candidate c)
    {
        try
        {
            c.builder().parameters();
            return true;
        }
        catch (final IllegalArgumentException e)
        {
            return false;
        }
    }

    /** The candidates not beaten on both rates by another, by increasing FPR. */
    private static List<Candidate> frontier(final List<Candidate> all)
    {
        final List<Candidate> byFpr = new ArrayList<>(all);
        byFpr.sort((a, b) -> a.fpr() != b.fpr() ? Double.compare(a.fpr(), b.fpr()) : Double.compare(a.fnr(), b.fnr()));
        final List<Candidate> frontier = new ArrayList<>();
        double bestFnr = Double.POSITIVE_INFINITY;
        for (final Candidate c : byFpr)
        {
            if (c.fnr() < bestFnr && buildable(c))
            {
                frontier.add(c);
                bestFnr = c.fnr();
            }
        }
        return Collections.unmodifiableList(frontier);
    }

    private static Map<FilterKind, String> notModelled(final Workload workload, final Set<FilterKind> kinds)
    {
        final Map<FilterKind, String> gaps = new EnumMap<>(FilterKind.class);
        for (final FilterKind kind : kinds)
        {
            if (kind == FilterKind.QUEUE)
            {
                continue;
            }
            if (workload.windowed())
            {
                if (kind != FilterKind.QHT && kind != FilterKind.SHF && kind != FilterKind.CSHF &&
                    kind != FilterKind.EXACT_WINDOW)
                {
                    gaps.put(kind, QUEUE_GAP);
                }
            }
            else if (kind == FilterKind.FIFO_BLOOM && workload.zipf() != 0)
            {
                gaps.put(kind, FIFO_ZIPF);
            }
            else if (UNBOUNDED_GAPS.containsKey(kind))
            {
                gaps.put(kind, UNBOUNDED_GAPS.get(kind));
            }
            else if (kind == FilterKind.SHF || kind == FilterKind.CSHF || kind == FilterKind.EXACT_WINDOW)
            {
                gaps.put(kind, WINDOW_ONLY);
            }
        }
        return gaps;
    }
}
