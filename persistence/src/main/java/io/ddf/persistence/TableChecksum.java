package io.ddf.persistence;

import net.openhft.hashing.LongHashFunction;

import java.nio.ByteBuffer;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.stream.LongStream;

import static io.ddf.persistence.FilterFileDescriptor.BYTE_ORDER;
import static io.ddf.persistence.FilterFileDescriptor.CHECKSUM_CHUNK_LENGTH;

/**
 * The table checksum of format 2.0: XXH3-64 (seed 0) of the little-endian int64 list
 * {@code [xxh3(state region), xxh3(table chunk 0), xxh3(table chunk 1), ...]}, chunks of
 * {@link FilterFileDescriptor#CHECKSUM_CHUNK_LENGTH} bytes (the last may be shorter).
 *
 * <p>Why chunks: a 16 GiB table takes seconds to hash on one core; independent chunk hashes let the chunks be
 * hashed on every core, and the result does not depend on how many there are. XXH3 because it is already a
 * dependency and runs at memory speed; a checksum here guards against corruption, not against an attacker who
 * can write the file (such an attacker can also rewrite the checksum).
 */
final class TableChecksum
{
    private static final LongHashFunction XX3 = LongHashFunction.xx3();
    /** Below this many chunks the fork/join hand-off costs more than it saves. */
    private static final int PARALLEL_MIN_CHUNKS = 4;

    private TableChecksum()
    {
    }

    /**
     * @param stateAddress address of the state region.
     * @param stateLength  its length.
     * @param tableAddress address of the table.
     * @param tableLength  its length.
     * @param parallelism  most threads to hash with (1: the caller's thread only).
     * @return the checksum.
     */
    static long compute(
        final long stateAddress, final long stateLength, final long tableAddress, final long tableLength,
        final int parallelism)
    {
        final int chunks = Math.toIntExact((tableLength + CHECKSUM_CHUNK_LENGTH - 1) / CHECKSUM_CHUNK_LENGTH);
        final long[] hashes = new long[1 + chunks];
        hashes[0] = XX3.hashMemory(stateAddress, stateLength);
        if (parallelism <= 1 || chunks < PARALLEL_MIN_CHUNKS)
        {
            for (int i = 0; i < chunks; i++)
            {
                hashes[1 + i] = chunk(tableAddress, tableLength, i);
            }
        }
        else
        {
            final ForkJoinPool pool = new ForkJoinPool(parallelism);
            try
            {
                final ForkJoinTask<?> task = pool.submit(() -> LongStream.range(0, chunks).parallel()
                    .forEach(i -> hashes[1 + (int)i] = chunk(tableAddress, tableLength, i)));
                task.join();
            }
            finally
            {
                pool.shutdown();
            }
        }
        final ByteBuffer list = ByteBuffer.allocate(hashes.length * Long.BYTES).order(BYTE_ORDER);
        for (final long h : hashes)
        {
            list.putLong(h);
        }
        return XX3.hashBytes(list.array());
    }

    /** @return the hash of table chunk {@code index}. */
    private static long chunk(final long tableAddress, final long tableLength, final long index)
    {
        final long offset = index * CHECKSUM_CHUNK_LENGTH;
        return XX3.hashMemory(tableAddress + offset, Math.min(CHECKSUM_CHUNK_LENGTH, tableLength - offset));
    }

    /** @return threads to hash a table with: the processors, at most 8. */
    static int defaultParallelism()
    {
        return Math.min(8, Runtime.getRuntime().availableProcessors());
    }
}
