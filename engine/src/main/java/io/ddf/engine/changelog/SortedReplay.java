package io.ddf.engine.changelog;

import io.ddf.persistence.log.LogFormat;
import io.ddf.persistence.log.LogReader;

/**
 * The replay of a target whose local records have {@link ReplayLines}: one reader reads and checks each frame once;
 * a chunk of up to {@link #chunk} local records is taken into entries (line, payload), the entries sorted stably by
 * line ({@link LineSort}) and applied in that order, so that the table is written in address order, each line's
 * entries one after the other: the stores walk the table, which the hardware prefetcher and the TLB follow, and a
 * line taking several entries of a chunk is loaded once for them, where {@link BatchReplay}'s log order misses the
 * cache once a record on a table larger than the caches. A barrier record ends the chunk and is applied alone after
 * it, in log order, as {@link BatchReplay} does. Exactly the sequential result: see {@link ReplayLines}.
 *
 * <p>Memory: two pairs of arrays of 12 bytes an entry (an int line, a long payload), growing by doubling as a chunk
 * needs them up to {@code chunk * }{@link ReplayLines#MAX_ENTRIES} entries, allocated per replay: at most 48 MiB
 * for the default chunk of 2^20 records (a filter with few records in the log allocates a few KiB to a few MiB).
 */
final class SortedReplay
{
    /**
     * Records per chunk (0: off, the lanes of {@link BatchReplay}); see {@link #chunk}.
     */
    static final String CHUNK_PROPERTY = "ddf.replay.sorted";
    /** Bits of the chunk's range of lines sorted on, from the top (32: a full sort); see {@link LineSort#sort}. */
    static final String SORT_BITS_PROPERTY = "ddf.replay.sortBits";
    /**
     * The default chunk, 2^20 records. Measured (bench/results/changelog/replay-2026-11-30T0940.md, ReplayVariants in
     * one JVM, the default chain at the log's 1 GiB bound, 33.3 M records, 3 rounds at load 3-5): the replaying
     * thread's CPU 2.71 s (12.3 M records per CPU-second) against 5.68 s (5.9 M) for {@link BatchReplay}'s one lane
     * in log order; chunks of 2^19 records 3.19 s, 2^21 2.70 s for twice the memory.
     */
    static final int DEFAULT_CHUNK = 1 << 20;
    /** Largest chunk taken from the property. */
    private static final int MAX_CHUNK = 1 << 24;

    private final LineSort sort;
    private final int records;
    private final int sortBits;
    private int size;
    private int taken;

    private SortedReplay(final int chunk, final int sortBits)
    {
        this.records = chunk;
        this.sort = new LineSort(chunk * ReplayLines.MAX_ENTRIES);
        this.sortBits = sortBits;
    }

    /**
     * @param lines the target's entries.
     * @return records per chunk: the property {@value #CHUNK_PROPERTY} when set (0 turns the sorted replay off, for
     *         {@link BatchReplay}'s lanes in log order, kept for comparison and for more than one lane; at most 2^24),
     *         else {@link #DEFAULT_CHUNK} for a target sorted by default ({@link ReplayLines#sortedByDefault()}), else
     *         0.
     */
    static int chunk(final ReplayLines lines)
    {
        final Integer asked = Integer.getInteger(CHUNK_PROPERTY);
        if (asked == null)
        {
            return lines.sortedByDefault() ? DEFAULT_CHUNK : 0;
        }
        return Math.max(0, Math.min(asked, MAX_CHUNK));
    }

    /**
     * @param reader the reader, before the first frame to replay.
     * @param number the filter's number.
     * @param target applies the barrier records.
     * @param local  the target's lanes (which records are local).
     * @param lines  the same records as entries.
     * @param chunk  records per chunk, at least 1.
     * @return the records applied (the filter's, up to the end or the first frame that does not validate).
     */
    static long replay(final LogReader reader, final int number, final ReplayTarget target, final ReplayLanes local,
        final ReplayLines lines, final int chunk)
    {
        final int bits = Math.max(1, Math.min(Integer.getInteger(SORT_BITS_PROPERTY, Integer.SIZE), Integer.SIZE));
        return new SortedReplay(chunk, bits).run(reader, number, target, local, lines);
    }

    private long run(final LogReader reader, final int number, final ReplayTarget target, final ReplayLanes local,
        final ReplayLines lines)
    {
        long applied = 0;
        boolean more = true;
        while (more)
        {
            final boolean barrier = decode(reader, number, local, lines);
            more = barrier || taken == records;
            sort.sort(size, sortBits);
            lines.apply(sort.lines(), sort.payloads(), size);
            applied += taken;
            if (barrier)
            {
                lines.merge();
                target.apply(reader);
                applied++;
            }
        }
        lines.merge();
        return applied;
    }

    /** Takes the filter's next local records; @return whether it stopped at a barrier (the reader at it). */
    private boolean decode(final LogReader reader, final int number, final ReplayLanes local, final ReplayLines lines)
    {
        size = 0;
        taken = 0;
        int[] into = sort.lines();
        long[] payloads = sort.payloads();
        while (taken < records && reader.next())
        {
            if (size + ReplayLines.MAX_ENTRIES > into.length)
            {
                sort.grow(size + ReplayLines.MAX_ENTRIES);
                into = sort.lines();
                payloads = sort.payloads();
            }
            if (reader.filter() != number)
            {
                continue;
            }
            final long w0 = reader.word0();
            final int op = LogFormat.op(w0);
            final int aux = LogFormat.aux(w0);
            final int units = LogFormat.units(w0);
            if (!local.local(op, aux, units))
            {
                return true;
            }
            final int entries = lines.take(op, aux, reader.hash(), reader.arg(), units == 2 ? reader.arg(3) : 0, into,
                payloads, size);
            if (entries < 0)
            {
                return true;
            }
            size += entries;
            taken++;
        }
        return false;
    }
}
