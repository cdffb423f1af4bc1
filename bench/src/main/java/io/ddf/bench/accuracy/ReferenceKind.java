package io.ddf.bench.accuracy;

import io.ddf.bench.reference.Apbf;
import io.ddf.bench.reference.ApbfModel;
import io.ddf.bench.reference.ReferenceFilter;
import io.ddf.bench.reference.RotatingBlooms;

import java.util.Locale;
import java.util.Map;

/**
 * Designs the harness measures beside ddf's kinds but that are not ddf kinds: bench references for comparisons
 * ({@code io.ddf.bench.reference}). Written like a kind, {@code apbf:k=7,l=5}. Their parameters:
 * <ul>
 *   <li>{@code capacity} n: the window in new elements (by count), or the most new elements per window of time; the
 *       run's window when not given.</li>
 *   <li>{@code window-ms} W (the {@code -time} designs): the window of time; give the elements their times with
 *       {@code per-item-ms}.</li>
 *   <li>the memory: the run's, or {@code memory-bits}; or {@code target-fpr} ε, sized by the design's own rule
 *       (the paper's for APBF, {@link ApbfModel#design}; the client's for rotating Blooms, {@link
 *       RotatingBlooms#design}).</li>
 *   <li>APBF: {@code k} and {@code l} (both or neither; neither: {@link ApbfModel#best} for the memory, or the
 *       paper's own (k, l) for ε, {@link ApbfModel#paperDesign}). Rotating Blooms: {@code hash-functions} K
 *       (default {@link RotatingBlooms#bestHashFunctions}).</li>
 * </ul>
 */
enum ReferenceKind
{
    /** Age-partitioned Bloom filter, shifted every g = ⌈n / l⌉ new elements. */
    APBF("apbf"),
    /** Age-partitioned Bloom filter, shifted every T = ⌈W / l⌉ ms. */
    APBF_TIME("apbf-time"),
    /** Two Bloom filters, rotated every n new elements. */
    ROTATING_BLOOM("rotating-bloom"),
    /** Two Bloom filters, rotated every W ms. */
    ROTATING_BLOOM_TIME("rotating-bloom-time");

    private final String cliName;

    ReferenceKind(final String cliName)
    {
        this.cliName = cliName;
    }

    /** @return the name in specs. */
    String cliName()
    {
        return cliName;
    }

    /**
     * @param name a kind name.
     * @return the reference design of that name, or null.
     */
    static ReferenceKind fromName(final String name)
    {
        for (final ReferenceKind kind : values())
        {
            if (kind.cliName.equalsIgnoreCase(name))
            {
                return kind;
            }
        }
        return null;
    }

    private boolean timed()
    {
        return this == APBF_TIME || this == ROTATING_BLOOM_TIME;
    }

    /**
     * @param params     the spec's parameters.
     * @return whether the run's memory sizes it.
     */
    boolean takesMemory(final Map<String, String> params)
    {
        return !params.containsKey("memory-bits") && !params.containsKey("target-fpr");
    }

    /**
     * @param params     the spec's parameters.
     * @param memoryBits the run's memory.
     * @param runWindow  the run's window.
     * @param seed       the hash seed.
     * @return the filter.
     * @throws IllegalArgumentException when the parameters do not make one.
     */
    ReferenceFilter create(final Map<String, String> params, final long memoryBits, final long runWindow,
        final long seed)
    {
        for (final String name : params.keySet())
        {
            if (!java.util.Set.of("capacity", "window-ms", "per-item-ms", "memory-bits", "target-fpr", "k", "l",
                "hash-functions").contains(name))
            {
                throw new IllegalArgumentException(cliName + " takes no parameter '" + name + "'");
            }
        }
        final long n = get(params, "capacity", memoryBits, runWindow);
        if (n < 1)
        {
            throw new IllegalArgumentException(cliName + " needs a capacity (or a run window), got " + n);
        }
        final long window = get(params, "window-ms", memoryBits, 0);
        if (timed() != (window > 0))
        {
            throw new IllegalArgumentException(timed() ? cliName + " needs window-ms" :
                cliName + " shifts by count: window-ms is for " + cliName + "-time");
        }
        final double target = params.containsKey("target-fpr") ?
            FilterSpec.value(params.get("target-fpr"), memoryBits).doubleValue() : Double.NaN;
        final long memory = get(params, "memory-bits", memoryBits, memoryBits);
        return switch (this)
        {
            case APBF, APBF_TIME -> ReferenceFilter.of(apbf(params, n, window, target, memory), seed);
            case ROTATING_BLOOM, ROTATING_BLOOM_TIME -> ReferenceFilter.of(blooms(params, n, window, target, memory),
                seed);
        };
    }

    private Apbf apbf(final Map<String, String> params, final long n, final long window, final double target,
        final long memory)
    {
        if (params.containsKey("k") != params.containsKey("l"))
        {
            throw new IllegalArgumentException("give apbf both k and l, or neither");
        }
        final int[] kl;
        if (params.containsKey("k"))
        {
            kl = new int[] {(int)get(params, "k", memory, 0), (int)get(params, "l", memory, 0)};
        }
        else
        {
            kl = Double.isNaN(target) ? ApbfModel.best(n, memory) : ApbfModel.paperDesign(target);
        }
        final int k = kl[0];
        final int l = kl[1];
        if (k < 1 || l < 1)
        {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "apbf needs k, l >= 1, got %d, %d", k, l));
        }
        // a time slice T = ⌈W / l⌉ (so that l T >= W) brings n T / W elements at the steady rate
        final long sliceMillis = window > 0 ? (window + l - 1) / l : 0;
        final long g = window > 0 ? (long)Math.ceil(n * (double)sliceMillis / window) : ApbfModel.generation(n, l);
        final long m = Double.isNaN(target) ? memory / (k + l) : ApbfModel.designSliceBits(k, g);
        if (m < 1)
        {
            throw new IllegalArgumentException("memory-bits " + memory + " is less than a bit a slice");
        }
        return window > 0 ? Apbf.byTime(k, l, m, sliceMillis) : Apbf.byCount(k, l, m, g);
    }

    private RotatingBlooms blooms(final Map<String, String> params, final long n, final long window,
        final double target, final long memory)
    {
        final long m;
        final long k;
        if (!Double.isNaN(target))
        {
            final long[] design = RotatingBlooms.design(n, target);
            m = design[0];
            k = get(params, "hash-functions", memory, design[1]);
        }
        else
        {
            m = memory / 2;
            if (m < 1)
            {
                throw new IllegalArgumentException("memory-bits " + memory + " is less than a bit a filter");
            }
            k = get(params, "hash-functions", memory, RotatingBlooms.bestHashFunctions(n, m));
        }
        return window > 0 ? RotatingBlooms.byTime(m, (int)k, window) : RotatingBlooms.byCount(m, (int)k, n);
    }

    private static long get(final Map<String, String> params, final String name, final long memoryBits,
        final long otherwise)
    {
        final String text = params.get(name);
        return text == null ? otherwise : FilterSpec.value(text, memoryBits).longValue();
    }
}
