package io.ddf.persistence;

import net.openhft.hashing.LongHashFunction;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import static io.ddf.persistence.FilterFileDescriptor.*;
import static io.ddf.persistence.FilterFileException.Reason.*;

/**
 * Encodes a header page from a spec, and decodes and validates one read from a file. Pure: no I/O.
 */
final class HeaderCodec
{
    private static final LongHashFunction CHECKSUM = LongHashFunction.xx3();

    private HeaderCodec()
    {
    }

    /**
     * @param spec          the immutable fields.
     * @param createdMillis creation time.
     * @return a full header page, ready word 0 (not yet published), positioned at 0.
     */
    static ByteBuffer encode(final FilterFileSpec spec, final long createdMillis)
    {
        final ByteBuffer page = ByteBuffer.allocate(HEADER_LENGTH).order(BYTE_ORDER);
        page.putLong(MAGIC_OFFSET, MAGIC);
        page.putInt(MAJOR_VERSION_OFFSET, MAJOR_VERSION);
        page.putInt(MINOR_VERSION_OFFSET, MINOR_VERSION);
        page.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        page.putInt(KIND_OFFSET, spec.kind());
        page.putInt(HASH_ALGORITHM_OFFSET, spec.hashAlgorithm());
        page.putInt(FLAGS_OFFSET, spec.keyed() ? FLAG_KEYED : 0);
        page.putLong(SEED_OFFSET, spec.seed());
        if (spec.keyed())
        {
            page.put(KEY_OFFSET, spec.key());
        }
        page.putLong(TABLE_OFFSET_OFFSET, TABLE_OFFSET);
        page.putLong(TABLE_LENGTH_OFFSET, spec.tableLength());
        page.putLong(STATE_OFFSET_OFFSET, STATE_OFFSET);
        page.putLong(STATE_LENGTH_OFFSET, STATE_LENGTH);
        page.putLong(CREATED_MILLIS_OFFSET, createdMillis);
        final long[] params = spec.params();
        page.putInt(PARAM_COUNT_OFFSET, params.length);
        for (int i = 0; i < params.length; i++)
        {
            page.putLong(PARAMS_OFFSET + i * SIZE_OF_LONG, params[i]);
        }
        page.putLong(CHECKSUM_OFFSET, checksum(page));
        return page;
    }

    /**
     * @param page a header page.
     * @return the checksum of the bytes before {@link FilterFileDescriptor#CHECKSUM_OFFSET}.
     */
    static long checksum(final ByteBuffer page)
    {
        return CHECKSUM.hashBytes(page, 0, CHECKSUM_OFFSET);
    }

    /**
     * Decodes a header page and checks it, in an order where each check only trusts what the earlier ones
     * established: magic, major version (another major may lay out everything else differently), ready word
     * (an unfinished header fails its checksum for a reason worth naming), checksum, field sanity, length.
     *
     * @param page       the first bytes of the file, at most {@link FilterFileDescriptor#HEADER_LENGTH}.
     * @param fileLength the file's length.
     * @param path       the file, for messages.
     * @return the header.
     * @throws FilterFileException naming what is wrong.
     */
    static FilterFileHeader decode(final ByteBuffer page, final long fileLength, final Path path)
    {
        final ByteBuffer b = page.duplicate().order(BYTE_ORDER);
        if (b.limit() < HEADER_LENGTH || fileLength < HEADER_LENGTH)
        {
            throw new FilterFileException(FOREIGN, path, "not a ddf filter file: " + fileLength +
                " bytes is shorter than the " + HEADER_LENGTH + "-byte header");
        }
        if (b.getLong(MAGIC_OFFSET) != MAGIC)
        {
            throw new FilterFileException(FOREIGN, path, "not a ddf filter file: wrong magic (expected \"DDFILTER\")");
        }
        final int major = b.getInt(MAJOR_VERSION_OFFSET);
        final int minor = b.getInt(MINOR_VERSION_OFFSET);
        if (major < OLDEST_MAJOR_VERSION || major > MAJOR_VERSION)
        {
            throw new FilterFileException(UNSUPPORTED_VERSION, path, "file format version " + major + "." + minor +
                " cannot be read by this build, which reads format versions " + OLDEST_MAJOR_VERSION + ".x to " +
                MAJOR_VERSION + ".x");
        }
        if (b.getInt(READY_OFFSET) != READY_VALUE)
        {
            throw new FilterFileException(NOT_READY, path,
                "header was never published: creation never finished (delete the file and create it again)");
        }
        final long stored = b.getLong(CHECKSUM_OFFSET);
        final long actual = checksum(b);
        if (stored != actual)
        {
            throw new FilterFileException(CORRUPT, path, "header checksum mismatch: stored 0x" +
                Long.toHexString(stored) + ", computed 0x" + Long.toHexString(actual));
        }
        final FilterFileHeader header = decodeFields(b, major, minor, path);
        final long expected = header.fileLength();
        if (fileLength < expected)
        {
            throw new FilterFileException(TRUNCATED, path, "file is truncated: expected " + expected +
                " bytes, found " + fileLength);
        }
        if (fileLength > expected)
        {
            throw new FilterFileException(CORRUPT, path, "file is longer than its header says: expected " +
                expected + " bytes, found " + fileLength);
        }
        return header;
    }

