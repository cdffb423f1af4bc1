package io.ddf.persistence.log;

import io.ddf.persistence.platform.RawMemory;

import java.util.UUID;

/**
 * The header fields that tie a filter's file to a change log (FORMAT-LOG.md, "The header fields a filter file gets"):
 * the log's id, the filter's number in it, the checkpoint position and time, and the boot id at open. The same 48
 * bytes in a fixed-size filter file (at {@link #FILTER_FILE_OFFSET}) and a scaling file (at
 * {@link #SCALING_FILE_OFFSET}); each aligned word is stored with a release store and read with an acquire load.
 */
public final class LogBinding
{
    /** Where the fields start in a fixed-size filter file's header page (FORMAT.md, bytes 2.0 reserved). */
    public static final int FILTER_FILE_OFFSET = 272;
    /** Where they start in a scaling file's header page (FORMAT-scaling.md). */
    public static final int SCALING_FILE_OFFSET = 192;
    /** Bytes the fields take. */
    public static final int LENGTH = 48;

    private static final int LOG_ID = 0;
    private static final int NUMBER = 8;
    private static final int CHECKPOINT = 16;
    private static final int CHECKPOINT_MILLIS = 24;
    private static final int BOOT_ID = 32;

    private final long address;
    private final Runnable forceHeader;

    /**
     * @param headerAddress the mapped header page's first byte.
     * @param offset        where the fields start in it.
     * @param forceHeader   forces the header page to the device.
     */
    public LogBinding(final long headerAddress, final int offset, final Runnable forceHeader)
    {
        if ((offset & 7) != 0)
        {
            throw new IllegalArgumentException("the log fields must be 8-byte aligned, not at " + offset);
        }
        this.address = headerAddress + offset;
        this.forceHeader = forceHeader;
    }

    /** @return the id of the log the file is written through; 0 when none. */
    public long logId()
    {
        return get(LOG_ID);
    }

    /** @return the filter's number in that log; 0 when none. */
    public int number()
    {
        return (int)get(NUMBER);
    }

    /** @return the checkpoint position: every change whose record lies before it is in the table on the device. */
    public long checkpoint()
    {
        return get(CHECKPOINT);
    }

    /** @return when that checkpoint was taken, epoch milliseconds; 0 when none. */
    public long checkpointMillis()
    {
        return get(CHECKPOINT_MILLIS);
    }

    /** @return the boot id stored at the last open for writing (all zeros when none). */
    public UUID bootId()
    {
        return new UUID(get(BOOT_ID), get(BOOT_ID + 8));
    }

    /**
     * Ties the file to a log (unforced: {@link #force()}).
     *
     * @param logId      the log's id.
     * @param number     the filter's number in it.
     * @param checkpoint the position replay would start from.
     * @param millis     the checkpoint's time.
     */
    public void attach(final long logId, final int number, final long checkpoint, final long millis)
    {
        put(LOG_ID, logId);
        put(NUMBER, Integer.toUnsignedLong(number));
        checkpoint(checkpoint, millis);
    }

    /**
     * Records a checkpoint (unforced: {@link #force()}).
     *
     * @param position the checkpoint position.
     * @param millis   its time.
     */
    public void checkpoint(final long position, final long millis)
    {
        put(CHECKPOINT, position);
        put(CHECKPOINT_MILLIS, millis);
    }

    /**
     * Records the boot id of this open (unforced: {@link #force()}).
     *
     * @param id the boot id.
     */
    public void bootId(final UUID id)
    {
        put(BOOT_ID, id.getMostSignificantBits());
        put(BOOT_ID + 8, id.getLeastSignificantBits());
    }

    /** Forces the header page (these fields with it) to the device. */
    public void force()
    {
        forceHeader.run();
    }

    private long get(final int field)
    {
        return RawMemory.getLongVolatile(address + field);
    }

    private void put(final int field, final long value)
    {
        RawMemory.putLongRelease(address + field, value);
    }
}
