package io.ddf.bench.jmh;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.Locale;

/**
 * Guava's BloomFilter {@code put} as a duplicate test (put answers true when a bit changed, i.e. "unseen"), at the
 * same memory as ddf's tables ({@link GuavaSizing}), on the heap. An 8-byte key is a {@code BloomFilter<Long>}
 * (boxed on each put, as its users write it), a longer one a {@code BloomFilter<byte[]>} with the byte-array funnel.
 * Guava's put is thread-safe (lock-free bit array), so two threads share one filter. It saturates: it never
 * forgets, so once full it answers duplicate for nearly everything (the thread reports show the fraction).
 */
@State(Scope.Benchmark)
public class GuavaBloomBenchmark extends ForkedBenchmark
{
    /** Memory M in bits: the size of Guava's bit array. */
    @Param({MBIT, GBIT})
    public long memoryBits;

    private BloomFilter<Long> longs;
    private BloomFilter<byte[]> bytes;

    /**
     * @param keys the key pool (its length chooses the funnel).
     */
    @Setup(Level.Trial)
    public void setup(final Keys keys)
    {
        final long n = GuavaSizing.expectedInsertions(memoryBits);
        final BloomFilter<?> filter;
        if (keys.keyBytes == Long.BYTES)
        {
            longs = BloomFilter.create(Funnels.longFunnel(), n, GuavaSizing.FPP);
            filter = longs;
        }
        else
        {
            bytes = BloomFilter.create(Funnels.byteArrayFunnel(), n, GuavaSizing.FPP);
            filter = bytes;
        }
        final long bits = GuavaSizing.bitSize(filter);
        System.out.printf(Locale.ROOT, "guava: expected insertions %d, fpp %.3f: %d bits (%.4f of %d)%n", n,
            GuavaSizing.FPP, bits, (double)bits / memoryBits, memoryBits);
        if (Math.abs(bits - memoryBits) > memoryBits / 1000)
        {
            throw new IllegalStateException("Guava allocated " + bits + " bits, not about " + memoryBits);
        }
    }

    /**
     * @param keys this thread's keys.
     * @return whether put changed a bit: unseen.
     */
    @Benchmark
    @Threads(1)
    public boolean put(final ThreadKeys keys)
    {
        return putOne(keys);
    }

    /**
     * @param keys this thread's keys.
     * @return whether put changed a bit: unseen.
     */
    @Benchmark
    @Threads(2)
    public boolean put2Threads(final ThreadKeys keys)
    {
        return putOne(keys);
    }

    private boolean putOne(final ThreadKeys keys)
    {
        final boolean unseen = keys.keyBytes() == Long.BYTES ? longs.put(keys.nextLong()) : bytes.put(keys.nextBytes());
        keys.calls++;
        keys.duplicates += unseen ? 0 : 1;
        return unseen;
    }
}
