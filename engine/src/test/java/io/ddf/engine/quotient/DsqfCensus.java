package io.ddf.engine.quotient;

import io.ddf.engine.memory.LockWord;
import io.ddf.engine.memory.MappedWords;

/**
 * For the Dynamic SQF's tests: reads its links whole ({@link #census}) and breaks them as a crash mid-update would
 * ({@link #simulateCrashUnlinking}). Over the same memory as the core under test; call with no concurrent stream.
 */
final class DsqfCensus
{
    private final DsqfLinks links;
    private final MappedWords lockWord;

    /**
     * @param slots  the filter's resolved parameters.
     * @param region the core's region.
     */
    DsqfCensus(final long[] slots, final MappedWords region)
    {
        this.links = new DsqfLinks(DynamicSqfDefinition.layout(slots), region);
        this.lockWord = region.sharedSlice(DsqfLinks.LOCK, 1);
    }

    /**
     * Checks the structure: every bucket reachable from at most one place, the recency list exactly the non-empty
     * rows and consistently linked.
     *
     * @return {buckets in chains, buckets on the free list, buckets never allocated}, which sum to P.
     * @throws IllegalStateException when the structure is inconsistent.
     */
    long[] census()
    {
        final boolean[] seen = new boolean[(int)links.pool];
        long used = 0;
        long nonEmpty = 0;
        for (long row = 0; row < links.rows; row++)
        {
            nonEmpty += links.head(row) != 0 ? 1 : 0;
            for (long b = links.head(row); b != 0; b = links.next(b - 1))
            {
                mark(seen, b - 1, "chain of row " + row);
                used++;
            }
        }
        long free = 0;
        for (long b = links.state.getLongPlain(DsqfLinks.FREE); b != 0; b = links.next(b - 1))
        {
            mark(seen, b - 1, "free list");
            free++;
        }
        final long allocated = links.state.getLongPlain(DsqfLinks.ALLOCATED);
        for (long b = allocated; b < links.pool; b++)
        {
            mark(seen, b, "unallocated pool");
        }
        long listed = 0;
        long previous = 0;
        for (long r = links.state.getLongPlain(DsqfLinks.OLDEST); r != 0; r = links.newer(r - 1))
        {
            if (links.older(r - 1) != previous || links.head(r - 1) == 0 || ++listed > links.rows)
            {
                throw new IllegalStateException("recency list broken at row " + (r - 1));
            }
            previous = r;
        }
        if (previous != links.state.getLongPlain(DsqfLinks.NEWEST) || listed != nonEmpty)
        {
            throw new IllegalStateException("recency list holds " + listed + " rows, " + nonEmpty + " are non-empty");
        }
        return new long[] {used, free, links.pool - allocated};
    }

    private static void mark(final boolean[] seen, final long bucket, final String where)
    {
        if (seen[(int)bucket])
        {
            throw new IllegalStateException("bucket " + bucket + " reached twice (again from " + where + ")");
        }
        seen[(int)bucket] = true;
    }

    /**
     * Sets the lock bit and unlinks a bucket from its chain without returning it, as a crash mid-update would.
     *
     * @param row a non-empty row.
     */
    void simulateCrashUnlinking(final long row)
    {
        LockWord.lockAcquire(lockWord, 0, 1L);
        links.setHead(row, links.next(links.head(row) - 1));
        links.state.putLongPlain(DsqfLinks.NEWEST, 0); // and a half-moved recency list
    }
}
