package io.ddf.ingest.migrate;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ddf migrate --from HOST:PORT --to HOST:PORT}: every Bloom and cuckoo filter of a running RedisBloom,
 * moved into a ddf daemon by its dump and checked ({@link Migration}).
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
    description = {"Copy every RedisBloom Bloom and cuckoo filter (TYPE MBbloom-- and MBbloomCF) of a running Redis",
        "into a ddf daemon, by BF.SCANDUMP/CF.SCANDUMP and LOADCHUNK, then check each key: the same BF.INFO/CF.INFO",
        "and the same MEXISTS answers for random probes on both sides. Refuses to start when any key exists on the",
        "target. Exit 0 when every key moved and checked; 1 when a key failed; 2 for bad usage or keys in the way."})
public final class MigrateCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "HOST:PORT", description = "The Redis with RedisBloom.")
    private String from;

    @Option(names = "--to", required = true, paramLabel = "HOST:PORT", description = "The ddf daemon.")
    private String to;

    @Option(names = "--match", paramLabel = "PATTERN", defaultValue = "*",
        description = "Only keys matching this SCAN pattern (default: ${DEFAULT-VALUE}).")
    private String pattern;

    @Option(names = "--password-file", paramLabel = "FILE",
        description = "The source's password (or 'user password'), on the file's first line.")
    private Path passwordFile;

    @Option(names = "--to-password-file", paramLabel = "FILE",
        description = "The target's password (or 'user password'), on the file's first line.")
    private Path toPasswordFile;

    @Option(names = "--probes", paramLabel = "N", defaultValue = "10000",
        description = "Random items each key's check asks both sides about (default: ${DEFAULT-VALUE}).")
    private int probes;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "120000",
        description = "Connect and reply timeout (default: ${DEFAULT-VALUE}).")
    private int timeoutMillis;

    @Option(names = "--no-progress", description = "No progress bar (it goes to standard error).")
    private boolean noProgress;

    @Override
    public Integer call() throws IOException
    {
        final PrintWriter out = spec.commandLine().getOut();
        if (probes < 0 || timeoutMillis <= 0)
        {
            throw new ParameterException(spec.commandLine(), "--probes must be >= 0 and --timeout-ms > 0");
        }
        try (RespLink source = connect(from, passwordFile); RespLink target = connect(to, toPasswordFile))
        {
            final long started = System.nanoTime();
            final Migration migration = new Migration(source, target, probes, started);
            final List<Migration.Key> keys = migration.discover(pattern);
            final List<Migration.Key> taken = migration.existing(keys);
            if (!taken.isEmpty())
            {
                final StringBuilder names = new StringBuilder();
                for (int i = 0; i < Math.min(10, taken.size()); i++)
                {
                    names.append(i == 0 ? "" : ", ").append(taken.get(i).text());
                }
                throw new ParameterException(spec.commandLine(), taken.size() + " of the " + keys.size() +
                    " keys exist on " + to + " already (" + names + (taken.size() > 10 ? ", ..." : "") +
                    "): refusing to overwrite; nothing was copied");
            }
            long total = 0;
            for (final Migration.Key key : keys)
            {
                total += key.bytes();
            }
            int failed = 0;
            long copied = 0;
            int cuckoos = 0;
            try (ProgressBar bar = progress(total))
            {
                for (final Migration.Key key : keys)
                {
                    cuckoos += key.cuckoo() ? 1 : 0;
                    try
                    {
                        copied += migration.copy(key, bytes -> step(bar, bytes));
                        final String difference = migration.check(key);
                        if (difference != null)
                        {
                            failed++;
                            out.println("ddf migrate: " + key.text() + ": moved, but " + difference);
                        }
                    }
                    catch (final RespLink.ServerError error)
                    {
                        failed++;
                        out.println("ddf migrate: " + key.text() + ": " + error.getMessage());
                    }
                }
            }
            final double seconds = (System.nanoTime() - started) / 1e9;
            out.printf("moved %d keys (%d Bloom, %d cuckoo), %d bytes of dumps, in %.1f s; %s%n", keys.size() - failed,
                keys.size() - cuckoos, cuckoos, copied, seconds,
                failed == 0 ? "each answers alike on both sides (" + probes + " probes a key)" : failed + " failed");
            out.flush();
            return failed == 0 ? 0 : 1;
        }
    }

    private static void step(final ProgressBar bar, final long bytes)
    {
        if (bar != null)
        {
            bar.stepBy(bytes);
        }
    }

    private ProgressBar progress(final long total)
    {
        if (noProgress)
        {
            return null;
        }
        return new ProgressBarBuilder().setTaskName("migrate").setInitialMax(Math.max(1, total))
            .setUnit(" MB", 1_000_000).showSpeed()
            .setConsumer(new ConsoleProgressBarConsumer(new PrintStream(System.err, true, StandardCharsets.UTF_8)))
            .build();
    }

    private RespLink connect(final String endpoint, final Path password) throws IOException
    {
        final RespLink link;
        try
        {
            link = new RespLink(endpoint, timeoutMillis);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex, null, endpoint);
        }
        if (password != null)
        {
            final List<String> lines = Files.readAllLines(password, StandardCharsets.UTF_8);
            final String line = lines.isEmpty() ? "" : lines.get(0);
            final int space = line.indexOf(' ');
            try
            {
                if (space > 0)
                {
                    link.call("AUTH", line.substring(0, space), line.substring(space + 1));
                }
                else
                {
                    link.call("AUTH", line);
                }
            }
            catch (final RespLink.ServerError error)
            {
                link.close();
                throw new ParameterException(spec.commandLine(), endpoint + " refused the password of " + password +
                    ": " + error.getMessage());
            }
        }
        return link;
    }
}
