package io.ddf.engine;

/**
 * How a filter's file was left before it was opened, and so what may be missing from it: a restarted process says so
 * for every filter ({@link DuplicateFilter#lastClose()}), never silently.
 *
 * @param kind     how it was left.
 * @param lastSync epoch milliseconds: for {@link Kind#CLEAN}, when the close began; for {@link Kind#CRASH}, the time
 *                 before which every change acknowledged was on the device (its last completed sync); 0 when no
 *                 time was recorded (a file of an older build, or never synced).
 */
public record LastClose(Kind kind, long lastSync)
{
    /** How a file was left. */
    public enum Kind
    {
        /** Created by this handle: nothing can be missing. */
        CREATED,
        /** Closed cleanly (sealed, checksum verified at open): nothing is missing. */
        CLEAN,
        /** Format 1.0, which keeps no seal: whether it was closed cleanly cannot be told. */
        UNKNOWN,
        /**
         * Not closed cleanly: a crash, a kill, a power cut. A process crash loses nothing; a power cut or kernel crash
         * may have lost the changes acknowledged after {@code lastSync} (0: since the file was last opened or made).
         */
        CRASH,
        /**
         * Sealed, but its table no longer matched the seal's checksum: a close by an earlier build of ddf while
         * another thread still streamed (issue 30), or a change on disk since. Opened as after a crash (its structure checked, each
         * kind's recovery run) and the reason logged; as with {@link #CRASH}, what a power cut took may be missing,
         * and a change on disk that kept the structure sound cannot be told from the filter's own.
         */
        SEAL_MISMATCH
    }

    /**
     * @param now the time now, epoch milliseconds.
     * @return one line for a log or a report: how the file was left and what may be missing.
     */
    public String describe(final long now)
    {
        return switch (kind)
        {
            case CREATED -> "created";
            case UNKNOWN -> "format 1.0 keeps no seal: whether it was closed cleanly is unknown";
            case CLEAN -> "clean close" + (lastSync > 0 ? " at " + java.time.Instant.ofEpochMilli(lastSync) : "");
            case CRASH -> lastSync > 0 ?
                "not closed cleanly: after a power cut, changes since the last sync at " +
                    java.time.Instant.ofEpochMilli(lastSync) + " (" + Math.max(0, now - lastSync) / 1000.0 +
                    " s before now) may be missing" :
                "not closed cleanly, and no sync recorded: after a power cut, changes since it was last opened may " +
                    "be missing";
            case SEAL_MISMATCH -> "its seal did not match its table (closed while a write was landing, or changed on " +
                "disk since): opened as after a crash, its structure checked";
        };
    }
}
