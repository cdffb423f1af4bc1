package io.ddf.bench;

import io.ddf.engine.scaling.BloomChain;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.Recovery;

import java.io.IOException;
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
 * Replay speed of the daemon's default filter (issue 31): a ddf scaling chain (BF.RESERVE's default: ddf's blocked
 * layers, expansion 2, 1 %) written through a change log, checkpointed empty, then given N adds (CHAIN_ADD records,
 * and CHAIN_GROW as it grows); a power cut is played (the file as at the checkpoint, the log as forced, another boot
 * id) and the open replays every record: records/s = records replayed / the replay's time (Recovery), per round.
 *
 * <pre>bench/run.sh ReplayBench OUT.md WORK_DIR ROUNDS RECORDS INITIAL_CAPACITY</pre>
 */
public final class ReplayBench
{
    private ReplayBench()
    {
    }

    /** @param args output file, work directory, rounds, records, initial capacity. */
    public static void main(final String[] args) throws IOException
    {
        final Path out = Path.of(args[0]);
        final Path work = Path.of(args[1]);
        final int rounds = Integer.parseInt(args[2]);
        final long records = Long.parseLong(args[3]);
        final long capacity = Long.parseLong(args[4]);
        final List<String> lines = new ArrayList<>();
        lines.add("# Change-log replay of the default scaling chain (" + records + " adds, initial capacity " + capacity +
            ", 1 %, expansion 2)");
        lines.add("");
        lines.add("| round | records replayed | layers | replay ms | records/s |");
        lines.add("| ---: | ---: | ---: | ---: | ---: |");
        final double[] rates = new double[rounds];
        for (int round = 0; round < rounds; round++)
        {
            final Path dir = Files.createDirectories(work.resolve("round-" + round));
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
                final Recovery r = chain.logTo(log);
                rates[round] = r.records() / (r.nanos() / 1e9);
                lines.add(String.format(Locale.ROOT, "| %d | %d | %d | %.1f | %.0f |", round + 1, r.records(),
                    chain.layerCount(), r.nanos() / 1e6, rates[round]));
            }
            finally
            {
                System.clearProperty(BootId.PROPERTY);
            }
            deleteTree(dir);
        }
        final double[] sorted = rates.clone();
        Arrays.sort(sorted);
        lines.add("");
        lines.add(String.format(Locale.ROOT, "median: %.0f records/s over %d rounds", sorted[rounds / 2], rounds));
        Files.write(out, lines);
        lines.forEach(System.out::println);
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
