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
 *   'T' epoch << 32 | seq     calls, in order: each a hash (8 bytes) then its time as a zig-zag varint of the
 *                             difference of time + 1 (0: no time) from the call before's (0 before the first);
 *                             null: deleted
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
    static final byte CALLS = 'T';
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

    /** Most bytes one call takes in a {@link #CALLS} record: its hash, then a varint of up to 10 bytes. */
    static final int MAX_CALL_BYTES = Long.BYTES + 10;

    /**
     * Appends a call to a {@link #CALLS} record's value.
     *
     * @param out      the value's bytes, with room for {@link #MAX_CALL_BYTES} at {@code at}.
     * @param at       where the call goes.
     * @param hash     the element's hash.
     * @param time     its time plus 1 (0: none).
     * @param previous the previous call's time plus 1 in the record (0 before the first).
     * @return the position after it.
     */
    static int putCall(final byte[] out, final int at, final long hash, final long time, final long previous)
    {
        int i = at;
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            out[i++] = (byte)(hash >>> shift);
        }
        final long delta = time - previous;
        long zigzag = (delta << 1) ^ (delta >> 63);
        while ((zigzag & ~0x7FL) != 0)
        {
            out[i++] = (byte)((zigzag & 0x7F) | 0x80);
            zigzag >>>= 7;
        }
        out[i++] = (byte)zigzag;
        return i;
    }

    /** Receives the calls of a {@link #CALLS} record, in order. */
    @FunctionalInterface
    interface CallSink
    {
        /**
         * @param hash the element's hash.
         * @param time its time, or -1 for a call without one.
         */
        void call(long hash, long time);
    }

    /**
     * Decodes a {@link #CALLS} record's value as it goes (no array of calls).
     *
     * @param value the value.
     * @param sink  receives each call, in order.
     * @return how many.
     * @throws IllegalArgumentException when the value does not end on a whole call (the calls before were given).
     */
    static int forEachCall(final byte[] value, final CallSink sink)
    {
        int i = 0;
        int n = 0;
        long previous = 0;
        while (i < value.length)
        {
            if (value.length - i < Long.BYTES + 1)
            {
                throw new IllegalArgumentException("a call cut short at byte " + i + " of " + value.length);
            }
            long hash = 0;
            for (int b = 0; b < Long.BYTES; b++)
            {
                hash = hash << 8 | (value[i++] & 0xFF);
            }
            long zigzag = 0;
            int shift = 0;
            while (true)
            {
                if (i == value.length || shift > 63)
                {
                    throw new IllegalArgumentException("a time cut short at byte " + i + " of " + value.length);
                }
                final byte b = value[i++];
                zigzag |= (long)(b & 0x7F) << shift;
                if (b >= 0)
                {
                    break;
                }
                shift += 7;
            }
            final long time = previous + ((zigzag >>> 1) ^ -(zigzag & 1));
            previous = time;
            sink.call(hash, time - 1);
            n++;
        }
        return n;
    }

    /**
     * @param value a {@link #CALLS} record's value.
     * @return its calls, in order: {hashes, times} (a time -1: a call without one).
     * @throws IllegalArgumentException when the value does not end on a whole call.
     */
    static long[][] calls(final byte[] value)
    {
        final long[][] calls = new long[2][value.length / (Long.BYTES + 1)];
        final int n = forEachCall(value, new CallSink()
        {
            private int at;

            @Override
            public void call(final long hash, final long time)
            {
                calls[0][at] = hash;
                calls[1][at++] = time;
            }
        });
        return new long[][] {java.util.Arrays.copyOf(calls[0], n), java.util.Arrays.copyOf(calls[1], n)};
    }
}
