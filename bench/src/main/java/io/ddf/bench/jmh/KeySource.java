package io.ddf.bench.jmh;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One thread's cursor over a {@link KeyPool}: hands out the pool's keys in order, cycling. Each pass over the pool
 * XORs a fresh salt into a key's first 8 bytes, so the stream keeps bringing new elements however many passes a
 * measurement makes (without it a filter larger than the pool would, after one pass, judge only duplicates and
 * the benchmark would time a different code path at 1 Gbit than at 1 Mbit). Threads start with different salts,
 * so two threads never feed the same keys. Keys longer than 8 bytes are copied into a per-source scratch array
 * (the salted copy); {@code KeyBaselineBenchmark} times that preparation on its own. Not thread-safe.
 */
public class KeySource
{
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);
    /** Golden-ratio increment: successive salts are far apart. */
    private static final long SALT_STEP = 0x9E3779B97F4A7C15L;

    private long[] longs;
    private byte[] bytes;
    private byte[] scratch;
    private int keyBytes;
    private int mask;
    private int index;
    private long salt;

    /**
     * Points this source at a pool.
     *
     * @param pool   the keys.
     * @param stream distinguishes concurrent sources (e.g. a thread index): its salts differ from the others'.
     */
    public final void init(final KeyPool pool, final int stream)
    {
        longs = pool.longs();
        bytes = pool.bytes();
        keyBytes = pool.keyBytes();
        scratch = new byte[keyBytes];
        mask = pool.count() - 1;
        index = 0;
        salt = mix(stream + 1L);
    }

    /** @return bytes per key. */
    public final int keyBytes()
    {
        return keyBytes;
    }

    /** @return the next key of an 8-byte pool. */
    public final long nextLong()
    {
        final long key = longs[index] ^ salt;
        advance();
        return key;
    }

    /** @return a scratch array holding the next key of a longer-key pool (overwritten by the next call). */
    public final byte[] nextBytes()
    {
        final int offset = index * keyBytes;
        LONG_LE.set(scratch, 0, (long)LONG_LE.get(bytes, offset) ^ salt);
        System.arraycopy(bytes, offset + Long.BYTES, scratch, Long.BYTES, keyBytes - Long.BYTES);
        advance();
        return scratch;
    }

    private void advance()
    {
        index = (index + 1) & mask;
        if (index == 0)
        {
            salt += SALT_STEP;
        }
    }

    private static long mix(final long x)
    {
        long z = x * SALT_STEP;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
