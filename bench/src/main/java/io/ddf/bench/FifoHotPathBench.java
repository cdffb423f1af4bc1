package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;

import java.io.IOException;
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
 * The capacity filter's hot path, blocked 2.0 layout against the 1.0 layout (standard Bloom generations), in one
 * JVM and interleaved rounds: {@code stream(long)} and {@code stream(long[256])} of new random items (BF.ADD's
 * common case on a big filter), single-writer and shared, on fifo-bloom filters of the given capacities at 1 %, each
 * filled to its capacity first (both generations full: the lookups read what a full filter holds, and every round
 * inserts, so rotations happen as they would). Prints ns per stream (median and range over the rounds after two
 * warm-up rounds) and the 1.0 ÷ blocked ratio of the same run.
 *
 * <p>Usage: {@code FifoHotPathBench OUTPUT.md DIR [ROUNDS] [ROUND_MS] [CAPACITY...]} (defaults 7 rounds, 400 ms,
 * capacities 10^7 and 10^9). {@code -Dfifo.layouts=a,b,...} chooses the filters (default {@code blocked,1.0}):
 * <ul>
 *   <li>{@code blocked}: the count fifo-bloom, 2 generations of n/2 (the default);</li>
 *   <li>{@code 1.0}: the same in the 1.0 layout;</li>
 *   <li>{@code window}: a window of time of 24 h in 2 slices on the wall clock (the coarse clock, a field read per
 *       element): 4 generations of n/2 (2L), each sized for ε/4;</li>
 *   <li>{@code window-clock}: the same reading {@code System.currentTimeMillis()} per element (what the coarse clock
 *       saves);</li>
 *   <li>{@code blocked-2L}: the count fifo-bloom of capacity 2n in 4 generations: the window's very table, turned by
 *       count only (what the window's time costs on its own).</li>
 * </ul>
 * With {@code -Dfifo.contains=true} each filter also gets a {@code contains(long)} contender (items never added);
 * {@code -Dfifo.sync=no} opens the timed filters with sync policy no (default: the default, everysec), so that no
 * background msync write-protects the pages the timed calls write (on a busy disk that stall dwarfs the calls).
 * Every filter is filled with n new items first, so all of them start with two full generations of n/2 (the window's
 * day does not pass within a run: its generations turn by count).
 */
public final class FifoHotPathBench
{
    private static final int WARMUP_ROUNDS = 2;
    private static final int BATCH = 256;
    private static final int CHUNK = 1 << 14;
    private static final double ERROR_RATE = 0.01;
    private static long sink;

    /** What a contender times. */
    private enum Op
    {
        STREAM, BATCH, CONTAINS
    }

    private record Contender(String name, long capacity, DuplicateFilter filter, Op op, List<Double> rounds)
    {
        boolean batch()
        {
            return op == Op.BATCH;
        }
    }

    private FifoHotPathBench()
    {
    }

    /**
     * @param args output, directory for the files, rounds, ms per contender per round, capacities.
     * @throws IOException on file failure.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path output = Path.of(args[0]);
        final Path dir = Path.of(args[1]);
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        final long roundNs = (args.length > 3 ? Long.parseLong(args[3]) : 400) * 1_000_000L;
        final long[] capacities = args.length > 4 ? Arrays.stream(args, 4, args.length).mapToLong(Long::parseLong)
            .toArray() : new long[] {10_000_000L, 1_000_000_000L};
        final String loadBefore = load();
        final List<Contender> contenders = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(7);
        try
        {
            for (final long capacity : capacities)
            {
                for (final String layout : System.getProperty("fifo.layouts", "blocked,1.0").split(","))
                {
                    // filled once, single-writer (fastest), then copied: the shared contenders get the same state
                    final Path file = dir.resolve("fifo-hotpath-" + layout + "-" + capacity + ".ddf");
                    final Path copy = dir.resolve("fifo-hotpath-" + layout + "-" + capacity + "-shared.ddf");
                    try (DuplicateFilter filling = builder(file, capacity, layout).singleWriter().create())
                    {
                        fill(filling, capacity, random);
                    }
                    Files.copy(file, copy);
                    for (final boolean singleWriter : new boolean[] {true, false})
                    {
                        final FilterBuilder builder = builder(singleWriter ? file : copy, capacity, layout)
                            .sync(io.ddf.engine.SyncPolicy.valueOf(System.getProperty("fifo.sync", "everysec")
                                .toUpperCase(Locale.ROOT)));
                        final DuplicateFilter filter = (singleWriter ? builder.singleWriter() : builder).openOrCreate();
                        final String mode = singleWriter ? "single-writer" : "shared";
                        contenders.add(new Contender(layout + " stream(long), " + mode, capacity, filter, Op.STREAM,
                            new ArrayList<>()));
                        contenders.add(new Contender(layout + " stream(long[" + BATCH + "]), " + mode, capacity, filter,
                            Op.BATCH, new ArrayList<>()));
                        if (Boolean.getBoolean("fifo.contains"))
                        {
                            contenders.add(new Contender(layout + " contains(long), " + mode, capacity, filter,
                                Op.CONTAINS, new ArrayList<>()));
                        }
                        System.out.printf(Locale.ROOT, "filled %s %s %d: %s%n", layout, mode, capacity,
                            filter.parameters().toMap().get("table-bytes"));
                    }
                }
            }
            for (int round = 0; round < rounds; round++)
            {
                for (final Contender c : contenders)
                {
                    final double ns = time(c, random, roundNs);
                    if (round >= WARMUP_ROUNDS)
                    {
                        c.rounds.add(ns);
                    }
                    System.out.printf(Locale.ROOT, "round %d %d %s: %.1f ns/stream%n", round, c.capacity, c.name, ns);
                }
            }
            write(output, contenders, rounds, roundNs, loadBefore, load());
            System.out.println("sink " + sink);
        }
        finally
        {
            for (final Contender c : contenders)
            {
                if (c.op == Op.STREAM)
                {
                    c.filter.close();
                }
            }
            try (var files = Files.list(dir))
            {
                for (final Path file : files.filter(f -> f.getFileName().toString().startsWith("fifo-hotpath-"))
                    .toList())
                {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private static FilterBuilder builder(final Path file, final long capacity, final String layout)
    {
        final FilterBuilder builder = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity)
            .param("target-fpr", ERROR_RATE).seed(1).file(file);
        return switch (layout)
        {
            case "blocked" -> builder;
            case "1.0" -> builder.param("blocks-per-item", 0L);
            case "window" -> builder.window(Duration.ofHours(24));
            case "window-clock" -> builder.window(Duration.ofHours(24)).clock(InstantSource.system());
            case "blocked-2L" -> builder.param("capacity", 2 * capacity).param("generations", 4L);
            default -> throw new IllegalArgumentException("unknown layout " + layout);
        };
    }

    private static void fill(final DuplicateFilter filter, final long capacity, final SplittableRandom random)
    {
        final long[] batch = new long[4096];
        final boolean[] verdicts = new boolean[batch.length];
        while (filter.elements() - filter.duplicates() < capacity)
        {
            final int n = (int)Math.min(batch.length, capacity - (filter.elements() - filter.duplicates()));
            for (int i = 0; i < n; i++)
            {
                batch[i] = random.nextLong();
            }
            filter.stream(batch, 0, n, verdicts);
        }
    }

    private static double time(final Contender c, final SplittableRandom random, final long roundNs)
    {
        final long[] keys = new long[CHUNK];
        final boolean[] verdicts = new boolean[CHUNK]; // the batch API writes verdicts[i] for keys[i]
        long ops = 0;
        long ns = 0;
        long duplicates = 0;
        final long deadline = System.nanoTime() + roundNs;
        while (System.nanoTime() < deadline)
        {
            for (int i = 0; i < CHUNK; i++)
            {
                keys[i] = random.nextLong(); // drawn outside the timed loop: only the filter is timed
            }
            final long start = System.nanoTime();
            if (c.batch())
            {
                for (int i = 0; i < CHUNK; i += BATCH)
                {
                    duplicates += c.filter.stream(keys, i, BATCH, verdicts);
                }
            }
            else if (c.op == Op.CONTAINS)
            {
                for (int i = 0; i < CHUNK; i++)
                {
                    duplicates += c.filter.contains(keys[i]) ? 1 : 0;
                }
            }
            else
            {
                for (int i = 0; i < CHUNK; i++)
                {
                    duplicates += c.filter.stream(keys[i]) == Verdict.DUPLICATE ? 1 : 0;
                }
            }
            ns += System.nanoTime() - start;
            ops += CHUNK;
        }
        sink += duplicates;
        return (double)ns / ops;
    }

    private static void write(final Path output, final List<Contender> contenders, final int rounds,
        final long roundNs, final String loadBefore, final String loadAfter) throws IOException
    {
        final StringBuilder md = new StringBuilder();
        md.append("# fifo-bloom hot path: blocked 2.0 layout vs 1.0 (standard Bloom generations)\n\n");
        md.append(String.format(Locale.ROOT, "%d rounds (%d warm-up), %d ms per contender per round, error rate %s, " +
            "new random items, each filter filled to its capacity first, sync %s. Load before: %s; after: %s.%n%n",
            rounds, WARMUP_ROUNDS, roundNs / 1_000_000, ERROR_RATE, System.getProperty("fifo.sync", "everysec"),
            loadBefore, loadAfter));
        md.append("| capacity | contender | ns/stream median | min | max | 1.0 ÷ blocked |\n| --- | --- | --- | --- | --- | " +
            "--- |\n");
        for (final Contender c : contenders)
        {
            final double[] r = c.rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            final double median = r[r.length / 2];
            String ratio = "";
            if (c.name.startsWith("blocked"))
            {
                final String twin = "1.0" + c.name.substring("blocked".length());
                for (final Contender o : contenders)
                {
                    if (o.capacity == c.capacity && o.name.equals(twin))
                    {
                        final double[] s = o.rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                        ratio = String.format(Locale.ROOT, "%.2f", s[s.length / 2] / median);
                    }
                }
            }
            md.append(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %s |%n", c.capacity, c.name, median,
                r[0], r[r.length - 1], ratio));
        }
        ratios(md, contenders, "window", "blocked-2L", "the window's time alone: the same table (4 generations of n/2), " +
            "turned by count only");
        ratios(md, contenders, "window", "blocked", "the window against the default count filter of the same capacity " +
            "(2 generations of n/2)");
        ratios(md, contenders, "window-clock", "window", "a clock read per element (System.currentTimeMillis) against " +
            "the coarse clock's field");
        Files.writeString(output, md.toString());
        System.out.print(md);
    }

    /** A table of a ÷ b (medians of the same run), for every contender of layout a with a twin of layout b. */
    private static void ratios(final StringBuilder md, final List<Contender> contenders, final String a,
        final String b, final String what)
    {
        final StringBuilder rows = new StringBuilder();
        for (final Contender c : contenders)
        {
            if (!c.name.startsWith(a + " "))
            {
                continue;
            }
            final String twin = b + c.name.substring(a.length());
            for (final Contender o : contenders)
            {
                if (o.capacity == c.capacity && o.name.equals(twin))
                {
                    rows.append(String.format(Locale.ROOT, "| %d | %s | %.2f |%n", c.capacity,
                        c.name.substring(a.length() + 1), median(c) / median(o)));
                }
            }
        }
        if (rows.length() > 0)
        {
            md.append("\n").append(a).append(" ÷ ").append(b).append(": ").append(what).append("\n\n")
                .append("| capacity | call, mode | ratio of medians |\n| --- | --- | --- |\n").append(rows);
        }
    }

    private static double median(final Contender c)
    {
        final double[] r = c.rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return r[r.length / 2];
    }

    private static String load()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).trim() + " (/proc/loadavg)";
        }
        catch (final IOException e)
        {
            return "unknown";
        }
    }
}
