package io.ddf.kafka;

import java.nio.ByteBuffer;

/**
 * The keys and values of a {@link DdfStore}'s changelog. An 8-byte key is a word index (or {@link #PARAMETERS}), as
 * the first format had; a 9-byte key is a record type byte then a big-endian 64-bit number:
 *
 * <pre>
 *   key (8 bytes)             value
 *   word index i >= 0         word i, 8 bytes big-endian
 *   -1                        the filter's parameters, as text
 *   key (9 bytes)
 *   'B' block b               words 8b .. 8b+7, 64 bytes
 *   'H' epoch << 32 | seq     hashes of elements judged UNSEEN, 8 bytes each, in stream order; null: deleted
 *   'S' parity << 62 | w      table words [w, w + n) of a snapshot (w counted from the table's first word)
 *   'C' 0                     the snapshot just logged is complete: its ordinal (8 bytes), chunks (8 bytes)
 * </pre>
 *
 * Numbers are big-endian, so that keys sort as numbers; values too, as the first format's word values were.
 */
final class ChangelogKeys
{
    /** Word index of the record that holds the filter's parameters. */
    static final long PARAMETERS = -1L;
    static final byte BLOCK = 'B';
    static final byte HASHES = 'H';
    static final byte CHUNK = 'S';
    static final byte SNAPSHOT_DONE = 'C';
    /** Bit of a snapshot chunk's number that holds the snapshot's parity. */
    static final int PARITY_SHIFT = 62;
    /** Length of a typed key. */
    static final int TYPED_LENGTH = 1 + Long.BYTES;

    private ChangelogKeys()
    {
    }

    /**
     * @param index a word index, or {@link #PARAMETERS}.
     * @return its key.
     */
    static byte[] word(final long index)
    {
        return ByteBuffer.allocate(Long.BYTES).putLong(index).array();
    }

    /**
     * @param type   the record type.
     * @param number its number.
     * @return the key.
     */
    static byte[] typed(final byte type, final long number)
    {
        return ByteBuffer.allocate(TYPED_LENGTH).put(type).putLong(number).array();
    }

    /**
     * @param key a key of either length.
     * @return its number (the word index of an 8-byte key).
     */
    static long number(final byte[] key)
    {
        return ByteBuffer.wrap(key, key.length - Long.BYTES, Long.BYTES).getLong();
    }

    /**
     * @param words  longs.
     * @param from   the first.
     * @param length how many.
     * @return their bytes, big-endian.
     */
    static byte[] longs(final long[] words, final int from, final int length)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(length * Long.BYTES);
        bytes.asLongBuffer().put(words, from, length);
        return bytes.array();
    }

    /**
     * @param value bytes, a multiple of 8.
     * @return the longs, big-endian.
     */
    static long[] longs(final byte[] value)
    {
        final long[] words = new long[value.length / Long.BYTES];
        ByteBuffer.wrap(value).asLongBuffer().get(words);
        return words;
    }
}
