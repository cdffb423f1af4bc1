package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Byte layout of a filter file, format version 2.0 (1.0 is the same without the table checksum and the seal
 * word, which it leaves zero). All multi-byte values are little-endian.
 * The prose specification is {@code FORMAT.md} beside this class.
 *
 * <pre>
 *   File:
 *   +---------------------------------------------------------------+ 0
 *   |                     Header page (4096 bytes)                  |
 *   +---------------------------------------------------------------+ TABLE_OFFSET (4096)
 *   |                     Table (tableLength bytes)                 |
 *   +---------------------------------------------------------------+ 4096 + tableLength
 *   |          Zero padding up to a multiple of FILE_ALIGNMENT      |
 *   +---------------------------------------------------------------+ fileLength(tableLength)
 *
 *   Header page:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                  Magic "DDFILTER" (8 bytes)                   |  0
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                        Major Version                          |  8
 *   +---------------------------------------------------------------+
 *   |                        Minor Version                          | 12
 *   +---------------------------------------------------------------+
 *   |                        Header Length                          | 16
 *   +---------------------------------------------------------------+
 *   |                            Kind                               | 20
 *   +---------------------------------------------------------------+
 *   |                       Hash Algorithm                          | 24
 *   +---------------------------------------------------------------+
 *   |                    Flags (bit 0: keyed)                       | 28
 *   +---------------------------------------------------------------+
 *   |                          Seed (int64)                         | 32
 *   +---------------------------------------------------------------+
 *   |                    Key (16 bytes, 0 if unkeyed)               | 40
 *   +---------------------------------------------------------------+
 *   |                       Table Offset (int64)                    | 56
 *   +---------------------------------------------------------------+
 *   |                       Table Length (int64)                    | 64
 *   +---------------------------------------------------------------+
 *   |                       State Offset (int64)                    | 72
 *   +---------------------------------------------------------------+
 *   |                       State Length (int64)                    | 80
 *   +---------------------------------------------------------------+
 *   |                  Creation Time, epoch ms (int64)              | 88
 *   +---------------------------------------------------------------+
 *   |                        Param Count                            | 96
 *   +---------------------------------------------------------------+
 *   |                     Padding (zero)                            | 100
 *   +---------------------------------------------------------------+
 *   |                  Params: 16 x int64 (128 bytes)               | 104
 *   +---------------------------------------------------------------+
 *   |              Checksum: xxh3 of bytes [0, 232) (int64)         | 232
 *   +---------------------------------------------------------------+
 *   |        Ready Word: READY_VALUE when published, else 0         | 240
 *   +---------------------------------------------------------------+
 *   |                     Reserved (zero)                           | 244
 *   +---------------------------------------------------------------+
 *   |   Table Checksum (int64, 2.0): of state region and table,     | 248
 *   |   written on clean close and on flush; 0 until the first one  |
 *   +---------------------------------------------------------------+
 *   |   Seal Word (2.0): SEAL_VALUE when closed cleanly (the table  | 256
 *   |   checksum then covers the file as it is), 0 while open       |
 *   +---------------------------------------------------------------+
 *   |                     Reserved (zero)                           | 260
 *   +---------------------------------------------------------------+
 *   |   Last Sync (int64, 2.0 additive): epoch ms before which every  | 264
 *   |   change is on the device; 0 when never recorded              |
 *   +---------------------------------------------------------------+
 *   |                     Reserved (zero)                           | 272
 *   +---------------------------------------------------------------+
 *   |              State Region (2048 bytes, mutable)               | 1024
 *   +---------------------------------------------------------------+
 *   |                     Reserved (zero)                           | 3072
 *   +---------------------------------------------------------------+ 4096
 * </pre>
 */
public final class FilterFileDescriptor
{
    /** Byte order of every multi-byte value in the file. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Size of an int32 field. */
    public static final int SIZE_OF_INT = 4;
    /** Size of an int64 field. */
    public static final int SIZE_OF_LONG = 8;
    /** Cache line size the regions are aligned to. */
    public static final int CACHE_LINE_LENGTH = 64;

