package io.ddf.bench.latency;

import io.ddf.bench.jmh.KeySource;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import org.HdrHistogram.Histogram;

/**
 * Latency of single embedded {@code stream} calls: {@code System.nanoTime()} around each call, one histogram
 * value per call (so each value includes one timer call; see {@link TimerCost}). Warm-up calls go to the same
 * filter first and are not recorded.
 */
public final class StreamLatency
{
    private long duplicates;

    /**
     * @param filter the filter (its state changes).
     * @param keys   the keys.
     * @param warmup calls made first, not recorded.
     * @param count  calls recorded.
     * @return the histogram, in ns.
     */
    public Histogram measure(final DuplicateFilter filter, final KeySource keys, final int warmup, final int count)
    {
        final Histogram histogram = new Histogram(3);
        for (int i = 0; i < warmup; i++)
        {
            duplicates += streamOne(filter, keys).ordinal();
        }
        duplicates = 0;
        for (int i = 0; i < count; i++)
        {
            // Prepares the key outside the timed region: only the call is timed.
            final int length = keys.keyBytes();
            final Verdict verdict;
            if (length == Long.BYTES)
            {
                final long key = keys.nextLong();
                final long before = System.nanoTime();
                verdict = filter.stream(key);
                histogram.recordValue(System.nanoTime() - before);
            }
            else
            {
                final byte[] key = keys.nextBytes();
                final long before = System.nanoTime();
                verdict = filter.stream(key, 0, length);
                histogram.recordValue(System.nanoTime() - before);
            }
            duplicates += verdict.ordinal();
        }
        return histogram;
    }

    /** @return recorded calls judged DUPLICATE. */
    public long duplicates()
    {
        return duplicates;
    }

    private static Verdict streamOne(final DuplicateFilter filter, final KeySource keys)
    {
        final int length = keys.keyBytes();
        return length == Long.BYTES ? filter.stream(keys.nextLong()) : filter.stream(keys.nextBytes(), 0, length);
    }
}
