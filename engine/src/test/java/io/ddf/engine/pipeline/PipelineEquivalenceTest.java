package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pipeline (2 hashers, 2 inserters) gives exactly the sequential filter's verdicts, element for element:
 * two filters built with the same seed, one fed directly, one through the pipeline.
 *
 * <p>The stream mixes a hot set of 2^14 values (many duplicates) with a uniform draw over 2^22 values (far more
 * than a 2^20-bit filter holds: many evictions), and one CONTAINS in 16. Sizes: 10^7 elements for QHT; 2*10^6
 * for the other quotient configurations, because 10^7 for all five took longer than a minute on the 2-core
 * machine (five handler threads plus the producer share two cores: QHT alone took 28 s on a loaded machine).
 */
class PipelineEquivalenceTest extends MappedMemoryTestBase
{
    private static final long MEMORY_BITS = 1L << 20;
    private static final int FULL = 10_000_000;
    private static final int REDUCED = 2_000_000;

    /** A quotient configuration and how many elements to compare. */
    record Case(String name, Supplier<FilterBuilder> builder, int elements)
    {
        @Override
        public String toString()
        {
            return name + " x " + elements;
        }
    }

    static List<Case> cases()
    {
        return List.of(
            new Case("qht", () -> Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS), FULL),
            new Case("qhtd", () -> Filters.builder(FilterKind.QHTD).memoryBits(MEMORY_BITS), REDUCED),
            new Case("qqhtd", () -> Filters.builder(FilterKind.QQHTD).memoryBits(MEMORY_BITS), REDUCED),
            new Case("sqf", () -> Filters.builder(FilterKind.SQF).memoryBits(MEMORY_BITS), REDUCED),
            new Case("qht wide k=16 s=6", () -> Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS)
                .buckets(16).fingerprintBits(6), REDUCED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: 20 s for QHT x 10^7 on an idle 2-core machine
    void pipelineEqualsSequential(final Case config)
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = config.builder().get().seed(seed).create();
             DuplicateFilter piped = config.builder().get().seed(seed).create())
        {
            assertTrue(piped.partitioned(), "quotient filters are partitioned");
            compare(sequential, piped, config.elements(), seed, true, config.toString());
        }
    }

    /** Inserters touching the rows of their next events first (memory-level parallelism) change nothing. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: 20 s for QHT x 10^7 on an idle 2-core machine
    void prefetchingEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            compare(sequential, piped, 1_000_000, seed, true, 8, "qht with prefetch 8");
        }
    }

    /** The default pipeline (one hasher, one inserter: the stages fused on one thread) gives the sequential verdicts. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard
    void fusedDefaultEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            compare(sequential, piped, 2_000_000, seed, true, 0, 1, "qht, fused default pipeline");
        }
    }

    /** One producer (the single-producer sequencer), one publish per element, fused handler: the same verdicts. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard
    void singleProducerEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            compare(sequential, piped, 2_000_000, seed, true, 0, 1, FilterPipelineBuilder::singleProducer, 1,
                "qht, single producer, fused");
        }
    }

    /**
     * Batches published in one claim each (runs of one operation, up to 300 elements: more than the default ring
     * of 4096 never, fewer often), single producer, fused handler touching 8 rows ahead: the same verdicts.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard
    void batchPublishedEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            compare(sequential, piped, 2_000_000, seed, true, 8, 1, FilterPipelineBuilder::singleProducer, 300,
                "qht, single producer, batches of <= 300, fused with prefetch 8");
        }
    }

    /** The publisher hashes (hashOnPublish), batches, fused handler with and without prefetch: the same verdicts. */
    @ParameterizedTest(name = "prefetch {0}")
    @ValueSource(ints = {0, 8})
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard
    void hashedOnPublishEqualsSequential(final int prefetch)
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            compare(sequential, piped, 1_000_000, seed, true, prefetch, 1,
                b -> b.singleProducer().hashOnPublish(), 256, "qht, hashed on publish, prefetch " + prefetch);
        }
    }

    /**
     * A filter in single-writer mode ({@code FilterBuilder.singleWriter()}: plain stores, no CAS) through the
     * pipeline, whose inserters own disjoint rows (2 inserters) or all rows (fused): the verdicts and counters of
     * the shared sequential filter.
     */
    @ParameterizedTest(name = "{0} handler(s)")
    @ValueSource(ints = {1, 2})
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard
    void singleWriterFilterEqualsSequential(final int handlers)
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed)
                 .singleWriter().create())
        {
            assertTrue(piped.singleWriter());
            compare(sequential, piped, 1_000_000, seed, true, handlers == 1 ? 8 : 0, handlers,
                b -> b.singleProducer().hashOnPublish(), 128, "qht single-writer, " + handlers + " inserter(s)");
        }
    }

    /** Batches hashed on publish, multi-producer sequencer, 2 hashers and 2 inserters: the same verdicts. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard
    void batchPublishedThroughSeveralHandlersEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            compare(sequential, piped, 1_000_000, seed, true, 0, 2, FilterPipelineBuilder::hashOnPublish, 64,
                "qht, multi producer, batches of <= 64, hashed on publish, 2 hashers + 2 inserters");
        }
    }

    /** A filter that is not partitioned goes wholly to inserter 0: still the sequential verdicts. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: 20 s for QHT x 10^7 on an idle 2-core machine
    void unpartitionedFilterEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create();
             DuplicateFilter inner = Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS).seed(seed).create())
        {
            final DuplicateFilter unpartitioned = new Unpartitioned(inner);
            compare(sequential, unpartitioned, 1_000_000, seed, true, "qht seen as unpartitioned");
        }
    }

    /** The kinds whose filters are partitioned across inserters: the quotient family (one row per element). */
    private static final Set<FilterKind> PARTITIONED =
        EnumSet.of(FilterKind.QHT, FilterKind.QHTD, FilterKind.QQHTD, FilterKind.SQF);

    /**
     * Every kind that is not partitioned (and the queuing construction) gives the sequential verdicts through the
     * pipeline. Each kind is built at 2^20 bits, with a window of 2^14 where it needs one; a kind that cannot be
     * built, or whose partitioning is not the expected one, fails the test rather than being skipped, and the
     * number compared is checked, so the test cannot pass by comparing nothing.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: 20 s for QHT x 10^7 on an idle 2-core machine
    void everyUnpartitionedKindEqualsSequential()
    {
        final long seed = seededRandom().nextLong();
        final List<String> compared = new ArrayList<>();
        for (final FilterKind kind : FilterKind.values())
        {
            if (kind == FilterKind.QUEUE)
            {
                continue; // chosen by a window and subfilters, below
            }
            final Supplier<FilterBuilder> builder = () -> unpartitionedBuilder(kind, seed);
            try (DuplicateFilter sequential = builder.get().create(); DuplicateFilter piped = builder.get().create())
            {
                assertEquals(PARTITIONED.contains(kind), piped.partitioned(), kind.cliName() + " partitioned");
                if (!piped.partitioned())
                {
                    compare(sequential, piped, 20_000, seed, false, kind.cliName()); // some kinds are slow
                    compared.add(kind.cliName());
                }
            }
        }
        final Supplier<FilterBuilder> queue = () -> Filters.builder(FilterKind.QHT).memoryBits(MEMORY_BITS)
            .window(1 << 14).subfilters(4).seed(seed);
        try (DuplicateFilter sequential = queue.get().create(); DuplicateFilter piped = queue.get().create())
        {
            assertEquals(FilterKind.QHT, piped.kind(), "a window filter's kind is what it windows");
            assertEquals(FilterKind.QUEUE, piped.parameters().kind(), "its parameters are the queuing construction's");
            assertTrue(!piped.partitioned(), "a queue is not partitioned");
            compare(sequential, piped, 20_000, seed, false, "queue L=4 over qht");
            compared.add("queue");
        }
        assertEquals(FilterKind.values().length - PARTITIONED.size(), compared.size(), "kinds compared: " + compared);
    }

    /**
     * The kind at 2^20 bits; or, for a windowed kind, a window of 2^14 at 2^20 bits or, failing that, alone; or a
     * window of time of its own for a capacity of 2^14.
     */
    private static FilterBuilder unpartitionedBuilder(final FilterKind kind, final long seed)
    {
        final List<Supplier<FilterBuilder>> tries = List.of(
            () -> Filters.builder(kind).memoryBits(MEMORY_BITS),
            () -> Filters.builder(kind).memoryBits(MEMORY_BITS).window(1 << 14),
            () -> Filters.builder(kind).window(1 << 14),
            // a window of time of its own (aged-cuckoo), on event time: a call without a time turns by count only
            () -> Filters.builder(kind).param("capacity", 1L << 14).window(java.time.Duration.ofHours(1)).eventTime());
        IllegalArgumentException last = null;
        for (final Supplier<FilterBuilder> attempt : tries)
        {
            try
            {
                final FilterBuilder builder = attempt.get().seed(seed);
                builder.parameters();
                return builder;
            }
            catch (final IllegalArgumentException e)
            {
                last = e;
            }
        }
        throw last;
    }

    /** byte[] and DirectBuffer elements of varied lengths, mixed with longs, match stream(byte[]). */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: 20 s for QHT x 10^7 on an idle 2-core machine
    void variableLengthElementsEqualSequential()
    {
        final Random random = seededRandom();
        final long seed = random.nextLong();
        final int n = 150_000;
        final byte[][] elements = new byte[1 << 12][];
        for (int i = 0; i < elements.length; i++)
        {
            elements[i] = new byte[random.nextInt(65)];
            random.nextBytes(elements[i]);
        }
        final int[] picks = random.ints(n, 0, elements.length).toArray();
        try (DuplicateFilter sequential = Filters.builder(FilterKind.QHT).rows(1 << 8).seed(seed).create();
             DuplicateFilter piped = Filters.builder(FilterKind.QHT).rows(1 << 8).seed(seed).create())
        {
            final byte[] expected = new byte[n];
            for (int i = 0; i < n; i++)
            {
                final byte[] e = elements[picks[i]];
                expected[i] = (byte)sequential.stream(e, 0, e.length).ordinal();
            }
            final Checker checker = new Checker(expected);
            final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(80));
            final byte[] framed = new byte[80];
            try (FilterPipeline pipeline = FilterPipeline.builder().hashers(2).inserters(2).ringSize(256)
                .maxElementBytes(64).listener(checker).build())
            {
                for (int i = 0; i < n; i++)
                {
                    final byte[] e = elements[picks[i]];
                    switch (i % 3)
                    {
                        case 0 -> pipeline.publish(piped, Operation.STREAM, e, 0, e.length, i);
                        case 1 ->
                        {
                            direct.putBytes(7, e);
                            pipeline.publish(piped, Operation.STREAM, (DirectBuffer)direct, 7, e.length, i);
                        }
                        default ->
                        {
                            System.arraycopy(e, 0, framed, 3, e.length);
                            while (pipeline.tryPublish(piped, Operation.STREAM, framed, 3, e.length, i) < 0)
                            {
                                Thread.yield(); // leave the core to the handlers: only two here
                            }
                        }
                    }
                }
            }
            checker.assertComplete("variable-length elements, seed " + seed);
            assertEquals(sequential.duplicates(), piped.duplicates());
        }
    }

    private static void compare(final DuplicateFilter sequential, final DuplicateFilter piped, final int n,
        final long seed, final boolean evicting, final String what)
    {
        compare(sequential, piped, n, seed, evicting, 0, what);
    }

    private static void compare(final DuplicateFilter sequential, final DuplicateFilter piped, final int n,
        final long seed, final boolean evicting, final int prefetch, final String what)
    {
        compare(sequential, piped, n, seed, evicting, prefetch, 2, what);
    }

    private static void compare(final DuplicateFilter sequential, final DuplicateFilter piped, final int n,
        final long seed, final boolean evicting, final int prefetch, final int handlers, final String what)
    {
        compare(sequential, piped, n, seed, evicting, prefetch, handlers, b -> b, 1, what);
    }

    /**
     * @param options        further builder settings ({@code singleProducer()}: this thread is the only publisher).
     * @param batch          1: one {@code publish} per element; more: runs of up to {@code batch} consecutive
     *                       elements of one operation go out in one {@code publishBatch}.
     */
    private static void compare(final DuplicateFilter sequential, final DuplicateFilter piped, final int n,
        final long seed, final boolean evicting, final int prefetch, final int handlers,
        final UnaryOperator<FilterPipelineBuilder> options, final int batch, final String what)
    {
        final byte[] expected = new byte[n];
        final BitSet seen = new BitSet(1 << 22);
        long duplicates = 0;
        long missed = 0;
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n; i++)
        {
            final long value = next(random);
            final boolean contains = random.nextInt(16) == 0;
            final Verdict verdict = contains ? (sequential.contains(value) ? Verdict.DUPLICATE : Verdict.UNSEEN) :
                sequential.stream(value);
            expected[i] = (byte)verdict.ordinal();
            if (!contains)
            {
                duplicates += verdict == Verdict.DUPLICATE ? 1 : 0;
                missed += verdict == Verdict.UNSEEN && seen.get((int)value) ? 1 : 0;
                seen.set((int)value);
            }
        }
        final Checker checker = new Checker(expected);
        final long start = System.nanoTime();
        try (FilterPipeline pipeline = options.apply(FilterPipeline.builder().hashers(handlers).inserters(handlers)
            .prefetch(prefetch).listener(checker)).build())
        {
            random = new SplittableRandom(seed);
            final long[] run = new long[batch];
            int runLength = 0;
            Operation runOperation = Operation.STREAM;
            for (int i = 0; i < n; i++)
            {
                final long value = next(random);
                final Operation operation = random.nextInt(16) == 0 ? Operation.CONTAINS : Operation.STREAM;
                if (batch == 1)
                {
                    pipeline.publish(piped, operation, value, i);
                    continue;
                }
                if (runLength == batch || (runLength > 0 && operation != runOperation))
                {
                    pipeline.publishBatch(piped, runOperation, run, 0, runLength, i - runLength);
                    runLength = 0;
                }
                runOperation = operation;
                run[runLength++] = value;
            }
            if (runLength > 0)
            {
                pipeline.publishBatch(piped, runOperation, run, 0, runLength, n - runLength);
            }
        }
        final long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%s: seed %d, %d elements, %d duplicates, %d repeats judged unseen (evicted); "
            + "pipeline %d ms%n", what, seed, n, duplicates, missed, ms);
        assertTrue(!evicting || (duplicates > n / 10 && missed > n / 100), what + ": the stream should give many duplicates and "
            + "evictions");
        checker.assertComplete(what + ", seed " + seed);
        assertEquals(sequential.elements(), piped.elements(), what + ": elements counter");
        assertEquals(sequential.duplicates(), piped.duplicates(), what + ": duplicates counter");
    }

    private static long next(final SplittableRandom random)
    {
        return random.nextBoolean() ? random.nextLong(1 << 14) : random.nextLong(1 << 22);
    }

    /** Compares each delivered verdict with the expected one, on the listener thread. */
    static final class Checker implements VerdictListener
    {
        private final byte[] expected;
        private long next;
        private String mismatch;

        Checker(final byte[] expected)
        {
            this.expected = expected;
        }

        @Override
        public void onVerdict(final long tag, final Verdict verdict)
        {
            if (mismatch == null && (tag != next || expected[(int)tag] != verdict.ordinal()))
            {
                mismatch = "element " + next + ": got tag " + tag + " verdict " + verdict + ", expected verdict " +
                    Verdict.values()[expected[(int)next]];
            }
            next++;
        }

        @Override
        public void onError(final long tag, final Throwable failure)
        {
            if (mismatch == null)
            {
                mismatch = "element " + tag + " failed: " + failure;
            }
            next++;
        }

        /**
         * Reads the listener's state: call after close (which joins the listener thread).
         *
         * @param what for the message.
         */
        void assertComplete(final String what)
        {
            assertEquals(null, mismatch, what);
            assertEquals(expected.length, next, what + ": verdicts delivered");
        }
    }

    /** Delegates to a filter but says it is not partitioned, to exercise the single-inserter route. */
    private static final class Unpartitioned implements DuplicateFilter
    {
        private final DuplicateFilter inner;

        Unpartitioned(final DuplicateFilter inner)
        {
            this.inner = inner;
        }

        @Override
        public boolean partitioned()
        {
            return false;
        }

        @Override
        public long partition(final long hash)
        {
            return 0;
        }

        @Override
        public long hash(final long element)
        {
            return inner.hash(element);
        }

        @Override
        public long hash(final byte[] bytes, final int offset, final int length)
        {
            return inner.hash(bytes, offset, length);
        }

        @Override
        public long hash(final CharSequence text)
        {
            return inner.hash(text);
        }

        @Override
        public long hash(final DirectBuffer buffer, final int offset, final int length)
        {
            return inner.hash(buffer, offset, length);
        }

        @Override
        public Verdict streamHash(final long hash)
        {
            return inner.streamHash(hash);
        }

        @Override
        public boolean containsHash(final long hash)
        {
            return inner.containsHash(hash);
        }

        @Override
        public FilterKind kind()
        {
            return inner.kind();
        }

        @Override
        public FilterParameters parameters()
        {
            return inner.parameters();
        }

        @Override
        public long elements()
        {
            return inner.elements();
        }

        @Override
        public long duplicates()
        {
            return inner.duplicates();
        }

        @Override
        public Path path()
        {
            return inner.path();
        }

        @Override
        public void flush()
        {
            inner.flush();
        }

        @Override
        public void close()
        {
            inner.close();
        }
    }
}