    private static FilterFileHeader decodeFields(final ByteBuffer b, final int major, final int minor, final Path path)
    {
        final int headerLength = b.getInt(HEADER_LENGTH_OFFSET);
        final int kind = b.getInt(KIND_OFFSET);
        final int hashAlgorithm = b.getInt(HASH_ALGORITHM_OFFSET);
        final int flags = b.getInt(FLAGS_OFFSET);
        final long seed = b.getLong(SEED_OFFSET);
        final byte[] key = new byte[FilterFileSpec.KEY_LENGTH];
        b.get(KEY_OFFSET, key);
        final long tableOffset = b.getLong(TABLE_OFFSET_OFFSET);
        final long tableLength = b.getLong(TABLE_LENGTH_OFFSET);
        final long stateOffset = b.getLong(STATE_OFFSET_OFFSET);
        final long stateLength = b.getLong(STATE_LENGTH_OFFSET);
        final long createdMillis = b.getLong(CREATED_MILLIS_OFFSET);
        final int paramCount = b.getInt(PARAM_COUNT_OFFSET);

        // The checksum matched, so these can only fail for a file written by a buggy or hostile writer.
        check(headerLength == HEADER_LENGTH, path, "header length " + headerLength + ", expected " + HEADER_LENGTH);
        check(kind != 0, path, "kind is 0");
        check(hashAlgorithm != 0, path, "hash algorithm is 0");
        // A later minor may define more flags that this build can ignore; this minor defines only these.
        check(minor > MINOR_VERSION || (flags & ~KNOWN_FLAGS) == 0, path, "unknown flags 0x" + Integer.toHexString(flags));
        final boolean keyed = (flags & FLAG_KEYED) != 0;
        check(keyed || isZero(key), path, "unkeyed file with a non-zero key");
        check(tableOffset >= HEADER_LENGTH && tableOffset % CACHE_LINE_LENGTH == 0 && tableOffset <= Long.MAX_VALUE / 4,
            path,
            "table offset " + tableOffset + " is not a 64-byte aligned offset past the header");
        check(tableLength > 0 && tableLength % CACHE_LINE_LENGTH == 0 && tableLength <= Long.MAX_VALUE / 2, path,
            "table length " + tableLength + " is not a positive multiple of 64");
        check(stateOffset >= HEADER_FIELDS_END && stateOffset % CACHE_LINE_LENGTH == 0 &&
            stateLength >= 0 && stateLength <= HEADER_LENGTH - stateOffset, path,
            "state region [" + stateOffset + ", +" + stateLength + ") does not fit the header page");
        check(paramCount >= 0 && paramCount <= FilterFileSpec.MAX_PARAMS, path,
            "param count " + paramCount + " outside [0, " + FilterFileSpec.MAX_PARAMS + "]");
        final long[] params = new long[paramCount];
        for (int i = 0; i < FilterFileSpec.MAX_PARAMS; i++)
        {
            final long value = b.getLong(PARAMS_OFFSET + i * SIZE_OF_LONG);
            if (i < paramCount)
            {
                params[i] = value;
            }
            else
            {
                check(value == 0, path, "param slot " + i + " is beyond the param count but not zero");
            }
        }
        final FilterFileSpec spec = new FilterFileSpec(
            kind, hashAlgorithm, seed, keyed ? key : null, params, tableLength);
        return new FilterFileHeader(spec, major, minor, createdMillis, tableOffset, stateOffset, stateLength);
    }

    private static void check(final boolean condition, final Path path, final String message)
    {
        if (!condition)
        {
            throw new FilterFileException(CORRUPT, path, "corrupt header: " + message);
        }
    }

    private static boolean isZero(final byte[] bytes)
    {
        return Arrays.equals(bytes, new byte[bytes.length]);
    }
}
