package io.ddf.ingest.durability;

import io.ddf.engine.SyncPolicy;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.LivePlacement;
import io.ddf.persistence.log.BootId;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code serve --live-dir}: where the data directory's filter tables are mapped. By default on /dev/shm when the data
 * directory is on a disk ({@link LivePlacement#defaultRoot}), under every policy: the disk then gets a table only at
 * its checkpoints, instead of the kernel's writeback of every dirty page (issue 31). Under {@code --fsync no} too,
 * where the checkpoints force the tables without a log ({@link Checkpoints}): in place, the kernel wrote back a 10^9
 * filter's table at 0.9-1.0 GB/s under random adds and every written page faulted again on its next store, which
 * made {@code no} slower than {@code everysec} (593,472 against 713,776 BF.ADD/s, bench/README.md).
 */
final class LiveTables
{
    private final Path dataDir;
    private final Path liveDir;
    private final String why;

    private LiveTables(final Path dataDir, final Path liveDir, final String why)
    {
        this.dataDir = dataDir;
        this.liveDir = liveDir;
        this.why = why;
    }

    /**
     * Decides and installs the placement, and logs it.
     *
     * @param dataDir the data directory, locked.
     * @param option  {@code --live-dir}: null for the default, {@code none}, or a directory.
     * @param policy  {@code --fsync}.
     * @param log     where the choice is said.
     * @return the placement.
     */
    static LiveTables place(final Path dataDir, final String option, final SyncPolicy policy, final PrintStream log)
    {
        final List<String> why = new ArrayList<>();
        final Path root;
        if (option == null)
        {
            root = LivePlacement.defaultRoot(dataDir, why);
        }
        else if (LivePlacement.NONE.equals(option))
        {
            why.add("--live-dir none");
            root = null;
        }
        else
        {
            root = Path.of(option);
            why.add("--live-dir " + option);
        }
        if (root == null)
        {
            log.println("Filter tables mapped in place in " + dataDir + " (" + why.get(0) + ")");
            return new LiveTables(dataDir, null, why.get(0));
        }
        try
        {
            Files.createDirectories(root);
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("--live-dir " + root + ": cannot make the directory: " + e.getMessage(),
                e);
        }
        final Path liveDir;
        try
        {
            liveDir = LivePlacement.install(dataDir, root, BootId.current().toString());
        }
        catch (final FilterFileException e)
        {
            throw new IllegalStateException(e.getMessage() + " (serve --live-dir none maps them in place)", e);
        }
        log.println("Filter tables mapped live from " + liveDir + " (" + why.get(0) + "); the data directory's " +
            "files get them at checkpoints and clean closes" + (policy == SyncPolicy.NO ? " (under --fsync no, " +
            "with no log: a power cut takes what changed since the last checkpoint)" : ""));
        return new LiveTables(dataDir, liveDir, why.get(0));
    }

    /** @return whether the tables are live (not in place). */
    boolean live()
    {
        return liveDir != null;
    }

    /** Ends the placement (every filter closed). */
    void close()
    {
        if (liveDir != null)
        {
            LivePlacement.uninstall(dataDir);
        }
    }

    /** @param log where each live copy opened at start is said: kept, or restored from the data directory and why. */
    void logOpenings(final PrintStream log)
    {
        if (liveDir != null)
        {
            LivePlacement.openings(liveDir).forEach((file, what) -> log.println("Live copy of " + file + ": " + what));
        }
    }

    /** @return INFO persistence's lines: the live directory (or none), why, and what it holds now. */
    List<String> infoLines()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("ddf_live_dir:" + (liveDir == null ? LivePlacement.NONE : liveDir));
        lines.add("ddf_live_reason:" + why.replaceAll("[\r\n]", " "));
        long files = 0;
        long bytes = 0;
        if (liveDir != null)
        {
            try (Stream<Path> entries = Files.list(liveDir))
            {
                for (final Path entry : (Iterable<Path>)entries::iterator)
                {
                    final String name = entry.getFileName().toString();
                    if (Files.isRegularFile(entry) && !name.startsWith("."))
                    {
                        files++;
                        bytes += Files.size(entry);
                    }
                }
            }
            catch (final IOException e)
            {
                files = -1;
            }
        }
        lines.add("ddf_live_filters:" + files);
        lines.add("ddf_live_bytes:" + bytes);
        if (liveDir != null)
        {
            LivePlacement.openings(liveDir).forEach((file, what) ->
                lines.add("ddf_live_at_start_" + file + ":" + what.replaceAll("[\r\n]", " ")));
        }
        return lines;
    }
}
