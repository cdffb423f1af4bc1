package io.ddf.bench.jmh;

import com.google.common.hash.BloomFilter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Sizes Guava's BloomFilter to a memory: Guava takes expected insertions n and a false-positive rate p and allocates
 * {@code m = floor(-n ln p / (ln 2)^2)} bits (rounded up to whole longs) with {@code round(m / n ln 2)} hash
 * functions. Fixing p = {@link #FPP} (7 hash functions) and taking {@code n = floor(M (ln 2)^2 / -ln p)} makes
 * m just under M; {@link #bitSize} reads the size Guava actually allocated back from its serialised form.
 */
public final class GuavaSizing
{
    /** The false-positive rate asked of Guava: its commonest setting; gives 7 hash functions. */
    public static final double FPP = 0.01;
    /** Guava's serialised header: strategy byte, hash-function count byte, int count of longs. */
    private static final int SERIAL_HEADER_BYTES = 6;

    private GuavaSizing()
    {
    }

    /**
     * @param memoryBits the memory to match.
     * @return the expected insertions to give Guava with {@link #FPP}.
     */
    public static long expectedInsertions(final long memoryBits)
    {
        final double ln2 = Math.log(2);
        return (long)Math.floor(memoryBits * ln2 * ln2 / -Math.log(FPP));
    }

    /**
     * @param filter a Guava filter.
     * @return its bit array's size in bits, measured from its serialised form.
     */
    public static long bitSize(final BloomFilter<?> filter)
    {
        final long[] count = new long[1];
        try
        {
            filter.writeTo(new OutputStream()
            {
                @Override
                public void write(final int b)
                {
                    count[0]++;
                }

                @Override
                public void write(final byte[] b, final int off, final int len)
                {
                    count[0] += len;
                }
            });
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return (count[0] - SERIAL_HEADER_BYTES) * 8;
    }
}
