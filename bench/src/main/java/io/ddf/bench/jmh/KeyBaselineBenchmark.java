package io.ddf.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * The cost of producing a key alone (cursor, salt, copy of a long key into scratch, counters), which every other
 * benchmark of the suite includes: subtract it to compare the structures themselves.
 */
public class KeyBaselineBenchmark extends ForkedBenchmark
{
    /**
     * @param keys this thread's keys.
     * @return a value depending on the key (consumed by JMH).
     */
    @Benchmark
    @Threads(1)
    public long next(final ThreadKeys keys)
    {
        final long value = keys.keyBytes() == Long.BYTES ? keys.nextLong() : keys.nextBytes()[0];
        keys.calls++;
        return value;
    }
}
