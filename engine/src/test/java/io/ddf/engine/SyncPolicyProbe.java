package io.ddf.engine;

import java.nio.file.Path;

/**
 * Run in a second JVM by {@link SyncPolicyPowerCutTest} on the power-cut file system: builds a Bloom filter with the
 * given sync policy and streams {@link #FIRST} then, under {@code everysec} once a background sync has run after
 * them, {@link #SECOND}; prints {@code ACKED} and waits to be killed by the cut.
 */
public final class SyncPolicyProbe
{
    /** Streamed first: one by one, then as a batch. */
    static final long[] FIRST = range(1, 400);
    /** Streamed after (everysec: after a sync of the first). */
    static final long[] SECOND = range(1_000_001, 400);

    private SyncPolicyProbe()
    {
    }

    static FilterBuilder builder(final Path path)
    {
        return Filters.builder(FilterKind.BLOOM).memoryBits(1 << 20).param("hash-functions", 4).seed(11).file(path);
    }

    /**
     * @param args the file to create and the policy.
     * @throws Exception when something fails (the test then sees no ACKED).
     */
    public static void main(final String[] args) throws Exception
    {
        final SyncPolicy policy = SyncPolicy.parse(args[1]);
        final DuplicateFilter filter = builder(Path.of(args[0])).sync(policy).create();
        final int half = FIRST.length / 2;
        for (int i = 0; i < half; i++)
        {
            filter.stream(FIRST[i]);
        }
        filter.stream(FIRST, half, FIRST.length - half, new boolean[FIRST.length]);
        if (policy == SyncPolicy.EVERYSEC)
        {
            // the change log forced once a second off the hot path (issue 31): wait until it holds the first elements
            final long streamed = filter.changeLog().appended();
            while (filter.changeLog().forced() < streamed)
            {
                Thread.sleep(50);
            }
            filter.stream(SECOND, 0, SECOND.length, new boolean[SECOND.length]);
        }
        System.out.println("ACKED");
        System.out.flush();
        while (System.in.read() >= 0)
        {
            Thread.onSpinWait();
        }
        filter.close();
    }

    private static long[] range(final long from, final int count)
    {
        final long[] values = new long[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = from + i;
        }
        return values;
    }
}
