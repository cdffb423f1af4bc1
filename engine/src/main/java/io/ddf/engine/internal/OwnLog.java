package io.ddf.engine.internal;

import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;

import java.nio.file.Path;

/**
 * The change log of an embedded filter (or {@code ddf pipe --file}): its own, next to its file, {@code <file>.log/}
 * (FORMAT-LOG.md), under the sync policies {@code always} and {@code everysec}.
 */
final class OwnLog
{
    /** Record bytes per segment of an own log: 16 MiB, half a million records (the daemon's log has 64 MiB). */
    static final long SEGMENT_BYTES = 16L << 20;

    private OwnLog()
    {
    }

    /**
     * @param path the filter's file, or null for an anonymous one.
     * @param sync its mode.
     * @return whether it is written through a log of its own.
     */
    static boolean wanted(final Path path, final SyncMode sync)
    {
        return path != null && (sync == SyncMode.LOG_EVERYSEC || sync == SyncMode.LOG_ALWAYS);
    }

    /**
     * @param file a filter's file.
     * @return the directory of its own log.
     */
    static Path directoryFor(final Path file)
    {
        return file.resolveSibling(file.getFileName() + ".log");
    }

    /**
     * @param file         a filter's file.
     * @param tableBytes   its table's bytes (0: unknown).
     * @param singleWriter whether one thread at a time writes it (the log is then owned: no locked instruction).
     * @return its log, open (created when missing).
     */
    static ChangeLog open(final Path file, final long tableBytes, final boolean singleWriter)
    {
        final LogOptions options = LogOptions.DEFAULT.withSegmentBytes(SEGMENT_BYTES);
        return ChangeLog.open(directoryFor(file), singleWriter ? options.asOwned() : options);
    }

    /**
     * Removes a log directory this creation made, when the filter's file could not be made (a creation refused
     * writes nothing: no file, no log). Quiet: what cannot be removed is left, as an empty log.
     *
     * @param file the filter file that was to be created.
     */
    static void discard(final Path file)
    {
        try (java.util.stream.Stream<Path> all = java.nio.file.Files.walk(directoryFor(file)))
        {
            for (final Path p : all.sorted(java.util.Comparator.reverseOrder()).toList())
            {
                java.nio.file.Files.deleteIfExists(p);
            }
        }
        catch (final java.io.IOException | java.io.UncheckedIOException ignored)
        {
            // left as an empty log: the next creation of the file reuses it
        }
    }
}