    /**
     * Major version this build writes. 2.0 added the table checksum and the seal word; it is a major change
     * because a 1.x build would write into a sealed file without clearing its seal, and a later reader would
     * then refuse the file as corrupt: 1.x builds must refuse 2.0 files, and do.
     */
    public static final int MAJOR_VERSION = 2;
    /** Minor version this build writes. Any minor of a major this build reads is read. */
    public static final int MINOR_VERSION = 0;
    /** Oldest major version this build reads (and opens for writing, without ever sealing it). */
    public static final int OLDEST_MAJOR_VERSION = 1;

    /** ASCII "DDFILTER": bytes 44 44 46 49 4C 54 45 52 at offset 0. */
    public static final long MAGIC = 0x5245544c49464444L;
    /** Value of the ready word once the header is published: bytes 52 45 44 59, ASCII "REDY". */
    public static final int READY_VALUE = 0x59444552;
    /** Value of the seal word of a cleanly closed 2.0 file: bytes 53 45 41 4C, ASCII "SEAL". */
    public static final int SEAL_VALUE = 0x4C414553;
    /** Flag bit: the file uses keyed hashing and holds its key. */
    public static final int FLAG_KEYED = 1;
    /** The flag bits format 1.0 defines. */
    public static final int KNOWN_FLAGS = FLAG_KEYED;

    /** Length of the header page. */
    public static final int HEADER_LENGTH = 4096;

    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the major version. */
    public static final int MAJOR_VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    /** Offset of the minor version. */
    public static final int MINOR_VERSION_OFFSET = MAJOR_VERSION_OFFSET + SIZE_OF_INT;
    /** Offset of the header length. */
    public static final int HEADER_LENGTH_OFFSET = MINOR_VERSION_OFFSET + SIZE_OF_INT;
    /** Offset of the filter kind code. */
    public static final int KIND_OFFSET = HEADER_LENGTH_OFFSET + SIZE_OF_INT;
    /** Offset of the hash algorithm code. */
    public static final int HASH_ALGORITHM_OFFSET = KIND_OFFSET + SIZE_OF_INT;
    /** Offset of the flags. */
    public static final int FLAGS_OFFSET = HASH_ALGORITHM_OFFSET + SIZE_OF_INT;
    /** Offset of the hash seed. */
    public static final int SEED_OFFSET = FLAGS_OFFSET + SIZE_OF_INT;
    /** Offset of the 16-byte key. */
    public static final int KEY_OFFSET = SEED_OFFSET + SIZE_OF_LONG;
    /** Offset of the table offset field. */
    public static final int TABLE_OFFSET_OFFSET = KEY_OFFSET + FilterFileSpec.KEY_LENGTH;
    /** Offset of the table length field. */
    public static final int TABLE_LENGTH_OFFSET = TABLE_OFFSET_OFFSET + SIZE_OF_LONG;
    /** Offset of the state offset field. */
    public static final int STATE_OFFSET_OFFSET = TABLE_LENGTH_OFFSET + SIZE_OF_LONG;
    /** Offset of the state length field. */
    public static final int STATE_LENGTH_OFFSET = STATE_OFFSET_OFFSET + SIZE_OF_LONG;
    /** Offset of the creation time. */
    public static final int CREATED_MILLIS_OFFSET = STATE_LENGTH_OFFSET + SIZE_OF_LONG;
    /** Offset of the parameter count. */
    public static final int PARAM_COUNT_OFFSET = CREATED_MILLIS_OFFSET + SIZE_OF_LONG;
    /** Offset of the params; 4 bytes of padding after the count keep them 8-byte aligned. */
    public static final int PARAMS_OFFSET = PARAM_COUNT_OFFSET + SIZE_OF_INT + SIZE_OF_INT;
    /** Offset of the checksum, which covers every byte before it. */
    public static final int CHECKSUM_OFFSET = PARAMS_OFFSET + FilterFileSpec.MAX_PARAMS * SIZE_OF_LONG;
    /** Offset of the ready word, written last. */
    public static final int READY_OFFSET = CHECKSUM_OFFSET + SIZE_OF_LONG;
    /** First byte after the header fields. */
    public static final int HEADER_FIELDS_END = READY_OFFSET + SIZE_OF_INT;
    /** Offset of the table checksum (2.0), 8-byte aligned after the ready word. */
    public static final int TABLE_CHECKSUM_OFFSET = 248;
    /** Offset of the seal word (2.0). */
    public static final int SEAL_OFFSET = TABLE_CHECKSUM_OFFSET + SIZE_OF_LONG;
    /**
     * Offset of the last sync time (2.0, additive: see FORMAT.md, "Last sync time"): epoch milliseconds before which
     * every change to the file was on the device when it was stored; 0 where no build recorded one.
     */
    public static final int LAST_SYNC_OFFSET = SEAL_OFFSET + SIZE_OF_LONG;
    /**
     * The table checksum hashes the table in chunks of this many bytes (the last may be shorter), so that
     * chunks can be hashed in parallel; the chunk length is part of the format.
     */
    public static final int CHECKSUM_CHUNK_LENGTH = 1 << 24;

