package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The cost of a saturated streaming cuckoo filter per element against its relocation bound (issue 11): for each
 * max-kicks value, a filter of the given memory is filled with four times as many distinct elements as it has
 * slots (so every insertion finds both buckets full), then a pass of fresh distinct elements is timed. The bounds
 * are measured in interleaved rounds (round r times every bound once) so that a load change on a shared machine
 * hits them alike; the median per bound is printed, in thread CPU time and wall time.
 *
 * <p>Usage: {@code CuckooKicks MEMORY_BITS BUCKETS FINGERPRINT_BITS ROUNDS ELEMENTS KICKS...}.
 */
public final class CuckooKicks
{
    private CuckooKicks()
    {
    }

    /**
     * @param args memory bits, slots per bucket, fingerprint bits, rounds, timed elements per pass, kick bounds.
     * @throws Exception on I/O failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final long memoryBits = Long.parseLong(args[0]);
        final int buckets = Integer.parseInt(args[1]);
        final int fingerprintBits = Integer.parseInt(args[2]);
        final int rounds = Integer.parseInt(args[3]);
        final int elements = Integer.parseInt(args[4]);
        final int[] kicks = Arrays.stream(args, 5, args.length).mapToInt(Integer::parseInt).toArray();
        final Path dir = Files.createTempDirectory("ddf-cuckoo-kicks");
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long slots = memoryBits / fingerprintBits;
        final List<double[]> cpu = new ArrayList<>();
        final List<double[]> wall = new ArrayList<>();
        for (int k = 0; k < kicks.length; k++)
        {
            cpu.add(new double[rounds]);
            wall.add(new double[rounds]);
        }
        final SplittableRandom random = new SplittableRandom(11);
        long sink = 0;
        for (int round = 0; round < rounds; round++)
        {
            for (int k = 0; k < kicks.length; k++)
            {
                final Path file = dir.resolve("kicks-" + kicks[k] + ".ddf");
                Files.deleteIfExists(file);
                try (DuplicateFilter filter = Filters.builder(FilterKind.CUCKOO).memoryBits(memoryBits)
                    .buckets(buckets).fingerprintBits(fingerprintBits).param("max-kicks", kicks[k]).seed(1)
                    .file(file).create())
                {
                    for (long i = 0; i < 4 * slots; i++)
                    {
                        sink += filter.stream(random.nextLong()).ordinal();
                    }
                    final long[] keys = random.longs(elements).toArray();
                    final long cpu0 = threads.getCurrentThreadCpuTime();
                    final long wall0 = System.nanoTime();
                    for (int i = 0; i < elements; i++)
                    {
                        sink += filter.stream(keys[i]).ordinal();
                    }
                    wall.get(k)[round] = (double)(System.nanoTime() - wall0) / elements;
                    cpu.get(k)[round] = (double)(threads.getCurrentThreadCpuTime() - cpu0) / elements;
                }
                Files.deleteIfExists(file);
                System.out.printf(Locale.ROOT, "round %d max-kicks %d: %.1f ns cpu, %.1f ns wall per element%n",
                    round, kicks[k], cpu.get(k)[round], wall.get(k)[round]);
            }
        }
        Files.deleteIfExists(dir);
        System.out.printf(Locale.ROOT, "%n| max-kicks | median ns/element (thread CPU) | median ns/element (wall) |" +
            "%n| --- | --- | --- |%n");
        for (int k = 0; k < kicks.length; k++)
        {
            System.out.printf(Locale.ROOT, "| %d | %.1f | %.1f |%n", kicks[k], median(cpu.get(k)),
                median(wall.get(k)));
        }
        System.out.println("(checksum " + sink + ")");
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] :
            (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
