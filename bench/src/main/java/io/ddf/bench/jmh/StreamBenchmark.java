package io.ddf.bench.jmh;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Verdict;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Embedded {@code DuplicateFilter.stream} on a mapped file, per kind, memory and key size, by one thread and by two
 * threads sharing the filter. An 8-byte key goes through {@code stream(long)}, a longer one through
 * {@code stream(byte[], 0, len)}. The file is created under java.io.tmpdir for the trial and deleted after it;
 * setup prints the filter's resolved parameters and its table size.
 */
@State(Scope.Benchmark)
public class StreamBenchmark extends ForkedBenchmark
{
    /** Hash seed of every benchmarked filter. */
    static final long SEED = 7;

    /** The filter kind, by command-line name. */
    @Param({"qht", "qhtd", "qqhtd", "sqf", "dsqf", "cuckoo", "bloom", "sbf", "rsbf", "bsbf", "bsbfsd", "rlbsbf",
        "a2", "bdbf", "exact-window", "shf", "cshf"})
    public String kind;

    /** Memory M in bits. */
    @Param({MBIT, GBIT})
    public long memoryBits;

    /** Window of the windowed kinds: "auto" ({@link BenchFilters}) or a number. */
    @Param({"auto"})
    public String window;

    private MappedFile file;
    private DuplicateFilter filter;

    /** Creates the filter's file. */
    @Setup(Level.Trial)
    public void setup()
    {
        file = new MappedFile(kind + "-" + memoryBits + ".ddf");
        filter = BenchFilters.create(FilterKind.fromName(kind), memoryBits, window, SEED, file.path());
        System.out.printf("filter: %s (table %d bits, asked %d)%n", filter.parameters(),
            filter.parameters().tableBytes() * 8, memoryBits);
    }

    /** Closes and deletes the file. */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        filter.close();
        file.delete();
    }

    /**
     * @param keys this thread's keys.
     * @return the verdict (consumed by JMH).
     */
    @Benchmark
    @Threads(1)
    public Verdict stream(final ThreadKeys keys)
    {
        return streamOne(keys);
    }

    /**
     * @param keys this thread's keys.
     * @return the verdict (consumed by JMH).
     */
    @Benchmark
    @Threads(2)
    public Verdict stream2Threads(final ThreadKeys keys)
    {
        return streamOne(keys);
    }

    private Verdict streamOne(final ThreadKeys keys)
    {
        final int length = keys.keyBytes();
        final Verdict verdict = length == Long.BYTES ?
            filter.stream(keys.nextLong()) : filter.stream(keys.nextBytes(), 0, length);
        keys.calls++;
        keys.duplicates += verdict.ordinal();
        return verdict;
    }
}
