package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.model.FifoBloomModel;
import io.ddf.engine.model.LoadPrediction;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a capacity and an error rate promise (RedisBloom's {@code BF.RESERVE key error_rate capacity}, issue 12):
 * up to the capacity at most {@value #MAX_FORGOTTEN} of the items added answer "absent", and the false positive
 * rate stays at most the error rate. The daemon's sizing and its check of a shaped {@code BF.RESERVE ... KIND}
 * line both come from here, with the same models the tuner weighs ({@link FifoBloomModel}, {@link LoadPrediction}).
 *
 * <p>Per kind, from its model:
 * <ul>
 *   <li>fifo-bloom: forgets nothing up to its own capacity; FPR at most its worst instant (every subfilter full)
 *       for ever.</li>
 *   <li>qht: forgets the occupancy model's evicted fraction after {@code capacity} insertions; FPR at most
 *       1 − (1 − 1/S)^k (every cell full) for ever.</li>
 *   <li>bloom: forgets nothing; its FPR is held at the capacity only (it grows past it: RedisBloom's non-scaling
 *       filter, which refuses adds there instead).</li>
 * </ul>
 * Other kinds have no model of their state after N insertions, so capacity and error rate cannot size them.
 */
public final class CapacitySizing
{
    /** Largest fraction of the items added that may answer "absent" at the capacity. */
    public static final double MAX_FORGOTTEN = 0.001;
    /** Kinds a capacity and an error rate size. */
    public static final Set<FilterKind> SIZED = EnumSet.of(FilterKind.FIFO_BLOOM, FilterKind.BLOOM, FilterKind.QHT);
    /**
     * The default's generations: L = 1 forgets every item at once past the capacity (not "the oldest"), and the
     * memory n·ln(L/ε)/ln²2 grows with L, so L = 2 is the least memory that forgets the oldest half.
     */
    static final int FIFO_GENERATIONS = 2;
    /** Cells per row tried for qht: one-word rows (k·s ≤ 64), the lock-free rows a server wants. */
    private static final int[] BUCKETS = {1, 2, 3, 4, 6, 8, 12, 16};
    private static final int WORD_BITS = 64;
    /**
     * qht is sized for this fraction of {@link #MAX_FORGOTTEN}: sized at the limit itself, 20,000 items measured
     * 0.110 and 0.135 % forgotten (CapacitySizingTest), the model's expectation with the noise on top.
     */
    private static final double QHT_MARGIN = 0.8;
    private static final int MAX_FINGERPRINT_BITS = 32;
    private static final String FIFO_MODEL = "FifoBloomModel over BlockedBloomModel: nothing forgotten up to the " +
        "capacity, worst FPR with every generation full";
    private static final String QHT_MODEL = "LoadPrediction.qht: rows' Poisson occupancy after the capacity's " +
        "insertions; FPR bound with every cell full";
    private static final String BLOOM_MODEL = "Bloom filter at the capacity (FPR grows past it)";

    private CapacitySizing()
    {
    }

    /**
     * The daemon's default sizing: of the kinds that keep the promise past the capacity too (fifo-bloom with L ≥ 2,
     * and qht with one-word rows), the one of least memory. Bloom is left out: its FPR passes the error rate once
     * the capacity is exceeded, and RedisBloom users' keys keep receiving items.
     *
     * @param capacity  items to hold, 1..2^40.
     * @param errorRate the largest FPR, in (0, 1).
     * @return the candidate: fpr is its largest FPR, fnr the fraction forgotten at the capacity.
     * @throws IllegalArgumentException for bad input.
     */
    public static Candidate forCapacity(final long capacity, final double errorRate)
    {
        final Candidate fifo = forCapacity(capacity, errorRate, FilterKind.FIFO_BLOOM);
        final Optional<Candidate> qht = qht(capacity, errorRate);
        return qht.isPresent() && memory(qht.get()) < memory(fifo) ? qht.get() : fifo;
    }

    /**
     * @param capacity  items to hold, at least 1.
     * @param errorRate the largest FPR, in (0, 1).
     * @param kind      one of {@link #SIZED}.
     * @return the least-memory shape of that kind keeping the promise.
     * @throws IllegalArgumentException for bad input, another kind, or a promise the kind cannot keep.
     */
    public static Candidate forCapacity(final long capacity, final double errorRate, final FilterKind kind)
    {
        check(capacity, errorRate);
        return switch (kind)
        {
            case FIFO_BLOOM -> fifoBloom(capacity, errorRate, FIFO_GENERATIONS);
            case BLOOM -> bloom(capacity, errorRate);
            case QHT -> qht(capacity, errorRate).orElseThrow(() -> new IllegalArgumentException("no qht of one-word " +
                "rows keeps the false positive rate at most " + errorRate));
            default -> throw new IllegalArgumentException("capacity and error rate do not size " + kind.cliName() +
                " (they size fifo-bloom, bloom and qht)");
        };
    }

    /**
     * @param parameters a filter's resolved parameters.
     * @param capacity   the capacity asked.
     * @param errorRate  the error rate asked.
     * @return why that filter does not keep the promise, or empty when it does.
     */
    public static Optional<String> refusal(final FilterParameters parameters, final long capacity,
        final double errorRate)
    {
        check(capacity, errorRate);
        final Promise p = promise(parameters, capacity);
        if (p == null)
        {
            return Optional.of("capacity and error rate do not size " + parameters.kind().cliName() +
                " (they size fifo-bloom, bloom and qht)");
        }
        if (p.forgotten > MAX_FORGOTTEN)
        {
            return Optional.of(String.format(Locale.ROOT, "this %s forgets %.3g %% of %d items (at most %.1f %% " +
                "allowed): give a capacity it holds", parameters.kind().cliName(), 100 * p.forgotten, capacity,
                100 * MAX_FORGOTTEN));
        }
        if (p.fpr > errorRate)
        {
            return Optional.of(String.format(Locale.ROOT, "this %s reaches a false positive rate of %.6g, above the " +
                "error rate %s", parameters.kind().cliName(), p.fpr, Candidate.format(errorRate)));
        }
        return Optional.empty();
    }

    /**
     * The capacity and error rate a filter promises, for its {@code BF.RESERVE} line: the largest capacity it
     * forgets at most {@value #MAX_FORGOTTEN} of, and its largest FPR up to there rounded up to three digits (for
     * bloom: its predicted FPR rounded up, and the largest capacity held under it).
     *
     * @param parameters a filter's resolved parameters.
     * @param fpr        the filter's predicted FPR on the stream it was tuned for (used by bloom only).
     * @return {capacity, error rate}, or empty when its kind is not sized so or it holds not even one item.
     */
    public static Optional<double[]> promise(final FilterParameters parameters, final double fpr)
    {
        final long capacity;
        final double error;
        switch (parameters.kind())
        {
            case FIFO_BLOOM ->
            {
                capacity = parameters.get("capacity");
                error = promise(parameters, capacity).fpr;
            }
            case QHT ->
            {
                capacity = largest(c -> promise(parameters, c).forgotten <= MAX_FORGOTTEN,
                    parameters.get("rows") * parameters.get("buckets"));
                error = promise(parameters, Math.max(1, capacity)).fpr;
            }
            case BLOOM ->
            {
                error = roundUp(Math.max(fpr, 1e-9));
                capacity = largest(c -> promise(parameters, c).fpr <= error, parameters.get("memory-bits"));
            }
            default ->
            {
                return Optional.empty();
            }
        }
        final double rounded = roundUp(error);
        return capacity < 1 || !(rounded < 1) ? Optional.empty() : Optional.of(new double[] {capacity, rounded});
    }

    /** {forgotten at the capacity, largest FPR} per the kind's model, or null for a kind not sized so. */
    private static Promise promise(final FilterParameters p, final long capacity)
    {
        return switch (p.kind())
        {
            case FIFO_BLOOM ->
            {
                final FifoBloomModel model = Predictions.fifoBloom(p);
                yield new Promise(model.falseNegativeRate(capacity), model.worstFalsePositiveRate());
            }
            case QHT -> new Promise(LoadPrediction.qht(p.get("rows"), (int)p.get("buckets"),
                (int)p.get("fingerprint-bits"), capacity).fnr(), fullRowFpr((int)p.get("buckets"),
                (int)p.get("fingerprint-bits")));
            case BLOOM -> new Promise(0, FifoBloomModel.bloomFpr(p.get("memory-bits"), (int)p.get("hash-functions"),
                capacity));
            default -> null;
        };
    }

    private static Candidate fifoBloom(final long capacity, final double errorRate, final int generations)
    {
        final long perGeneration = (capacity + generations - 1) / generations;
        final BlockedBloomModel layer = BlockedBloomModel.generationLayer(perGeneration, errorRate, generations, -1);
        final Map<String, Number> params = new LinkedHashMap<>();
        params.put("memory-bits", layer.bits() * generations);
        params.put("capacity", capacity);
        params.put("generations", (long)generations);
        params.put("hash-functions", (long)layer.hashFunctions());
        params.put("blocks-per-item", (long)layer.blocksPerItem());
        params.put("target-fpr", errorRate);
        final FifoBloomModel model = FifoBloomModel.blocked(layer, capacity, generations);
        return new Candidate(FilterKind.FIFO_BLOOM, params, model.worstFalsePositiveRate(),
            model.falseNegativeRate(capacity), FIFO_MODEL, "");
    }

    private static Candidate bloom(final long capacity, final double errorRate)
    {
        final long[] size = FifoBloomModel.bloomSize(capacity, errorRate);
        final Map<String, Number> params = new LinkedHashMap<>();
        params.put("memory-bits", size[0]);
        params.put("hash-functions", size[1]);
        return new Candidate(FilterKind.BLOOM, params, FifoBloomModel.bloomFpr(size[0], (int)size[1], capacity), 0,
            BLOOM_MODEL, "past the capacity the false positive rate passes the error rate");
    }

    /** The least-memory one-word-row QHT: for each k the narrowest s under the error rate, the fewest rows. */
    private static Optional<Candidate> qht(final long capacity, final double errorRate)
    {
        Candidate best = null;
        for (final int k : BUCKETS)
        {
            int s = 2;
            while (s <= Math.min(MAX_FINGERPRINT_BITS, WORD_BITS / k) && (k >= (1L << s) - 1 ||
                fullRowFpr(k, s) > errorRate))
            {
                s++;
            }
            if (s > Math.min(MAX_FINGERPRINT_BITS, WORD_BITS / k))
            {
                continue;
            }
            final int bits = s;
            // the evicted fraction falls as rows grow: the least rows holding the capacity
            final long rows = 1 + largest(n -> n == 0 || LoadPrediction.qht(n, k, bits, capacity).fnr() >
                QHT_MARGIN * MAX_FORGOTTEN, Tuner.MAX_MEMORY_BITS / ((long)k * s));
            if (rows > Tuner.MAX_MEMORY_BITS / ((long)k * s))
            {
                continue;
            }
            final Map<String, Number> params = new LinkedHashMap<>();
            params.put("memory-bits", rows * k * s);
            params.put("buckets", (long)k);
            params.put("fingerprint-bits", (long)s);
            final Candidate c = new Candidate(FilterKind.QHT, params, fullRowFpr(k, s),
                LoadPrediction.qht(rows, k, s, capacity).fnr(), QHT_MODEL, "");
            if (best == null || memory(c) < memory(best))
            {
                best = c;
            }
        }
        return Optional.ofNullable(best);
    }

    /** 1 − (1 − 1/S)^k, S = 2^s − 1: a probe against a row of k fingerprints. */
    static double fullRowFpr(final int buckets, final int fingerprintBits)
    {
        return -Math.expm1(buckets * Math.log1p(-1 / (Math.pow(2, fingerprintBits) - 1)));
    }

    /** The largest x in [0, high] with ok(x), for ok true on a prefix of the range (ok(0) assumed). */
    private static long largest(final java.util.function.LongPredicate ok, final long high)
    {
        if (ok.test(high))
        {
            return high;
        }
        long good = 0;
        long bad = high;
        while (bad - good > 1)
        {
            final long mid = good + (bad - good) / 2;
            if (ok.test(mid))
            {
                good = mid;
            }
            else
            {
                bad = mid;
            }
        }
        return good;
    }

    /** Rounded up to three significant digits, so that the printed error rate is one the filter meets. */
    static double roundUp(final double x)
    {
        final double step = Math.pow(10, Math.floor(Math.log10(x)) - 2);
        double r = Double.parseDouble(Candidate.format(Math.ceil(x / step) * step));
        while (r < x)
        {
            r = Double.parseDouble(Candidate.format(r + step));
        }
        return r;
    }

    private static long memory(final Candidate c)
    {
        return c.parameters().get("memory-bits").longValue();
    }

    private static void check(final long capacity, final double errorRate)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        if (!(errorRate > 0 && errorRate < 1))
        {
            throw new IllegalArgumentException("error rate must be in (0, 1), got " + errorRate);
        }
    }

    private record Promise(double forgotten, double fpr)
    {
    }
}
