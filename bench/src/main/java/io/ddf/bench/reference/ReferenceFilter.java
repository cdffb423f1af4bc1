package io.ddf.bench.reference;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Verdict;
import io.ddf.engine.hash.ElementHasher;
import org.agrona.DirectBuffer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bench reference design ({@link Apbf}, {@link RotatingBlooms}) behind {@link DuplicateFilter}, so that the
 * accuracy harness feeds it as it feeds ddf's filters: elements hashed as ddf hashes them (XXH3 under the seed), the
 * time-based ones taking each element's time ({@link #streamHash(long, long)}; the form without a time keeps the
 * filter's time, as an event-time filter does). It is not a product kind: it has no file, no {@link FilterKind} and no
 * {@link FilterParameters} (both throw); {@link #description()} says what it is.
 */
public abstract class ReferenceFilter implements DuplicateFilter
{
    private final ElementHasher hasher;
    private long elements;
    private long duplicates;

    /** @param seed the hash seed. */
    protected ReferenceFilter(final long seed)
    {
        this.hasher = ElementHasher.of(ElementHasher.XXH3, seed, null);
    }

    /**
     * @param apbf the filter.
     * @param seed the hash seed.
     * @return it as a DuplicateFilter.
     */
    public static ReferenceFilter of(final Apbf apbf, final long seed)
    {
        return new ReferenceFilter(seed)
        {
            @Override
            protected boolean judge(final long hash, final long timeMillis)
            {
                if (timeMillis >= 0)
                {
                    apbf.advance(timeMillis);
                }
                return apbf.stream(hash);
            }

            @Override
            public boolean containsHash(final long hash)
            {
                return apbf.contains(hash);
            }

            @Override
            public long memoryBits()
            {
                return apbf.memoryBits();
            }

            @Override
            public Map<String, String> description()
            {
                final Map<String, String> map = new LinkedHashMap<>();
                map.put("kind", apbf.sliceMillis() > 0 ? "apbf-time" : "apbf");
                map.put("k", Integer.toString(apbf.k()));
                map.put("l", Integer.toString(apbf.l()));
                map.put("slice-bits", Long.toString(apbf.sliceBits()));
                map.put(apbf.sliceMillis() > 0 ? "slice-ms" : "generation",
                    Long.toString(apbf.sliceMillis() > 0 ? apbf.sliceMillis() : apbf.generation()));
                map.put("memory-bits", Long.toString(apbf.memoryBits()));
                map.put("model-fpr", String.format(java.util.Locale.ROOT, "%.6g", ApbfModel.fpr(apbf.k(), apbf.l())));
                return map;
            }
        };
    }

    /**
     * @param blooms the filters.
     * @param seed   the hash seed.
     * @return them as a DuplicateFilter.
     */
    public static ReferenceFilter of(final RotatingBlooms blooms, final long seed)
    {
        return new ReferenceFilter(seed)
        {
            @Override
            protected boolean judge(final long hash, final long timeMillis)
            {
                if (timeMillis >= 0)
                {
                    blooms.advance(timeMillis);
                }
                return blooms.stream(hash);
            }

            @Override
            public boolean containsHash(final long hash)
            {
                return blooms.contains(hash);
            }

            @Override
            public long memoryBits()
            {
                return blooms.memoryBits();
            }

            @Override
            public Map<String, String> description()
            {
                final Map<String, String> map = new LinkedHashMap<>();
                map.put("kind", "rotating-bloom");
                map.put("filter-bits", Long.toString(blooms.filterBits()));
                map.put("hash-functions", Integer.toString(blooms.hashFunctions()));
                map.put("memory-bits", Long.toString(blooms.memoryBits()));
                return map;
            }
        };
    }

    /**
     * @param hash       the element's hash.
     * @param timeMillis its time, or -1 to keep the filter's.
     * @return whether it was judged present (else it is now inserted).
     */
    protected abstract boolean judge(long hash, long timeMillis);

    /** @return the bits of the design's arrays. */
    public abstract long memoryBits();

    /** @return what the design is and its sizes, for tables. */
    public abstract Map<String, String> description();

    @Override
    public final Verdict streamHash(final long hash)
    {
        return count(judge(hash, -1));
    }

    @Override
    public final Verdict streamHash(final long hash, final long timeMillis)
    {
        if (timeMillis < 0)
        {
            throw new IllegalArgumentException("time must be at least 0, got " + timeMillis);
        }
        return count(judge(hash, timeMillis));
    }

    private Verdict count(final boolean duplicate)
    {
        elements++;
        duplicates += duplicate ? 1 : 0;
        return duplicate ? Verdict.DUPLICATE : Verdict.UNSEEN;
    }

    @Override
    public final long hash(final long element)
    {
        return hasher.hash(element);
    }

    @Override
    public final long hash(final byte[] bytes, final int offset, final int length)
    {
        return hasher.hash(bytes, offset, length);
    }

    @Override
    public final long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        return hasher.hash(buffer, offset, length);
    }

    @Override
    public final long hash(final CharSequence text)
    {
        return hasher.hash(text);
    }

    @Override
    public final boolean partitioned()
    {
        return false;
    }

    @Override
    public final long partition(final long hash)
    {
        return 0;
    }

    /** @throws UnsupportedOperationException always: a reference design is no product kind. */
    @Override
    public final FilterKind kind()
    {
        throw new UnsupportedOperationException("a bench reference design, not a ddf kind: " + description());
    }

    /** @throws UnsupportedOperationException always: see {@link #description()}. */
    @Override
    public final FilterParameters parameters()
    {
        throw new UnsupportedOperationException("a bench reference design has no file parameters: " + description());
    }

    @Override
    public final long elements()
    {
        return elements;
    }

    @Override
    public final long duplicates()
    {
        return duplicates;
    }

    @Override
    public final Path path()
    {
        return null;
    }

    @Override
    public final void flush()
    {
    }

    @Override
    public final void close()
    {
    }
}
