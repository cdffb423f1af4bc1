package io.ddf.ingest.store;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.ingest.log.OneLine;
import io.ddf.persistence.Leftovers;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The daemon's data directory: made owner-only, held by a lock file so that one daemon serves it, and read at
 * start-up into the filters it holds and the files it could not open. What is done with them while the daemon runs
 * is the {@link FilterStore}'s.
 */
final class DataDirectory implements AutoCloseable
{
    /** Lock file in the data directory: one daemon per directory. */
    static final String LOCK_FILE = ".ddf-serve.lock";
    /** The change log's directory (not a filter). */
    private static final String LOG_DIRECTORY = io.ddf.ingest.durability.Durability.LOG_DIRECTORY;

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(final Path path, final FileChannel lockChannel, final FileLock lock)
    {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * What a directory held at start-up.
     *
     * @param filters the filters opened, by key, in file name order.
     * @param failed  the keys whose file exists but could not be opened (foreign, corrupt, truncated, failing its
     *                checksum or structure check, beyond --max-filters), with the reason, naming the file.
     * @param skipped how many files were not opened: those of {@code failed} and those not named as filters.
     */
    record Contents(Map<String, DuplicateFilter> filters, Map<String, String> failed, int skipped)
    {
    }

    /**
     * Creates the directory if need be and locks it.
     *
     * @param dir the data directory.
     * @param log where to warn of a directory open to other users.
     * @return the directory, locked until {@link #close()}.
     * @throws IllegalStateException when another daemon holds the directory, or its lock file is not a file.
     * @throws UncheckedIOException  when the directory cannot be made or locked.
     */
    static DataDirectory lock(final Path dir, final PrintStream log)
    {
        try
        {
            createPrivateDirectory(dir, log);
            final Path lockFile = dir.resolve(LOCK_FILE);
            if (Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(lockFile,
                LinkOption.NOFOLLOW_LINKS))
            {
                // opening a FIFO for writing would block until a reader came
                throw new IllegalStateException(lockFile + " is not a regular file; remove it");
            }
            final FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
            final FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final IOException | RuntimeException e)
            {
                channel.close();
                throw e;
            }
            if (lock == null)
            {
                channel.close();
                throw new IllegalStateException("data directory " + dir + " is in use by another ddf serve");
            }
            return new DataDirectory(dir, channel, lock);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates the data directory owner-only (rwx------): filter files hold what was seen and may hold keys, and a
     * file truncated by another user would crash the daemon (FORMAT.md, "Files changed from outside"). An
     * existing directory open to others is used as it is, with a warning.
     */
    private static void createPrivateDirectory(final Path dir, final PrintStream log) throws IOException
    {
        final boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.isDirectory(dir))
        {
            if (posix)
            {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            }
            else
            {
                Files.createDirectories(dir);
            }
            return;
        }
        if (posix)
        {
            final Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
            if (perms.stream().anyMatch(p -> !p.name().startsWith("OWNER_")))
            {
                log.println("ddf: warning: data directory " + dir + " is " + PosixFilePermissions.toString(perms) +
                    "; other users can change or truncate its filter files (run: chmod 700 " + dir + ")");
            }
        }
    }

    /**
     * Removes what unfinished creations left, then opens every filter file (at most {@code maxFilters}), logging a
     * line for each file removed, skipped or not opened.
     *
     * @param maxFilters the most filters to open (--max-filters).
     * @param log        where the lines go.
     * @param policy     when the filters' changes reach the disk (when not written through a change log).
     * @param changeLog  the data directory's change log every filter is written through, or null (policy
     *                   {@code no}).
     * @param clock      the wall clock of the filters with a window of time (null: the engine's); each such filter
     *                   gets a line saying what expired while it was closed.
     * @return what the directory holds.
     * @throws UncheckedIOException when the directory cannot be read.
     */
    Contents open(final int maxFilters, final PrintStream log, final io.ddf.engine.SyncPolicy policy,
        final io.ddf.persistence.log.ChangeLog changeLog, final java.time.InstantSource clock)
    {
        try
        {
            return openFiles(maxFilters, log, policy, changeLog, clock);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private Contents openFiles(final int maxFilters, final PrintStream log, final io.ddf.engine.SyncPolicy policy,
        final io.ddf.persistence.log.ChangeLog changeLog, final java.time.InstantSource clock)
        throws IOException
    {
        for (final Path leftover : Leftovers.remove(path))
        {
            log.println("ddf: removed " + leftover + ": a filter whose creation never finished (the daemon died " +
                "while making it)");
        }
        final Map<String, DuplicateFilter> filters = new LinkedHashMap<>();
        final Map<String, String> failed = new LinkedHashMap<>();
        int skip = 0;
        final List<Path> files = new ArrayList<>();
        final List<String> keys = new ArrayList<>();
        try (Stream<Path> list = Files.list(path))
        {
            for (final Path file : list.sorted().toList())
            {
                final String name = file.getFileName().toString();
                if (name.startsWith(".") || name.endsWith(KeyNames.SUFFIX +
                    io.ddf.ingest.store.ScalingRegistry.SUFFIX) || name.equals(LOG_DIRECTORY))
                {
                    continue; // hidden, a scaling filter's file (FilterStore opens those as scaling filters), the log
                }
                final String key = KeyNames.key(name);
                if (key == null)
                {
                    log.println("ddf: skipping " + file + ": not a filter file name (<key>" + KeyNames.SUFFIX + ")");
                    skip++;
                }
                else if (files.size() >= maxFilters)
                {
                    fail(failed, key, file + ": not opened: --max-filters " + maxFilters + " reached", log);
                    skip++;
                }
                else
                {
                    files.add(file);
                    keys.add(key);
                }
            }
        }
        final List<Filters.Opened> opened = changeLog == null ? Filters.openAll(files, policy, clock) :
            Filters.openAll(files, changeLog, clock);
        for (int i = 0; i < opened.size(); i++)
        {
            if (opened.get(i).filter() != null)
            {
                filters.put(keys.get(i), opened.get(i).filter());
                final String key = keys.get(i);
                opened.get(i).filter().timeWindow().ifPresent(w -> log.println(FilterEvents.windowAtOpen(key, w)));
            }
            else
            {
                fail(failed, keys.get(i), OneLine.of(opened.get(i).failure()), log);
                skip++;
            }
        }
        return new Contents(filters, failed, skip);
    }

    private static void fail(final Map<String, String> failed, final String key, final String reason,
        final PrintStream log)
    {
        failed.put(key, reason);
        log.println("ddf: cannot open " + reason + "; commands on '" + key + "' answer this error until DEL " +
            "deletes the file");
    }

    /** @return the directory. */
    Path path()
    {
        return path;
    }

    /** @return whether the directory is still locked ({@link #close()} not called yet). */
    boolean locked()
    {
        return lockChannel.isOpen();
    }

    /** Releases the directory to another daemon. */
    @Override
    public void close()
    {
        try
        {
            lock.release();
            lockChannel.close();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
