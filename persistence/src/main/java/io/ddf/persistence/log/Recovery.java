package io.ddf.persistence.log;

import java.util.Locale;

/**
 * What opening a filter written through a change log did (FORMAT-LOG.md, "Opening a filter written through a log"),
 * for the log and {@code INFO persistence}.
 *
 * @param outcome    what was decided.
 * @param records    records replayed (0 unless {@link Outcome#REPLAYED}).
 * @param nanos      how long the replay took (0 unless replayed).
 * @param checkpoint the checkpoint position the header held at open (replay started there).
 * @param end        the log's end at open (replay stopped there).
 */
public record Recovery(Outcome outcome, long records, long nanos, long checkpoint, long end)
{
    /** The decision. */
    public enum Outcome
    {
        /** Created now: nothing to replay. */
        CREATED,
        /** Closed cleanly (sealed): nothing to replay. */
        SEALED,
        /** Not closed cleanly, but the kernel is the one that ran it: the page cache kept every store. */
        SAME_BOOT,
        /** Not closed cleanly after a reboot or power cut: the log replayed from the checkpoint. */
        REPLAYED,
        /** Not closed cleanly after a reboot, and its log is missing or another one: changes since P may be lost. */
        NO_LOG,
        /** Never written through a log before: tied to it now, nothing to replay. */
        ATTACHED,
        /** Not written through a log (sync policy {@code no}, an anonymous file). */
        NOT_LOGGED
    }

    /** A recovery with nothing replayed. */
    public static Recovery of(final Outcome outcome, final long checkpoint, final long end)
    {
        return new Recovery(outcome, 0, 0, checkpoint, end);
    }

    /** @return milliseconds the replay took. */
    public double millis()
    {
        return nanos / 1e6;
    }

    /** @return one line for a log: what was done and why. */
    public String describe()
    {
        return switch (outcome)
        {
            case CREATED -> "created: nothing to replay";
            case SEALED -> "closed cleanly: nothing to replay";
            case SAME_BOOT -> "not closed cleanly, but the machine did not restart since (same kernel boot id): " +
                "the page cache kept every change, nothing to replay";
            case REPLAYED -> String.format(Locale.ROOT, "not closed cleanly after a restart of the machine: " +
                "replayed %d records in %.1f ms from the checkpoint at log position %d to %d", records, millis(),
                checkpoint, end);
            case NO_LOG -> "not closed cleanly after a restart of the machine, and its change log is missing or " +
                "another one: opened as after a crash; changes after its checkpoint at position " + checkpoint +
                " may be missing";
            case ATTACHED -> "written through the change log from now on";
            case NOT_LOGGED -> "not written through a change log";
        };
    }
}
