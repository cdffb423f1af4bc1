package io.ddf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@link HotPathBench}'s dated markdown table: per contender the median and range of wall ns/op, the
 * median CPU ns/op and bytes per op, ratios to LongHashSet and Guava, and issue 11's targets checked against both
 * the wall and the CPU medians.
 */
final class HotPathReport
{
    /**
     * One contender's results.
     *
     * @param name       what was measured.
     * @param memoryBits its memory.
     * @param rounds     per recorded round: wall ns/op, bytes/op, CPU ns/op.
     */
    record Row(String name, long memoryBits, List<double[]> rounds)
    {
    }

    private HotPathReport()
    {
    }

    static String size(final long bits)
    {
        return bits == 1L << 20 ? "1 Mbit" : bits == 1L << 30 ? "1 Gbit" : bits + " bits";
    }

    private static double median(final List<double[]> rounds, final int column)
    {
        final double[] values = rounds.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return values.length % 2 == 1 ? values[values.length / 2] :
            (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    private static double min(final List<double[]> rounds, final int column)
    {
        return rounds.stream().mapToDouble(r -> r[column]).min().orElse(Double.NaN);
    }

    private static double max(final List<double[]> rounds, final int column)
    {
        return rounds.stream().mapToDouble(r -> r[column]).max().orElse(Double.NaN);
    }

    private static Row find(final List<Row> rows, final long bits, final String prefix)
    {
        for (final Row row : rows)
        {
            if (row.memoryBits() == bits && row.name().startsWith(prefix))
            {
                return row;
            }
        }
        throw new IllegalArgumentException("no " + prefix + " at " + size(bits));
    }

    /** @return the first row of that size whose name starts with the prefix and ends with the suffix, or null. */
    private static Row findOrNull(final List<Row> rows, final long bits, final String prefix, final String suffix)
    {
        for (final Row row : rows)
        {
            if (row.memoryBits() == bits && row.name().startsWith(prefix) && row.name().endsWith(suffix))
            {
                return row;
            }
        }
        return null;
    }

    /**
     * @param output          the markdown file to write.
     * @param rows            every contender's results, in table order.
     * @param sizes           the sizes measured, in bits.
     * @param hasSingleWriter whether the revision measured has single-writer mode (else its rows are absent).
     * @param rounds          rounds run, warm-up included.
     * @param roundNs         time per contender per round.
     * @param warmupRounds    rounds not recorded.
     * @param uptimeBefore    the load before the run.
     * @param uptimeAfter     the load after it.
     * @throws IOException when the file cannot be written.
     */
    static void write(final Path output, final List<Row> rows, final long[] sizes, final boolean hasSingleWriter,
        final int rounds, final long roundNs, final int warmupRounds, final String uptimeBefore,
        final String uptimeAfter) throws IOException
    {
        final StringBuilder md = new StringBuilder();
        md.append("# Hot path, side by side (issue 11)\n\n");
        md.append("Run ").append(Instant.now()).append(", ").append(System.getProperty("java.vm.name")).append(' ')
            .append(System.getProperty("java.version")).append(", ")
            .append(Runtime.getRuntime().availableProcessors()).append(" CPUs, revision ")
            .append(System.getenv().getOrDefault("DDF_BENCH_REVISION", "unknown")).append(".\n\n");
        md.append(String.format(Locale.ROOT, "%d interleaved rounds of %d ms per contender, the first %d not "
            + "recorded. ns/op: wall time, median over rounds (min–max); for two threads, wall time / total ops of "
            + "both. CPU ns/op: the measuring thread's CPU time (ThreadMXBean) per op, median — on a loaded machine "
            + "it leaves out the time the thread waited for a core (for two threads: both threads' CPU / ops).%n%n",
            rounds, roundNs / 1_000_000, warmupRounds));
        md.append("uptime before: `").append(uptimeBefore).append("`  \nuptime after: `").append(uptimeAfter)
            .append("`\n\n");
        md.append("| size | contender | ns/op median (min–max) | CPU ns/op | B/op | ÷ LongHashSet | ÷ Guava put |"
            + " CPU ÷ LongHashSet | CPU ÷ Guava |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (final Row contender : rows)
        {
            final Row set = find(rows, contender.memoryBits(), "Agrona");
            final Row guava = find(rows, contender.memoryBits(), "Guava");
            final double ns = median(contender.rounds(), 0);
            final double cpu = median(contender.rounds(), 2);
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f (%.1f–%.1f) | %.1f | %.2f | %.2f | %.3f | %.2f |"
                + " %.3f |%n", size(contender.memoryBits()), contender.name(), ns, min(contender.rounds(), 0),
                max(contender.rounds(), 0), cpu, median(contender.rounds(), 1), ns / median(set.rounds(), 0),
                ns / median(guava.rounds(), 0), cpu / median(set.rounds(), 2), cpu / median(guava.rounds(), 2)));
        }
        if (!hasSingleWriter)
        {
            md.append("\nThis revision has no single-writer mode (`FilterBuilder.singleWriter()`): rows absent.\n");
        }
        for (final int column : new int[] {0, 2})
        {
            md.append(column == 0 ? "\n## Issue 11's targets, checked against the wall-time medians\n\n" :
                "\n## The same targets against CPU ns/op (time on a core; two threads: wall time as above)\n\n");
            targets(md, rows, sizes, hasSingleWriter, column);
        }
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, md.toString());
    }

