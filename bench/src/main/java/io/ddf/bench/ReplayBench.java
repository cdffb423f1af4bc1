package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.Recovery;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Replay speed after a power cut (issue 31). The default: the daemon's default filter, a ddf scaling chain
 * (BF.RESERVE's default: ddf's blocked layers, expansion 2, 1 %) written through a change log, checkpointed empty,
 * then given N adds (CHAIN_ADD records, and CHAIN_GROW as it grows). With a KIND (a {@link FilterKind} name, e.g. QHT
 * or FIFO_BLOOM): a fixed-size filter of that kind and MEMORY_BITS written through a change log as the daemon's are,
 * checkpointed empty, then given N distinct elements. A power cut is then played (the file as at the checkpoint, the
 * log as written, another boot id) and the open replays every record. Per round: the replay's time
 * (Recovery) and records/s, and the replaying thread's CPU time for the whole open (replay, then the checkpoint that
 * forces the replayed pages), and the process's CPU time over the open (every thread: the replay's lanes, and the
 * JIT and GC threads too, so an upper bound): on a machine shared by other work the wall time says the share of a core
 * the round got, the CPU time what the replay costs.
 *
 * <pre>bench/run.sh ReplayBench OUT.md WORK_DIR ROUNDS RECORDS INITIAL_CAPACITY|MEMORY_BITS [KIND]</pre>
 */
public final class ReplayBench
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
        (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();

    private ReplayBench()
    {
    }

    /** @param args output file, work directory, rounds, records, initial capacity or memory bits, kind. */
    public static void main(final String[] args) throws IOException
    {
        final Path out = Path.of(args[0]);
        final Path work = Path.of(args[1]);
        final int rounds = Integer.parseInt(args[2]);
        final long records = Long.parseLong(args[3]);
        final long capacity = Long.parseLong(args[4]);
        final FilterKind kind = args.length > 5 ? FilterKind.valueOf(args[5]) : null;
        final List<String> lines = new ArrayList<>();
        lines.add(kind == null ? "# Change-log replay of the default scaling chain (" + records +
            " adds, initial capacity " + capacity + ", 1 %, expansion 2)" : "# Change-log replay of a fixed-size " +
            kind + " filter (" + records + " distinct elements, " + capacity + " memory bits)");
        lines.add("");
        lines.add("| round | records replayed | layers | replay ms | records/s | open's CPU ms | records per CPU-s | " +
            "process CPU ms | records per process CPU-s | load |");
        lines.add("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        final double[] rates = new double[rounds];
        final double[] cpuRates = new double[rounds];
        final double[] processRates = new double[rounds];
        for (int round = 0; round < rounds; round++)
        {
            final Path dir = Files.createDirectories(work.resolve("round-" + round));
            System.setProperty(BootId.PROPERTY, new UUID(round, 30).toString());
            final long[] replayed;
            try
            {
                replayed = kind == null ? chainRound(dir, round, records, capacity) :
                    fixedRound(dir, kind, round, records, capacity);
            }
            finally
            {
                System.clearProperty(BootId.PROPERTY);
            }
            rates[round] = replayed[0] / (replayed[1] / 1e9);
            cpuRates[round] = replayed[0] / (replayed[3] / 1e9);
            processRates[round] = replayed[0] / (replayed[4] / 1e9);
            lines.add(String.format(Locale.ROOT, "| %d | %d | %d | %.1f | %.0f | %.1f | %.0f | %.1f | %.0f | %.1f |",
                round + 1, replayed[0], replayed[2], replayed[1] / 1e6, rates[round], replayed[3] / 1e6,
                cpuRates[round], replayed[4] / 1e6, processRates[round],
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
            deleteTree(dir);
        }
        lines.add("");
        lines.add(String.format(Locale.ROOT, "median: %.0f records/s (wall), %.0f records per CPU-second of the " +
            "replaying thread, %.0f per process CPU-second, over %d rounds (replay lanes: %s)", median(rates),
            median(cpuRates), median(processRates), rounds, System.getProperty("ddf.replay.threads", "default")));
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    /** @return records replayed, replay nanos, layers, the open's CPU nanos, the process's. */
    private static long[] chainRound(final Path dir, final int round, final long records, final long capacity)
        throws IOException
    {
        final Path path = dir.resolve("f.ddfs");
        final Path image = dir.resolve("image.ddfs");
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT);
            BloomChain chain = BloomChain.create(path, capacity, 0.01, false, 2, 42))
        {
            chain.logTo(log);
            chain.checkpoint();
            Files.copy(path, image, StandardCopyOption.REPLACE_EXISTING);
            for (long i = 0; i < records; i++)
            {
                chain.add(("click-" + round + "-" + i).getBytes(StandardCharsets.US_ASCII));
            }
            log.force(log.appended());
            copyLog(dir.resolve("log"), dir.resolve("log-cut"));
        }
        Files.move(image, path, StandardCopyOption.REPLACE_EXISTING);
        System.setProperty(BootId.PROPERTY, new UUID(round, 31).toString());
        try (ChangeLog log = ChangeLog.open(dir.resolve("log-cut"), LogOptions.DEFAULT);
            BloomChain chain = BloomChain.open(path))
        {
            final long process = PROCESS.getProcessCpuTime();
            final long cpu = THREADS.getCurrentThreadCpuTime();
            final Recovery r = chain.logTo(log);
            final long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu;
            return new long[] {r.records(), r.nanos(), chain.layerCount(), cpuNanos,
                PROCESS.getProcessCpuTime() - process};
        }
    }

    /** @return records replayed, replay nanos, 1, the open's CPU nanos, the process's. */
    private static long[] fixedRound(final Path dir, final FilterKind kind, final int round, final long records,
        final long memoryBits) throws IOException
    {
        final Path path = dir.resolve("f.ddf");
        final Path image = dir.resolve("image.ddf");
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT);
            DuplicateFilter filter = Filters.builder(kind).memoryBits(memoryBits).seed(42).file(path).log(log)
                .create())
        {
            filter.checkpoint();
            Files.copy(path, image, StandardCopyOption.REPLACE_EXISTING);
            final long base = (long)round << 40;
            for (long i = 0; i < records; i++)
            {
                filter.stream(base + i);
            }
            log.force(log.appended());
            copyLog(dir.resolve("log"), dir.resolve("log-cut"));
        }
        Files.move(image, path, StandardCopyOption.REPLACE_EXISTING);
        System.setProperty(BootId.PROPERTY, new UUID(round, 31).toString());
        try (ChangeLog log = ChangeLog.open(dir.resolve("log-cut"), LogOptions.DEFAULT))
        {
            final long process = PROCESS.getProcessCpuTime();
            final long cpu = THREADS.getCurrentThreadCpuTime();
            try (DuplicateFilter filter = Filters.open(path, log))
            {
                final long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu;
                final long processNanos = PROCESS.getProcessCpuTime() - process;
                final Recovery r = filter.recovery();
                if (r.outcome() != Recovery.Outcome.REPLAYED)
                {
                    throw new IllegalStateException("the open did not replay: " + r.describe());
                }
                return new long[] {r.records(), r.nanos(), 1, cpuNanos, processNanos};
            }
        }
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static void copyLog(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from))
        {
            for (final Path f : files.filter(p -> p.getFileName().toString().endsWith(".ddflog") &&
                !p.getFileName().toString().startsWith(".")).toList())
            {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        try (Stream<Path> all = Files.walk(dir))
        {
            for (final Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList())
            {
                Files.delete(p);
            }
        }
    }
}
