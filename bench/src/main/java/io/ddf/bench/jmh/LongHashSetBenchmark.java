package io.ddf.bench.jmh;

import net.openhft.hashing.LongHashFunction;
import org.agrona.collections.LongHashSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.Locale;

/**
 * An exact set as a duplicate test: Agrona's {@code LongHashSet.add} (true when absent, i.e. "unseen"). Its slot
 * array is sized to the memory M (M / 64 slots of 8 bytes, on the heap, open addressing at load factor
 * {@link #LOAD_FACTOR}); an exact set cannot forget, so on an endless stream it is cleared when full (a tumbling
 * window of about 0.65 M / 64 keys) instead of growing: same memory as the filters, different semantics, and the
 * amortised cost of clear() is included. Keys longer than 8 bytes are hashed to 64 bits with XXH3 (the hash ddf
 * uses), so the set is exact up to 64-bit hash collisions. LongHashSet is not thread-safe: two threads share it
 * under a lock, as an application would.
 */
@State(Scope.Benchmark)
public class LongHashSetBenchmark extends ForkedBenchmark
{
    /** Agrona's default load factor. */
    static final float LOAD_FACTOR = 0.65f;

    /** Memory M in bits: the size of the set's slot array. */
    @Param({MBIT, GBIT})
    public long memoryBits;

    private final LongHashFunction hash = LongHashFunction.xx3(StreamBenchmark.SEED);
    private LongHashSet set;
    private int threshold;

    /** Allocates the set at its full capacity. */
    @Setup(Level.Trial)
    public void setup()
    {
        final int slots = Math.toIntExact(memoryBits / Long.SIZE);
        set = new LongHashSet(slots, LOAD_FACTOR);
        threshold = set.resizeThreshold();
        System.out.printf(Locale.ROOT, "exact set: capacity %d slots (%d bits, asked %d), cleared at %d keys%n",
            set.capacity(), (long)set.capacity() * Long.SIZE, memoryBits, threshold);
        if (set.capacity() != slots)
        {
            throw new IllegalStateException("LongHashSet took capacity " + set.capacity() + ", not " + slots);
        }
    }

    /**
     * @param keys this thread's keys.
     * @return whether the key was absent: unseen.
     */
    @Benchmark
    @Threads(1)
    public boolean add(final ThreadKeys keys)
    {
        return addOne(keys);
    }

    /**
     * @param keys this thread's keys.
     * @return whether the key was absent: unseen.
     */
    @Benchmark
    @Threads(2)
    public boolean add2Threads(final ThreadKeys keys)
    {
        final long key = key(keys);
        final boolean unseen;
        synchronized (set)
        {
            unseen = addKey(key);
        }
        keys.calls++;
        keys.duplicates += unseen ? 0 : 1;
        return unseen;
    }

    private boolean addOne(final ThreadKeys keys)
    {
        final boolean unseen = addKey(key(keys));
        keys.calls++;
        keys.duplicates += unseen ? 0 : 1;
        return unseen;
    }

    private long key(final ThreadKeys keys)
    {
        final int length = keys.keyBytes();
        return length == Long.BYTES ? keys.nextLong() : hash.hashBytes(keys.nextBytes(), 0, length);
    }

    private boolean addKey(final long key)
    {
        // Clear before the add that would make the set grow past its memory.
        if (set.size() >= threshold)
        {
            set.clear();
        }
        return set.add(key);
    }
}
