package io.ddf.persistence.log;

import io.ddf.persistence.platform.RawMemory;

/**
 * The change log's format (FORMAT-LOG.md): segment header fields, frame layout and check. Only constants and pure
 * functions; the files are {@link LogSegment}'s.
 */
public final class LogFormat
{
    /** ASCII {@code DDFCHLOG}, little-endian. */
    public static final long MAGIC = 0x474F4C4843464444L;
    /** The format's major version. */
    public static final int MAJOR_VERSION = 1;
    /** The format's minor version. */
    public static final int MINOR_VERSION = 0;
    /** A segment's header page; its records start after it. */
    public static final int HEADER_BYTES = 4096;
    /** A frame is 1 or 2 units of this many bytes, aligned to it. */
    public static final int UNIT = 32;
    /** The most units in a frame. */
    public static final int MAX_UNITS = 2;
    /** A segment file's name: its first position in 16 hex digits, then this. */
    public static final String SUFFIX = ".ddflog";

    static final int H_MAGIC = 0;
    static final int H_MAJOR = 8;
    static final int H_MINOR = 12;
    static final int H_HEADER_BYTES = 16;
    static final int H_UNIT = 20;
    static final int H_LOG_ID = 24;
    static final int H_FIRST_POSITION = 32;
    static final int H_CAPACITY = 40;
    static final int H_CREATED = 48;
    static final int H_NEXT_NUMBER = 56;
    static final int H_BOOT_ID = 64;
    static final int H_CHECKSUM = 80;

    /** Op codes of the log's own frames (filter number 0). */
    public static final int OP_PAD = 0x01;
    /** A filter number was given out (its hash word). */
    public static final int OP_NUMBER = 0x02;
    /** The first op code of the engine's records; below are the log's own. */
    public static final int FIRST_FILTER_OP = 0x10;
    /** The last op code the format defines (FORMAT-LOG.md's table). */
    public static final int LAST_OP = 0x25;

    /** The largest aux value (22 bits). */
    public static final int MAX_AUX = (1 << 22) - 1;

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private LogFormat()
    {
    }

    /**
     * @param filter the filter's number (0 for the log's own frames).
     * @param op     the op code, 1..255.
     * @param units  1 or 2.
     * @param aux    0..{@link #MAX_AUX}.
     * @return word 0 of a frame.
     */
    public static long word0(final int filter, final int op, final int units, final int aux)
    {
        return Integer.toUnsignedLong(filter) | (long)(op & 0xFF) << 32 | (long)(units - 1 & 3) << 40 |
            (long)aux << 42;
    }

    /** @return the filter number word 0 names. */
    public static int filter(final long word0)
    {
        return (int)word0;
    }

    /** @return the op code word 0 names. */
    public static int op(final long word0)
    {
        return (int)(word0 >>> 32) & 0xFF;
    }

    /** @return the frame's units word 0 names, 1..4. */
    public static int units(final long word0)
    {
        return (int)(word0 >>> 40 & 3) + 1;
    }

    /** @return the aux field word 0 names. */
    public static int aux(final long word0)
    {
        return (int)(word0 >>> 42);
    }

    /**
     * The check of a frame's words (FORMAT-LOG.md): never 0.
     *
     * @param address  the frame's first byte.
     * @param words    words before the check (3 or 7).
     * @param position the frame's position.
     * @return the check.
     */
    public static long check(final long address, final int words, final long position)
    {
        long h = position * GOLDEN;
        for (int i = 0; i < words; i++)
        {
            h ^= Long.rotateLeft(RawMemory.getLongPlain(address + ((long)i << 3)), rotation(i));
        }
        return nonZero(fmix(h));
    }

    /** The check of a one-unit frame from its words, as {@link #check(long, int, long)} computes it. */
    static long check1(final long w0, final long w1, final long w2, final long position)
    {
        return nonZero(fmix(position * GOLDEN ^ Long.rotateLeft(w0, rotation(0)) ^ Long.rotateLeft(w1, rotation(1)) ^
            Long.rotateLeft(w2, rotation(2))));
    }

    /** The check of a two-unit frame from its words. */
    static long check2(final long w0, final long w1, final long w2, final long w3, final long w4, final long w5,
        final long w6, final long position)
    {
        return nonZero(fmix(position * GOLDEN ^ Long.rotateLeft(w0, rotation(0)) ^ Long.rotateLeft(w1, rotation(1)) ^
            Long.rotateLeft(w2, rotation(2)) ^ Long.rotateLeft(w3, rotation(3)) ^ Long.rotateLeft(w4, rotation(4)) ^
            Long.rotateLeft(w5, rotation(5)) ^ Long.rotateLeft(w6, rotation(6))));
    }

    private static int rotation(final int word)
    {
        return (14 * word + 3) & 63;
    }

    private static long nonZero(final long check)
    {
        return check == 0 ? 1 : check;
    }

    /** MurmurHash3's 64-bit finaliser. */
    static long fmix(final long value)
    {
        long h = value;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }

    /**
     * @param address  a frame's first byte, with {@code available} bytes readable from it.
     * @param position its position.
     * @param available bytes before the segment's end.
     * @return the frame's length in bytes when a valid frame starts there, else 0.
     */
    public static int validLength(final long address, final long position, final long available)
    {
        if (available < UNIT)
        {
            return 0;
        }
        final long w0 = RawMemory.getLongPlain(address);
        final int units = units(w0);
        if (!known(w0) || (long)units * UNIT > available)
        {
            return 0;
        }
        final int words = units * 4 - 1;
        final long stored = RawMemory.getLongVolatile(address + ((long)words << 3));
        return stored != 0 && stored == check(address, words, position) ? units * UNIT : 0;
    }

    /**
     * @param word0 a frame's word 0.
     * @return whether it names an op code the format defines and 1 or 2 units (a frame's first test; the check is
     *     the second).
     */
    static boolean known(final long word0)
    {
        final int op = op(word0);
        return op != 0 && op <= LAST_OP && units(word0) <= MAX_UNITS;
    }

    /**
     * @param position a segment's first position.
     * @return its file name.
     */
    public static String fileName(final long position)
    {
        return String.format("%016x", position) + SUFFIX;
    }

    /**
     * @param name a file name.
     * @return the first position it names, or -1 when it is not a segment's name.
     */
    public static long positionOf(final String name)
    {
        if (name.length() != 16 + SUFFIX.length() || !name.endsWith(SUFFIX))
        {
            return -1;
        }
        try
        {
            return Long.parseUnsignedLong(name.substring(0, 16), 16);
        }
        catch (final NumberFormatException e)
        {
            return -1;
        }
    }
}
