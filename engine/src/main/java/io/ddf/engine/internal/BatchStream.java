package io.ddf.engine.internal;

import io.ddf.engine.changelog.FilterLog;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.spi.FilterCore;

/** A batch streamed into a {@link MappedFilter}: hashed, touched ahead and updated in groups, its records logged. */
final class BatchStream
{
    /**
     * Elements of a batch hashed and touched together before the first of them is updated: enough misses in
     * flight to cover a memory latency, few enough to stay in L1. Groups of 8, 16, 32 and 64 measured alike at
     * 1 Gbit (43–48 ns, single-writer and shared, `HotPathBench` with -Dhotpath.only, loaded machine): 16 it is.
     */
    static final int GROUP = 16;
    /** Tables up to this size stay in a core's L2 (2 MiB here): touching ahead would only add work. */
    static final long TOUCH_AHEAD_MIN_BYTES = 1L << 20;
    /** An impossible sum of touched words, so that the reads feeding it cannot be optimised away. */
    private static final long TOUCH_SENTINEL = 0x7DDF_7DDF_7DDF_7DDFL;
    @SuppressWarnings("unused")
    private static volatile long touchSink;

    private BatchStream()
    {
    }

    /**
     * Streams {@code elements[offset, offset + length)} in order: see {@link MappedFilter#streamLongs}.
     *
     * @return how many were judged DUPLICATE.
     */
    static int stream(final MappedFilter filter, final Stripe stripe, final long[] elements, final int offset,
        final int length, final boolean[] duplicates)
    {
        final FilterCore core = filter.core();
        final ElementHasher hasher = filter.hasher();
        final FilterLog log = filter.changes().streams();
        final boolean touchAhead = filter.touchAhead();
        final int end = offset + length;
        int found = 0;
        long touched = 0;
        for (int start = offset; start < end; start += GROUP)
        {
            final int stop = Math.min(end, start + GROUP);
            if (touchAhead)
            {
                for (int i = start; i < stop; i++)
                {
                    touched += core.touch(hasher.hash(elements[i]));
                }
            }
            for (int i = start; i < stop; i++)
            {
                final long hash = hasher.hash(elements[i]);
                final boolean duplicate = core.stream(hash);
                duplicates[i] = duplicate;
                found += duplicate ? 1 : 0;
                if (log != null && !duplicate)
                {
                    log.record(KindOps.STREAM, 0, hash, 0);
                }
            }
        }
        if (touched == TOUCH_SENTINEL)
        {
            touchSink = touched;
        }
        filter.counters().record(stripe.index, length, found);
        filter.changes().afterBatch(); // under policy always, the batch's records in one force (group commit)
        return found;
    }
}
