package io.ddf.engine;

import io.ddf.engine.internal.SyncMode;

import java.util.Locale;

/**
 * When a filter's changes reach the storage device, and so what a power cut or a kernel crash can take (a process
 * crash, even {@code kill -9}, takes nothing: every verdict is in the mapped file, which the kernel keeps). The same
 * choice, and the same names, as Redis's {@code appendfsync}.
 *
 * <p>Under {@link #ALWAYS} and {@link #EVERYSEC} a file-backed filter is written through a <b>change log</b> next to its
 * file ({@code <file>.log/}, FORMAT-LOG.md beside the persistence module's FORMAT.md): each change appends a record of
 * tens of bytes, whatever the table's size, and the policy decides when the log is forced; the table itself is made
 * durable by <b>checkpoints</b> in the background (every {@value io.ddf.engine.changelog.LogScheduler#CHECKPOINT_SECONDS}
 * seconds, or sooner once the log since the last one passes
 * {@value io.ddf.engine.changelog.LogScheduler#CHECKPOINT_LOG_MIB} MiB), after which the log before it is deleted. After
 * a power cut the next open replays the log from the last checkpoint ({@link DuplicateFilter#recovery()}); after a
 * crash of the process alone there is nothing to replay. An anonymous file (no {@link FilterBuilder#file}) is gone at
 * close: nothing of it is logged or forced, whatever the policy.
 *
 * <p>{@link #EVERYSEC} is the default, as it is Redis's: a power cut loses at most the last second or two of changes.
 */
public enum SyncPolicy
{
    /**
     * A change is on the device before its verdict is returned: every call that changes the filter forces the log
     * through its record (one ranged {@code msync} of the log), and a batch call ({@link DuplicateFilter#stream(long[],
     * int, int, boolean[])}) once for the whole batch. A power cut loses no element acknowledged; what replay
     * restores per kind is in FORMAT-LOG.md (exact for the Bloom kinds; the kinds that evict or move entries keep
     * every element their own rule did not drop). Costs a device flush per changing call: batch, or call
     * {@link DuplicateFilter#sync()} yourself with {@link #EVERYSEC}.
     */
    ALWAYS,
    /**
     * The log is forced once a second by a background thread: a power cut loses at most what was acknowledged in the
     * last one to two seconds. The default.
     */
    EVERYSEC,
    /**
     * Nothing is logged or forced while the filter is open: the kernel writes the pages back when it chooses (Linux:
     * within about 30 s), and a power cut may lose that much. Closing forces everything, as with every policy. No cost
     * on the hot path.
     */
    NO;

    /** The policy of a filter built or opened without one. */
    public static final SyncPolicy DEFAULT = EVERYSEC;

    /** @return the name as on the command line and in Redis: {@code always}, {@code everysec} or {@code no}. */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param name {@code always}, {@code everysec} or {@code no}, in any case.
     * @return the policy.
     * @throws IllegalArgumentException naming the three choices.
     */
    public static SyncPolicy parse(final String name)
    {
        for (final SyncPolicy policy : values())
        {
            if (policy.cliName().equalsIgnoreCase(name == null ? "" : name.trim()))
            {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown sync policy '" + name + "': choose always, everysec or no");
    }

    SyncMode mode()
    {
        return switch (this)
        {
            case ALWAYS -> SyncMode.LOG_ALWAYS;
            case EVERYSEC -> SyncMode.LOG_EVERYSEC;
            case NO -> SyncMode.UNTRACKED;
        };
    }

    static SyncPolicy of(final SyncMode mode)
    {
        return switch (mode)
        {
            case LOG_ALWAYS -> ALWAYS;
            case LOG_EVERYSEC, LOG_SHARED -> EVERYSEC;
            case UNTRACKED -> NO;
        };
    }
}
