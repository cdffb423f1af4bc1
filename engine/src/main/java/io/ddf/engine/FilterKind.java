package io.ddf.engine;

import io.ddf.engine.internal.FilterKinds;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every filter kind ddf builds, with the code stored in a file's header and the name used on the command line.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public enum FilterKind
{
    /** Quotient Hash Table (QHT paper, Alg. 1). */
    QHT(KindCodes.QHT),
    /** QHT that inserts duplicates too (QHT paper, §5.1). */
    QHTD(KindCodes.QHTD),
    /** Queued QHT with duplicates: FIFO rows (QHT paper, Alg. 2). */
    QQHTD(KindCodes.QQHTD),
    /** Streaming Quotient Filter (SQF paper, Alg. 1). */
    SQF(KindCodes.SQF),
    /** Dynamic SQF: a pool of buckets shared by all rows, LRU eviction (SQF paper, §5.1). */
    DSQF(KindCodes.DSQF),
    /** Streaming cuckoo filter: bounded relocations, then the last victim is dropped (QHT paper, footnote 4). */
    CUCKOO(KindCodes.CUCKOO),
    /** Bloom filter, the saturating reference. */
    BLOOM(KindCodes.BLOOM),
    /** Stable Bloom Filter (Deng and Rafiei). */
    SBF(KindCodes.SBF),
    /** Reservoir-sampling-based Bloom filter (sampling Bloom filters paper, Alg. 1). */
    RSBF(KindCodes.RSBF),
    /** Biased-sampling-based Bloom filter (sampling Bloom filters paper, Alg. 2). */
    BSBF(KindCodes.BSBF),
    /** BSBF with single deletion (sampling Bloom filters paper, Alg. 3). */
    BSBFSD(KindCodes.BSBFSD),
    /** Randomized load-balanced BSBF (sampling Bloom filters paper, Alg. 4). */
    RLBSBF(KindCodes.RLBSBF),
    /** Aging Bloom filter with two active buffers (Yoon). */
    A2(KindCodes.A2),
    /** Block-decaying Bloom filter (Shen and Zhang). */
    BDBF(KindCodes.BDBF),
    /**
     * The capacity filter: Bloom subfilters of capacity / L new items each, the oldest recycled past capacity (the
     * queuing construction of the sliding-window paper Alg. 2 counting only new items); BF.RESERVE's default.
     */
    FIFO_BLOOM(KindCodes.FIFO_BLOOM),
    /**
     * A window of time in one cuckoo table whose entries carry their generation's stamp, so that its memory follows
     * the live elements: {@code window(Duration)} and {@code param("capacity", n)}, {@code subfilters(L)} its slices.
     */
    AGED_CUCKOO(KindCodes.AGED_CUCKOO),
    /** Exact windowed filter (sliding-window paper, Theorem 1). */
    EXACT_WINDOW(KindCodes.EXACT_WINDOW),
    /** Short Hash Filter (sliding-window paper, Alg. 1). */
    SHF(KindCodes.SHF),
    /** Compact Short Hash Filter (sliding-window paper, §3.2). */
    CSHF(KindCodes.CSHF),
    /**
     * The queuing construction over any other kind (sliding-window paper, Alg. 2); chosen by a window and subfilters.
     */
    QUEUE(KindCodes.QUEUE);

    private final int code;

    FilterKind(final int code)
    {
        this.code = code;
    }

    static
    {
        for (final FilterKind kind : values())
        {
            if (FilterKinds.definition(kind.code) == null)
            {
                throw new IllegalStateException("no definition for " + kind);
            }
        }
        if (FilterKinds.all().size() != values().length)
        {
            throw new IllegalStateException("the registry has kinds the API does not name");
        }
    }

    /** @return the code stored in a file header. */
    public int code()
    {
        return code;
    }

    /**
     * @return whether a window of time ({@code FilterBuilder.window(Duration)}, the daemon's WINDOW, pipe's {@code
     *     --window 24h}) is this kind's own: fifo-bloom's generations and aged-cuckoo's stamps turn with time.
     */
    public boolean keepsTimeWindow()
    {
        return this == FIFO_BLOOM || this == AGED_CUCKOO;
    }

    /** @return the lowercase command-line name. */
    public String cliName()
    {
        return KindCodes.name(code);
    }

    /** @return the kind's definition (the SPI behind the API): its parameters, how they resolve and what they size. */
    KindDefinition definition()
    {
        return FilterKinds.definition(code);
    }

    /** @return the parameters a user may give this kind, in the order its file header stores them. */
    public List<KindParameter> parameters()
    {
        final List<KindParameter> parameters = new ArrayList<>();
        for (final ParamDef param : definition().params())
        {
            if (param.option())
            {
                parameters.add(parameter(param));
            }
        }
        return Collections.unmodifiableList(parameters);
    }

    /**
     * @param name a parameter name, without dashes.
     * @return whether a user may give this kind that parameter.
     */
    public boolean takes(final String name)
    {
        final KindDefinition definition = definition();
        final int slot = definition.slotOf(name);
        return slot >= 0 && definition.params().get(slot).option();
    }

    private static KindParameter parameter(final ParamDef param)
    {
        return new KindParameter(param.name(), param.type() == ParamDef.Type.DOUBLE, param.description());
    }

    /**
     * Every user-settable parameter of every kind, by name, with the kinds that take it: what a command line
     * offers as options.
     *
     * @return name → (the parameter, the kinds that take it), in a stable order.
     */
    public static Map<String, Map.Entry<KindParameter, List<FilterKind>>> options()
    {
        final Map<String, Map.Entry<KindParameter, List<FilterKind>>> options = new LinkedHashMap<>();
        for (final KindDefinition definition : FilterKinds.all())
        {
            for (final ParamDef param : definition.params())
            {
                if (param.option())
                {
                    options.computeIfAbsent(param.name(), n -> Map.entry(parameter(param), new ArrayList<>()))
                        .getValue().add(fromCode(definition.code()));
                }
            }
        }
        final Map<String, Map.Entry<KindParameter, List<FilterKind>>> frozen = new LinkedHashMap<>();
        options.forEach((name, entry) ->
            frozen.put(name, Map.entry(entry.getKey(), Collections.unmodifiableList(entry.getValue()))));
        return Collections.unmodifiableMap(frozen);
    }

    /**
     * @param code a header code.
     * @return the kind with that code.
     * @throws IllegalArgumentException for an unknown code.
     */
    public static FilterKind fromCode(final int code)
    {
        for (final FilterKind kind : values())
        {
            if (kind.code == code)
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown filter kind code " + code);
    }

    /**
     * @param name a command-line name, any case (the queuing construction is chosen by a window, not by name).
     * @return the kind.
     * @throws IllegalArgumentException naming the valid names.
     */
    public static FilterKind fromName(final String name)
    {
        for (final FilterKind kind : values())
        {
            if (kind != QUEUE && kind.cliName().equalsIgnoreCase(name))
            {
                return kind;
            }
        }
        final StringBuilder valid = new StringBuilder();
        for (final FilterKind kind : values())
        {
            if (kind != QUEUE)
            {
                valid.append(valid.length() == 0 ? "" : ", ").append(kind.cliName());
            }
        }
        throw new IllegalArgumentException("unknown filter '" + name + "' (valid: " + valid + ")");
    }
}