    private static void targets(final StringBuilder md, final List<Row> rows, final long[] sizes,
        final boolean hasSingleWriter, final int column)
    {
        for (final long bits : sizes)
        {
            final boolean mbit = bits == 1L << 20;
            final double set = median(find(rows, bits, "Agrona").rounds(), column);
            final double guava = median(find(rows, bits, "Guava").rounds(), column);
            final double shared = median(find(rows, bits, "QHT k=4 s=16 stream(long), shared").rounds(), column);
            if (hasSingleWriter)
            {
                final double single =
                    median(find(rows, bits, "QHT k=4 s=16 stream(long), single").rounds(), column);
                check(md, size(bits) + " single-writer ≤ " + (mbit ? 6 : 40) + " ns", single <= (mbit ? 6 : 40),
                    single);
                check(md, size(bits) + " single-writer no slower than LongHashSet (" + fmt(set) + " ns)",
                    single <= set, single);
            }
            check(md, size(bits) + " shared ≤ " + (mbit ? 12 : 60) + " ns", shared <= (mbit ? 12 : 60), shared);
            check(md, size(bits) + " shared within 2× LongHashSet (" + fmt(set) + " ns)", shared <= 2 * set, shared);
            if (!mbit)
            {
                check(md, size(bits) + " shared ≤ 0.1× Guava put (" + fmt(guava) + " ns)", shared <= 0.1 * guava,
                    shared);
            }
            final Row batchSingle = findOrNull(rows, bits, "QHT k=4 s=16 stream(long[", "single-writer");
            if (batchSingle != null)
            {
                final double batchSw = median(batchSingle.rounds(), column);
                final double batchShared = median(findOrNull(rows, bits, "QHT k=4 s=16 stream(long[", "shared")
                    .rounds(), column);
                check(md, size(bits) + " batch API single-writer ≤ " + (mbit ? 6 : 40) + " ns",
                    batchSw <= (mbit ? 6 : 40), batchSw);
                check(md, size(bits) + " batch API single-writer no slower than LongHashSet (" + fmt(set) + " ns)",
                    batchSw <= set, batchSw);
                check(md, size(bits) + " batch API shared ≤ " + (mbit ? 12 : 60) + " ns",
                    batchShared <= (mbit ? 12 : 60), batchShared);
                check(md, size(bits) + " batch API shared within 2× LongHashSet (" + fmt(set) + " ns)",
                    batchShared <= 2 * set, batchShared);
                if (!mbit)
                {
                    check(md, size(bits) + " batch API shared ≤ 0.1× Guava put (" + fmt(guava) + " ns)",
                        batchShared <= 0.1 * guava, batchShared);
                }
            }
            if (column == 0)
            {
                final double two = median(find(rows, bits, "QHT shared, 2 threads").rounds(), 0);
                check(md, size(bits) + " two threads faster in total than one (" + fmt(shared) + " ns/op)",
                    two < shared, two);
            }
        }
    }

    private static void check(final StringBuilder md, final String target, final boolean met, final double value)
    {
        md.append("- ").append(met ? "met" : "**not met**").append(": ").append(target).append(" — measured ")
            .append(fmt(value)).append(" ns/op\n");
    }

    private static String fmt(final double value)
    {
        return String.format(Locale.ROOT, "%.1f", value);
    }

}
