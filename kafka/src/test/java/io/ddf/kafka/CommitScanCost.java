package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;

/**
 * What finding the changed words costs at each commit: one pass of {@link LoggedWords#drainChanges} over a table
 * of each size, after 1,000 new elements. {@code java -cp ... io.ddf.kafka.CommitScanCost [max-log2-bits]}.
 */
public final class CommitScanCost
{
    private CommitScanCost()
    {
    }

    public static void main(final String[] args)
    {
        final int maxLog2 = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        long element = 0;
        for (int log2 = 20; log2 <= maxLog2; log2 += 2)
        {
            final FilterSpec spec = FilterSpec.of("qht").with("memory-bits", 1L << log2);
            try (DuplicateFilter live = spec.builder("scan", null).create();
                 DuplicateFilter copy = spec.builder("scan", null).create())
            {
                final LoggedWords words = new LoggedWords(Filters.mutableWords(live), Filters.mutableWords(copy));
                final long[] changed = new long[1];
                long best = Long.MAX_VALUE;
                for (int round = 0; round < 12; round++)
                {
                    for (int i = 0; i < 1000; i++)
                    {
                        live.stream(element++);
                    }
                    final long start = System.nanoTime();
                    changed[0] = words.drainChanges((index, value) -> changed[0]++);
                    best = Math.min(best, System.nanoTime() - start);
                }
                System.out.printf("memory-bits 2^%d (%d words): %.3f ms per commit scan, %.2f ns per word, %d words changed%n",
                    log2, words.words(), best / 1e6, (double)best / words.words(), changed[0]);
            }
        }
    }
}