    /** Offset of the mutable state region inside the header page. */
    public static final int STATE_OFFSET = 1024;
    /** Length of the state region. */
    public static final int STATE_LENGTH = 2048;

    /** Offset of the table: the header page length, so the table is page aligned. */
    public static final int TABLE_OFFSET = HEADER_LENGTH;

    /**
     * Files are padded to a multiple of this length, so that mapping whole pages never grows the file,
     * whatever the page size (4 KiB, 16 KiB, 64 KiB) or the Windows allocation granularity (64 KiB).
     */
    public static final int FILE_ALIGNMENT = 64 * 1024;

    static
    {
        // The layout rests on these; a careless edit should fail at class load, not corrupt files.
        if (CHECKSUM_OFFSET != 232 || READY_OFFSET != 240 || HEADER_FIELDS_END > TABLE_CHECKSUM_OFFSET ||
            SEAL_OFFSET + SIZE_OF_INT > LAST_SYNC_OFFSET || LAST_SYNC_OFFSET % SIZE_OF_LONG != 0 ||
            LAST_SYNC_OFFSET + SIZE_OF_LONG > STATE_OFFSET ||
            STATE_OFFSET % CACHE_LINE_LENGTH != 0 || STATE_OFFSET + STATE_LENGTH > HEADER_LENGTH)
        {
            throw new ExceptionInInitializerError("inconsistent filter file layout");
        }
    }

    private FilterFileDescriptor()
    {
    }

    /**
     * @param tableOffset offset of the table.
     * @param tableLength length of the table.
     * @return the length of a file holding that table: its end rounded up to {@link #FILE_ALIGNMENT}.
     */
    public static long fileLength(final long tableOffset, final long tableLength)
    {
        final long end = Math.addExact(tableOffset, tableLength);
        return Math.addExact(end, FILE_ALIGNMENT - 1L) & -(long)FILE_ALIGNMENT;
    }

    /**
     * Publishes the header: a release store, so every earlier store is visible before it.
     *
     * @param header buffer over the mapped header page.
     */
    public static void putReadyWordRelease(final UnsafeBuffer header)
    {
        // Native order is little-endian on every platform this runs on (checked in MappedRegion).
        header.putIntOrdered(READY_OFFSET, READY_VALUE);
    }

    /**
     * Seals a cleanly closed file: a release store, after the table checksum it vouches for.
     *
     * @param header buffer over the mapped header page.
     */
    public static void putSealWordRelease(final UnsafeBuffer header)
    {
        header.putIntOrdered(SEAL_OFFSET, SEAL_VALUE);
    }

    /**
     * Unseals a file being opened for writing: from now on its table may differ from its checksum.
     *
     * @param header buffer over the mapped header page.
     */
    public static void clearSealWordVolatile(final UnsafeBuffer header)
    {
        header.putIntVolatile(SEAL_OFFSET, 0);
    }
}
