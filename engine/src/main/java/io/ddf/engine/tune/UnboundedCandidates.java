package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;
import io.ddf.engine.model.InsertAlwaysModel;
import io.ddf.engine.model.QhtModel;
import io.ddf.engine.model.RowShares;
import io.ddf.engine.model.StableBloomModel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongToDoubleFunction;

/**
 * The shapes tried for each kind with a model on a stream without a window, and their predicted rates: QHT (seed
 * 000 Th. 4.1–4.2, averaged over the rows' share of a finite alphabet), SQF (the same model with S = 1 / the
 * signatures' collision probability, QHT paper §4.4), QHTD and QQHTD ({@link InsertAlwaysModel}), the Bloom filter
 * (saturating), SBF ({@link StableBloomModel}) and fifo-bloom ({@link FifoBloomCandidates}, uniform streams).
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
final class UnboundedCandidates
{
    /** Cells per row tried for the quotient kinds. */
    private static final int[] BUCKETS = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
    private static final int[] FEW_BUCKETS = {1, 2, 4, 8, 16};
    private static final int MAX_BITS = 32;
    private static final int SQF_MAX_REMAINDER = 16;
    /** QHTD/QQHTD: widths beyond this give FPRs below 10^−5 at k ≤ 16, which QHT reaches as well (and faster). */
    private static final int INSERT_ALWAYS_MAX_BITS = 20;
    private static final int BLOOM_MAX_HASHES = 16;
    private static final double[] SBF_TARGETS = {0.001, 0.003, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5};
    /** Below this many others per row, k &gt; 1 quotient models drift (a row's few fingerprints come back). */
    private static final double FEW_OTHERS = 50;

    /**
     * Zipf checks, measured with {@code bin/ddf bench accuracy --stream zipf --alphabet 1000000 --exponent 1.1
     * --length 2000000 --memory-bits 100000} against the predictions: QHT k=1 s=3 12.12 / 10.13 % (predicted 12.13 /
     * 10.00), QHT k=4 s=8 1.52 / 17.38 (1.48 / 17.90), SQF k=1 r=3 r'=1 19.05 / 9.19 (19.06 / 9.05), Bloom K=2
     * 66.59 / 0 (66.57 / 0), QQHTD k=2 s=3 21.37 / 8.17 (25.66 / 12.37), SBF d=2 K=2 1.54 / 28.01 (2.02 / 31.29).
     */
    private static final String ZIPF_QUOTIENT = "Zipf: rows change with the distinct elements that arrive, D(t); " +
        "measured within 0.5 points at exponent 1.1";
    private static final String ZIPF_INSERT_ALWAYS = "Zipf: a heavy element's repeats refill its row with its own " +
        "fingerprint, which the model does not follow; measured 4 points below it at exponent 1.1";
    private static final String ZIPF_SBF = "Zipf: repeats set the same cells again; measured FNR 3 points below the " +
        "model at exponent 1.1";

    private final long memory;
    private final Workload workload;
    private final StreamWeights weights;
    private final List<Candidate> out = new ArrayList<>();

    private UnboundedCandidates(final long memory, final Workload workload)
    {
        this.memory = memory;
        this.workload = workload;
        this.weights = new StreamWeights(workload);
    }

    /**
     * @param memory   M.
     * @param workload the stream (no window).
     * @param kinds    the kinds wanted.
     * @return every candidate of those kinds with a model, each kind's shapes.
     */
    static List<Candidate> all(final long memory, final Workload workload, final Set<FilterKind> kinds)
    {
        final UnboundedCandidates c = new UnboundedCandidates(memory, workload);
        if (kinds.contains(FilterKind.QHT))
        {
            c.qht();
        }
        if (kinds.contains(FilterKind.SQF))
        {
            c.sqf();
        }
        for (final FilterKind kind : new FilterKind[] {FilterKind.QQHTD, FilterKind.QHTD})
        {
            if (kinds.contains(kind))
            {
                c.insertAlways(kind);
            }
        }
        if (kinds.contains(FilterKind.BLOOM))
        {
            c.bloom();
        }
        if (kinds.contains(FilterKind.SBF))
        {
            c.sbf();
        }
        if (kinds.contains(FilterKind.FIFO_BLOOM) && workload.zipf() == 0)
        {
            c.out.addAll(FifoBloomCandidates.all(memory, workload, c.weights));
        }
        return c.out;
    }

    private void qht()
    {
        for (int s = 2; s <= MAX_BITS; s++)
        {
            for (final int k : BUCKETS)
            {
                final long rows = memory / ((long)k * s);
                if (k >= Math.pow(2, s) - 1 || rows < 1 || rows * k < 2)
                {
                    continue;
                }
                quotient(FilterKind.QHT, new QhtModel(rows, k, s), params("buckets", k, "fingerprint-bits", s),
                    "Geraud et al. 2019 Th. 4.1-4.2, rows' share of the alphabet averaged (RowShares)");
            }
        }
    }

    private void sqf()
    {
        for (int r = 1; r <= SQF_MAX_REMAINDER; r++)
        {
            for (int reduced = 0; reduced < r; reduced++)
            {
                final int bits = reduced + 64 - Long.numberOfLeadingZeros(r);
                final long distinct = (1L << reduced) * (r - reduced + 1) - 1;
                for (final int k : FEW_BUCKETS)
                {
                    final long rows = memory / ((long)k * bits);
                    final double collision = sqfCollision(r, reduced);
                    // k ≥ 1/collision: the model's k/S would exceed 1 (such rows answer DUPLICATE to nearly all)
                    if (bits > MAX_BITS || k >= distinct || k * collision >= 1 || rows < 1 || rows * k < 2)
                    {
                        continue;
                    }
                    quotient(FilterKind.SQF, QhtModel.withCollision(rows, k, bits, collision),
                        params("buckets", k, "remainder-bits", r, "reduced-bits", reduced),
                        "Geraud et al. 2019 Th. 4.1-4.2 with S = 1/P(two signatures collide) (its §4.4)");
                }
            }
        }
    }

    /**
     * @param r       remainder bits.
     * @param reduced r'.
     * @return the probability that two elements' SQF signatures (top r' bits, Hamming weight; the zero remainder
     *         re-derived) are equal: (2^−r' C(2d, d) 4^−d − 4^−r) / (1 − 2^−r)^2, d = r − r'.
     */
    static double sqfCollision(final int r, final int reduced)
    {
        double central = 1; // C(2d, d) / 4^d = Π (2i − 1) / 2i
        for (int i = 1; i <= r - reduced; i++)
        {
            central *= (2.0 * i - 1) / (2.0 * i);
        }
        final double zero = Math.pow(2, -r);
        return (Math.pow(2, -reduced) * central - zero * zero) / ((1 - zero) * (1 - zero));
    }

    private void quotient(final FilterKind kind, final QhtModel model, final Map<String, Number> params,
        final String basis)
    {
        final double fpr;
        final double fnr;
        String validity = "";
        if (workload.zipf() == 0)
        {
            final long n = (long)Math.min(weights.horizon(), 1e18);
            fpr = model.falsePositiveRate(n, workload.alphabet());
            fnr = model.falseNegativeRate(n, workload.alphabet());
        }
        else
        {
            // A QHT row changes only when an element it does not hold arrives: over a skewed stream, count the
            // distinct elements D(t) among the t arrivals, not the arrivals (exact for k = 1: the row keeps its
            // element's fingerprint iff none of the D(t) others hashed there). For a uniform stream this is what
            // the rows' Poisson share gives (RowShares).
            fpr = weights.falsePositiveRate(m -> model.falsePositive(weights.distinctArrivals(m)));
            fnr = weights.falseNegativeRate(t -> model.falseNegative(weights.distinctArrivals(t)));
            validity = ZIPF_QUOTIENT;
        }
        add(kind, params, fpr, fnr, basis, validity);
    }

    private void insertAlways(final FilterKind kind)
    {
        for (int s = 2; s <= INSERT_ALWAYS_MAX_BITS; s++)
        {
            for (final int k : FEW_BUCKETS)
            {
                final long rows = memory / ((long)k * s);
                if (k >= Math.pow(2, s) - 1 || rows < 1 || rows * k < 2)
                {
                    continue;
                }
                final InsertAlwaysModel model = new InsertAlwaysModel(rows, k, s, kind == FilterKind.QQHTD);
                final RowShares shares = new RowShares(rows, workload.alphabet());
                final double fpr;
                final double fnr;
                String validity = "";
                if (workload.zipf() == 0 && !shares.plain() && shares.othersPerRow() < FEW_OTHERS)
                {
                    // few others per row: the mean traffic would overstate both rates (RowShares)
                    final double u = workload.alphabet();
                    fpr = shares.average(others -> weights.falsePositiveRate(model.atShare(u / others)::falsePositive));
                    fnr = shares.average(others -> weights.falseNegativeRate(model.atShare(u / others)::falseNegative));
                    if (k > 1)
                    {
                        validity = String.format(Locale.ROOT, "k > 1 with %.3g other elements per row (< %.0f): the " +
                            "same few fingerprints return to a row", shares.othersPerRow(), FEW_OTHERS);
                    }
                }
                else
                {
                    fpr = weights.falsePositiveRate(model::falsePositive);
                    fnr = weights.falseNegativeRate(model::falseNegative);
                    validity = workload.zipf() == 0 ? "" : ZIPF_INSERT_ALWAYS;
                }
                add(kind, params("buckets", k, "fingerprint-bits", s), fpr, fnr,
                    "InsertAlwaysModel (Geraud et al. 2019 §5 asymptotes along the stream, rows' share averaged)",
                    validity);
            }
        }
    }

    private void bloom()
    {
        for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
        {
            final int hashes = k;
            final LongToDoubleFunction fp = m -> Math.pow(-Math.expm1(-hashes * weights.distinct(m) / memory), hashes);
            add(FilterKind.BLOOM, params("hash-functions", k), weights.falsePositiveRate(fp), 0,
                "Bloom filter over the distinct elements so far, (1 - e^(-K D/M))^K, no false negative", "");
        }
    }

    private void sbf()
    {
        for (int d = 1; d <= 3; d++)
        {
            final long cells = (memory >>> 6) * (64 / d);
            for (int k = 1; k <= 4; k++)
            {
                if (cells <= k)
                {
                    continue;
                }
                for (final double target : SBF_TARGETS)
                {
                    final Map<String, Number> params = new LinkedHashMap<>();
                    params.put("memory-bits", memory);
                    params.put("cell-bits", (long)d);
                    params.put("hash-functions", (long)k);
                    params.put("target-fpr", target);
                    final long decrements;
                    try
                    {
                        decrements = new Candidate(FilterKind.SBF, params, 0, 0, "", "").builder().parameters()
                            .get("decrements");
                    }
                    catch (final IllegalArgumentException e)
                    {
                        continue; // the engine refuses it (P > cells)
                    }
                    final StableBloomModel model = new StableBloomModel(cells, k, (1 << d) - 1, decrements);
                    out.add(new Candidate(FilterKind.SBF, params, weights.falsePositiveRate(model::falsePositive),
                        weights.falseNegativeRate(model::falseNegative), "StableBloomModel (stable point of Deng " +
                        "and Rafiei along the stream, P = " + decrements + ")", workload.zipf() == 0 ? "" : ZIPF_SBF));
                }
            }
        }
    }

    private void add(final FilterKind kind, final Map<String, Number> shape, final double fpr, final double fnr,
        final String basis, final String validity)
    {
        out.add(new Candidate(kind, shape, fpr, fnr, basis, validity));
    }

    /** memory-bits first, then name/value pairs. */
    private Map<String, Number> params(final Object... pairs)
    {
        final Map<String, Number> params = new LinkedHashMap<>();
        params.put("memory-bits", memory);
        for (int i = 0; i < pairs.length; i += 2)
        {
            params.put((String)pairs[i], ((Number)pairs[i + 1]).longValue());
        }
        return params;
    }
}
