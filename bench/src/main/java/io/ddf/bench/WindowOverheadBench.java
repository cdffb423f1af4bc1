package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.Verdict;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What a window of time costs a fifo-bloom's calls, measured on a machine shared with other work: two filters of a
 * pair take turns every {@link #CHUNK} calls of the same kind (the same keys for both), each chunk's CPU time of the
 * calling thread is read, and the figure is the median over the run of the ratio of each chunk pair (a slow stretch
 * of the machine slows both sides of a pair alike). Pairs:
 * <ul>
 *   <li>{@code window / blocked-2L}: a window of time (24 h, 2 slices: 4 generations of n/2, each for ε/4) against the
 *       same table turned by count only (capacity 2n in 4 generations): the window's time alone;</li>
 *   <li>{@code window / blocked}: against the default count filter of the same capacity (2 generations of n/2): what
 *       the window's promise costs in all;</li>
 *   <li>{@code window-clock / window}: the wall clock read per call ({@code System.currentTimeMillis}) against the
 *       coarse clock's field.</li>
 * </ul>
 * Calls: {@code stream(long)} of new items, {@code contains(long)} of absent ones, {@code stream(long)} of present
 * ones (a duplicate: the lookup and the deadline's check). Each filter is filled with n new items first; sync policy
 * no (no background msync write-protecting pages the calls write). Usage:
 * {@code WindowOverheadBench OUTPUT.md DIR SECONDS CAPACITY...}.
 */
public final class WindowOverheadBench
{
    private static final int CHUNK = 4096;
    private static final String[][] PAIRS = {{"window", "blocked-2L"}, {"window", "blocked"},
        {"window-clock", "window"}};
    private static final double ERROR_RATE = 0.01;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static long sink;

    private enum Call
    {
        NEW, ABSENT, PRESENT
    }

    private WindowOverheadBench()
    {
    }

    /**
     * @param args output, directory, seconds per pair and call, capacities.
     * @throws IOException on file failure.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path output = Path.of(args[0]);
        final Path dir = Path.of(args[1]);
        final long nanos = Long.parseLong(args[2]) * 1_000_000_000L;
        final long[] capacities = Arrays.stream(args, 3, args.length).mapToLong(Long::parseLong).toArray();
        final StringBuilder md = new StringBuilder("# fifo-bloom with a window of time: the cost of its calls\n\n");
        md.append(String.format(Locale.ROOT, "Chunks of %d calls alternating between the two filters of a pair for %d s " +
            "per pair, call and mode; the median, over the run, of the ratio of the CPU time of each chunk pair (the " +
            "calling thread's). Error rate %s, each filter filled with n new items first, sync no. Load before: %s.%n%n",
            CHUNK, nanos / 1_000_000_000L, ERROR_RATE, load()));
        md.append("| capacity | pair | call | mode | median ratio | quartiles | ns/call (first, second) |\n" +
            "| --- | --- | --- | --- | --- | --- | --- |\n");
        try
        {
            for (final long capacity : capacities)
            {
                for (final boolean singleWriter : new boolean[] {true, false})
                {
                    final String mode = singleWriter ? "single-writer" : "shared";
                    for (final String[] pair : PAIRS)
                    {
                        // a fresh pair of filters for each pair, filled alike and given the same keys since: the
                        // two sides hold the same items in the same generations all along
                        final DuplicateFilter first = open(dir, capacity, pair[0], singleWriter);
                        final DuplicateFilter second = open(dir, capacity, pair[1], singleWriter);
                        for (final Call call : Call.values())
                        {
                            pair(md, capacity, pair[0] + " / " + pair[1], call, mode, first, second, nanos);
                        }
                        first.close();
                        second.close();
                    }
                }
            }
        }
        finally
        {
            try (var files = Files.list(dir))
            {
                for (final Path file : files.filter(f -> f.getFileName().toString().startsWith("window-overhead-"))
                    .toList())
                {
                    Files.deleteIfExists(file);
                }
            }
        }
        md.append(String.format(Locale.ROOT, "%nLoad after: %s. %s%n", load(), ticker()));
        Files.writeString(output, md.toString());
        System.out.print(md);
        System.out.println("sink " + sink);
    }

    private static DuplicateFilter open(final Path dir, final long capacity, final String layout,
        final boolean singleWriter)
    {
        final Path file = dir.resolve("window-overhead-" + layout + "-" + capacity + "-" + singleWriter + "-" +
            System.nanoTime() + ".ddf");
        FilterBuilder builder = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity)
            .param("target-fpr", ERROR_RATE).seed(1).file(file).sync(SyncPolicy.NO);
        builder = switch (layout)
        {
            case "blocked" -> builder;
            case "window" -> builder.window(Duration.ofHours(24));
            case "window-clock" -> builder.window(Duration.ofHours(24)).clock(InstantSource.system());
            case "blocked-2L" -> builder.param("capacity", 2 * capacity).param("generations", 4L);
            default -> throw new IllegalArgumentException(layout);
        };
        final DuplicateFilter filter = (singleWriter ? builder.singleWriter() : builder).create();
        final SplittableRandom random = new SplittableRandom(7);
        final long[] batch = new long[4096];
        final boolean[] verdicts = new boolean[batch.length];
        for (long done = 0; done < capacity; done += batch.length)
        {
            for (int i = 0; i < batch.length; i++)
            {
                batch[i] = random.nextLong();
            }
            filter.stream(batch, 0, batch.length, verdicts);
        }
        return filter;
    }

    private static void pair(final StringBuilder md, final long capacity, final String name, final Call call,
        final String mode, final DuplicateFilter first, final DuplicateFilter second, final long nanos)
    {
        final SplittableRandom keys = new SplittableRandom(31L + call.ordinal());
        final SplittableRandom present = new SplittableRandom(7); // the fill's keys: in both filters
        final long[] chunk = new long[CHUNK];
        final List<Double> ratios = new ArrayList<>();
        long firstNs = 0;
        long secondNs = 0;
        long calls = 0;
        final long end = System.nanoTime() + nanos;
        for (int round = 0; System.nanoTime() < end; round++)
        {
            for (int i = 0; i < CHUNK; i++)
            {
                chunk[i] = call == Call.PRESENT ? present.nextLong() : keys.nextLong();
            }
            // alternate which goes first, so that neither always runs after the other's misses
            final boolean firstFirst = (round & 1) == 0;
            final long a = firstFirst ? time(first, chunk, call) : 0;
            final long b = time(second, chunk, call);
            final long a2 = firstFirst ? a : time(first, chunk, call);
            if (round >= 4 && a2 > 0 && b > 0)
            {
                ratios.add((double)a2 / b);
                firstNs += a2;
                secondNs += b;
                calls += CHUNK;
            }
        }
        final double[] r = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final String row = String.format(Locale.ROOT, "| %d | %s | %s | %s | %.3f | %.3f – %.3f | %.1f, %.1f |%n",
            capacity, name, call.name().toLowerCase(Locale.ROOT), mode, r[r.length / 2], r[r.length / 4],
            r[3 * r.length / 4], (double)firstNs / calls, (double)secondNs / calls);
        md.append(row);
        System.out.print(row);
    }

    /** @return the calling thread's CPU time for the chunk's calls, ns. */
    private static long time(final DuplicateFilter filter, final long[] chunk, final Call call)
    {
        long found = 0;
        final long start = THREADS.getCurrentThreadCpuTime();
        for (final long key : chunk)
        {
            if (call == Call.ABSENT)
            {
                found += filter.contains(key) ? 1 : 0;
            }
            else
            {
                found += filter.stream(key) == Verdict.DUPLICATE ? 1 : 0;
            }
        }
        final long took = THREADS.getCurrentThreadCpuTime() - start;
        sink += found;
        return took;
    }

    /** @return the CPU time the coarse clock's ticker thread took over the JVM's life, said in a sentence. */
    private static String ticker()
    {
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().equals("ddf-coarse-clock"))
            {
                final long cpu = THREADS.getThreadCpuTime(thread.getId());
                final long up = ManagementFactory.getRuntimeMXBean().getUptime();
                return String.format(Locale.ROOT, "The coarse clock's ticker thread took %.1f ms of CPU in %.1f s " +
                    "(%.3f %% of a core).", cpu / 1e6, up / 1e3, 100.0 * cpu / 1e6 / up);
            }
        }
        return "No coarse clock ticker ran.";
    }

    private static String load()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        }
        catch (final IOException e)
        {
            return "unknown";
        }
    }
}
