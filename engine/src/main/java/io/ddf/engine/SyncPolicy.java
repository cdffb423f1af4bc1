package io.ddf.engine;

import io.ddf.engine.internal.SyncMode;

import java.util.Locale;

/**
 * When a filter's changes reach the storage device, and so what a power cut or a kernel crash can take (a process
 * crash, even {@code kill -9}, takes nothing: every verdict is in the mapped file, which the kernel keeps). The same
 * choice, and the same names, as Redis's {@code appendfsync}.
 *
 * <p>{@link #EVERYSEC} is the default, as it is Redis's: a power cut loses at most the last second or two of changes,
 * for a cost a stream does not see (the stores mark the pages they change; a background thread forces them).
 */
public enum SyncPolicy
{
    /**
     * A change is on the device before its verdict is returned: every call that changes the filter forces what it
     * changed (one {@code msync} of the changed pages), and a batch call ({@link DuplicateFilter#stream(long[], int,
     * int, boolean[])}) once for the whole batch. A power cut loses no element acknowledged, except in the kinds that
     * move entries between buckets: {@link FilterKind#CUCKOO} (its relocations; the window over cuckoo too) and
     * {@link FilterKind#DSQF} (its shared pool) can lose entries that were moving at the cut, old ones included,
     * since the kernel may write the bucket an entry left before the one it went to, whatever was forced when
     * (torn-file tests lost up to 0.9 % of a cuckoo filter's earlier elements, 4.7 to 5.7 % of a dsqf's; the
     * persistence module's FORMAT.md has the table). The file still opens, its structure sound. Costs a device flush
     * per call: batch, or call {@link DuplicateFilter#sync()} yourself with {@link #EVERYSEC}.
     */
    ALWAYS,
    /**
     * A background thread forces every filter's changed pages once a second: a power cut loses at most what was
     * acknowledged in the last one to two seconds (more when a sync takes longer than the bound; see
     * {@link Filters#syncStats()}). The default.
     */
    EVERYSEC,
    /**
     * Nothing is forced while the filter is open: the kernel writes the pages back when it chooses (Linux: within
     * about 30 s), and a power cut may lose that much. Closing forces everything, as with every policy. No tracking
     * cost on the hot path.
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
            case ALWAYS -> SyncMode.EACH_CALL;
            case EVERYSEC -> SyncMode.BACKGROUND;
            case NO -> SyncMode.UNTRACKED;
        };
    }

    static SyncPolicy of(final SyncMode mode)
    {
        return switch (mode)
        {
            case EACH_CALL -> ALWAYS;
            case BACKGROUND -> EVERYSEC;
            case UNTRACKED -> NO;
        };
    }
}
