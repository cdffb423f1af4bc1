package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * {@code ddf bench rotation}: the largest single {@code stream} latency across a generation rotation of a
 * fifo-bloom that recycles a generation (the first recycling: item L·c, the capacity), in the 1.0 layout (which
 * clears the generation whole inside that call) or the blocked 2.0 layout (which flips its parity and zeroes lazily).
 * Fills the filter with new items by the batch API up to {@code --before} items short of the boundary, then times
 * each of the next {@code --before + --after} streams of new items with {@code System.nanoTime()} into an
 * HdrHistogram, and prints the rotating call's latency, the largest, and the percentiles before and after.
 */
@Command(name = "rotation", mixinStandardHelpOptions = true,
    description = "Largest stream() latency across a fifo-bloom rotation, 1.0 layout vs blocked.")
final class RotationCommand implements Callable<Integer>
{
    @Option(names = "--capacity", defaultValue = "1000000000", description = "Capacity n (default: ${DEFAULT-VALUE}).")
    private long capacity;

    @Option(names = "--error-rate", defaultValue = "0.01", description = "Error rate (default: ${DEFAULT-VALUE}).")
    private double errorRate;

    @Option(names = "--layout", defaultValue = "blocked",
        description = "blocked (2.0) or 1.0 (default: ${DEFAULT-VALUE}).")
    private String layout;

    @Option(names = "--dir", required = true, description = "Directory for the filter file (deleted after).")
    private Path dir;

    @Option(names = "--before", defaultValue = "1000000", description = "Timed streams before the boundary.")
    private int before;

    @Option(names = "--after", defaultValue = "4000000", description = "Timed streams from the boundary on.")
    private int after;

    @Option(names = "--single-writer", description = "Owned mode (no locked instruction).")
    private boolean singleWriter;

    @Option(names = "--fast-forward", description = "Instead of filling, set the insertion counter (header state word "
        + "0) to --before items short of the boundary and the published generation (word 1) to match, as if that many "
        + "items had been inserted: the rotation's work (1.0: clearing the generation; blocked: the parity flip and the "
        + "sweep) does not depend on the bits already set, and filling a 10^9 filter of the 1.0 layout takes tens of "
        + "minutes on a loaded machine. The verdicts around the boundary are then those of a nearly empty filter.")
    private boolean fastForward;

    @Option(names = "--warm", description = "First run a small filter of the same layout through 100 rotations, so "
        + "that the rotation's code is compiled (as in a daemon whose smaller filters have recycled before); without "
        + "it the measured call also pays the JIT's first run of that code.")
    private boolean warm;

    private static final java.lang.management.ThreadMXBean THREADS =
        java.lang.management.ManagementFactory.getThreadMXBean();

    /** FilterWords index of the kind's header state word 0: (2048 - 1024) / 8, after the 1 KiB of counter stripes. */
    private static final int STATE_WORD0 = 128;

    @Override
    public Integer call() throws Exception
    {
        final Path file = dir.resolve("rotation-" + layout + "-" + System.nanoTime() + ".ddf");
        var builder = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity).param("target-fpr", errorRate)
            .seed(1).file(file);
        if (layout.equals("1.0"))
        {
            builder = builder.param("blocks-per-item", 0L);
        }
        if (singleWriter)
        {
            builder = builder.singleWriter();
        }
        final SplittableRandom random = new SplittableRandom(42);
        if (warm)
        {
            var small = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 10_000L).param("target-fpr", errorRate)
                .param("generations", 2L).seed(2);
            if (layout.equals("1.0"))
            {
                small = small.param("blocks-per-item", 0L);
            }
            try (DuplicateFilter warmUp = (singleWriter ? small.singleWriter() : small).create())
            {
                for (int i = 0; i < 1_000_000; i++)
                {
                    warmUp.stream(random.nextLong());
                }
            }
        }
        try (DuplicateFilter filter = builder.create())
        {
            final long boundary = filter.parameters().get("capacity");
            final long fillStart = System.nanoTime();
            final io.ddf.engine.FilterWords words = Filters.mutableWords(filter);
            final java.util.function.LongSupplier inserted = fastForward ? () -> words.getPlain(STATE_WORD0) :
                () -> inserted(filter);
            if (fastForward)
            {
                final long generations = filter.parameters().get("generations");
                final long perGeneration = (boundary + generations - 1) / generations;
                words.putPlain(STATE_WORD0, boundary - before);
                words.putPlain(STATE_WORD0 + 1, (boundary - before - 1) / perGeneration);
            }
            final long[] batch = new long[4096];
            final boolean[] verdicts = new boolean[batch.length];
            while (inserted.getAsLong() < boundary - before)
            {
                final int n = (int)Math.min(batch.length, boundary - before - inserted.getAsLong());
                for (int i = 0; i < n; i++)
                {
                    batch[i] = random.nextLong();
                }
                filter.stream(batch, 0, n, verdicts);
            }
            final double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
            final Histogram beforeHistogram = new Histogram(3);
            final Histogram afterHistogram = new Histogram(3);
            long rotating = -1;
            long rotatingCpu = -1;
            while (inserted.getAsLong() < boundary + after)
            {
                final boolean crossing = inserted.getAsLong() == boundary;
                final long key = random.nextLong();
                // the crossing call's CPU time too: on a loaded machine its wall time may include a preemption
                final long cpuStart = crossing ? THREADS.getCurrentThreadCpuTime() : 0;
                final long start = System.nanoTime();
                final Verdict verdict = filter.stream(key);
                final long took = System.nanoTime() - start;
                if (crossing && verdict == Verdict.UNSEEN)
                {
                    rotating = took;
                    rotatingCpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
                }
                (inserted.getAsLong() <= boundary ? beforeHistogram : afterHistogram).recordValue(took);
            }
            System.out.printf(Locale.ROOT, "fifo-bloom %s, capacity %d, error %s, %s, table %d bytes, %s%n", layout,
                capacity, errorRate, singleWriter ? "single-writer" : "shared", filter.parameters().tableBytes(),
                filter.parameters().toMap().get("layout"));
            System.out.printf(Locale.ROOT, fastForward ? "fast-forwarded to %d items (counter set, %.1f s)%n" :
                "filled %d items in %.1f s (batch API)%n", boundary - before, fillSeconds);
            System.out.printf(Locale.ROOT, "rotating stream (item %d): %.3f ms wall, %.3f ms CPU of its thread%n",
                boundary + 1, rotating / 1e6, rotatingCpu / 1e6);
            print("before the boundary", beforeHistogram);
            print("from the boundary on", afterHistogram);
        }
        finally
        {
            Files.deleteIfExists(file);
        }
        return 0;
    }

    private static long inserted(final DuplicateFilter filter)
    {
        return filter.elements() - filter.duplicates();
    }

    private static void print(final String label, final Histogram h)
    {
        System.out.printf(Locale.ROOT, "%-22s n=%d p50 %d ns, p99 %d ns, p99.9 %d ns, p99.99 %d ns, max %.3f ms%n",
            label, h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99),
            h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99), h.getMaxValue() / 1e6);
    }
}
