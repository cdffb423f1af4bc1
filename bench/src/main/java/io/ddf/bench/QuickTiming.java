package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A quick single-thread timing of {@code stream(long)} on a mapped file: ns per call for a filter of a given
 * size, after a warm-up. Not a substitute for the JMH suite; enough to place a filter's cost.
 *
 * <p>Usage: {@code QuickTiming KIND MEMORY_BITS [ELEMENTS] [DIR]}.
 */
public final class QuickTiming
{
    private QuickTiming()
    {
    }

    /**
     * @param args kind, memory bits, elements per timed pass (default 20,000,000), directory for the file.
     * @throws Exception on I/O failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final FilterKind kind = FilterKind.fromName(args[0]);
        final long memoryBits = Long.parseLong(args[1]);
        final int elements = args.length > 2 ? Integer.parseInt(args[2]) : 20_000_000;
        final Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("ddf-timing");
        final Path file = dir.resolve("timing-" + kind.cliName() + "-" + memoryBits + ".ddf");
        Files.deleteIfExists(file);
        final long[] keys = new SplittableRandom(42).longs(elements).toArray();
        try (DuplicateFilter filter = Filters.builder(kind).memoryBits(memoryBits).seed(1).file(file).create())
        {
            System.out.println(filter.parameters());
            long sink = 0;
            for (int pass = 0; pass < 5; pass++)
            {
                final long start = System.nanoTime();
                for (int i = 0; i < elements; i++)
                {
                    sink += filter.stream(keys[i]).ordinal();
                }
                final long ns = System.nanoTime() - start;
                System.out.printf(Locale.ROOT, "%s %d bits pass %d: %.1f ns/stream (%d duplicates so far)%n",
                    kind.cliName(), memoryBits, pass, (double)ns / elements, sink);
            }
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }
}
