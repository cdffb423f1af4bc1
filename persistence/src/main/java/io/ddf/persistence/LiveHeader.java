package io.ddf.persistence;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Where a format keeps, in its first page, what a live-placed file's open ({@link LivePlacement}) needs to decide
 * whether the live copy still belongs to the durable file: the bytes that name the file (fixed at creation), the
 * change log's checkpoint position and boot id (FORMAT-LOG.md), and the closed-cleanly word.
 *
 * @param identity       pairs of [from, to) byte ranges that never change after creation; equal in both copies of one
 *                       file.
 * @param checkpoint     offset of the checkpoint position (int64): the durable copy's may not be ahead of the live's.
 * @param bootId         offset of the 16-byte boot id at open, cleared in a copy restored from the durable file so
 *                       that its open replays the log instead of trusting a page cache that did not survive.
 * @param seal           offset of the closed-cleanly word (int32).
 * @param sealValue      its value when closed cleanly.
 */
public record LiveHeader(int[] identity, int checkpoint, int bootId, int seal, int sealValue)
{
    /** LogBinding.FILTER_FILE_OFFSET (the log package names this one, so not the other way round). */
    private static final int FIXED_BINDING = 272;
    /** Where the change log's checkpoint position lies in its 48 header bytes (LogBinding, FORMAT-LOG.md). */
    public static final int CHECKPOINT_IN_BINDING = 16;
    /** Where the boot id at open lies in them. */
    public static final int BOOT_ID_IN_BINDING = 32;

    /** The first page: every field above lies in it. */
    static final int BYTES = (int)SegmentedFile.PAGE;
    private static final int BOOT_ID_BYTES = 16;

    /** Fixed-size filter files (FORMAT.md 2.0 with FORMAT-LOG.md's fields). */
    public static final LiveHeader FIXED = new LiveHeader(new int[] {0, FilterFileDescriptor.READY_OFFSET},
        FIXED_BINDING + CHECKPOINT_IN_BINDING, FIXED_BINDING + BOOT_ID_IN_BINDING, FilterFileDescriptor.SEAL_OFFSET,
        FilterFileDescriptor.SEAL_VALUE);

    /**
     * @param identity   as the record's.
     * @param checkpoint as the record's.
     * @param bootId     as the record's.
     * @param seal       as the record's.
     * @param sealValue  as the record's.
     */
    public LiveHeader
    {
        identity = identity.clone();
        if (identity.length == 0 || identity.length % 2 != 0)
        {
            throw new IllegalArgumentException("identity ranges come in [from, to) pairs");
        }
    }

    @Override
    public int[] identity()
    {
        return identity.clone();
    }

    /** @return whether two first pages name the same file. */
    boolean sameIdentity(final ByteBuffer a, final ByteBuffer b)
    {
        for (int i = 0; i < identity.length; i += 2)
        {
            if (!a.slice(identity[i], identity[i + 1] - identity[i]).equals(
                b.slice(identity[i], identity[i + 1] - identity[i])))
            {
                return false;
            }
        }
        return true;
    }

    long checkpointOf(final ByteBuffer page)
    {
        return page.order(ByteOrder.LITTLE_ENDIAN).getLong(checkpoint);
    }

    boolean sealed(final ByteBuffer page)
    {
        return page.order(ByteOrder.LITTLE_ENDIAN).getInt(seal) == sealValue;
    }

    /** @return the 16 zero bytes a restored copy gets as its boot id. */
    static byte[] noBootId()
    {
        return new byte[BOOT_ID_BYTES];
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof LiveHeader h && Arrays.equals(identity, h.identity) && checkpoint == h.checkpoint &&
            bootId == h.bootId && seal == h.seal && sealValue == h.sealValue;
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(identity) * 31 + checkpoint;
    }

    @Override
    public String toString()
    {
        return "LiveHeader" + Arrays.toString(identity) + "@" + checkpoint;
    }
}
