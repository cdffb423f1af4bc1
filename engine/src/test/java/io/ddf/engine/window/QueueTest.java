package io.ddf.engine.window;

import io.ddf.engine.SpiAccess;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queuing construction (seed 001 §5, Alg. 2): forgets after c·L elements, remembers within c·(L − 1). */
class QueueTest extends MappedMemoryTestBase
{
    private static final int L = 4;
    private static final int C = 64;
    /** Memory per subfilter: 2^16 bits for 64 elements, so that false positives are negligible in every kind. */
    private static final long SUBFILTER_BITS = 1L << 16;
    /**
     * Kinds that keep every one of a subfilter's c elements until the subfilter is recycled (given this much memory),
     * so that the queue must remember c·(L − 1) + 1 elements back. The others forget at random (SBF, RSBF, BSBF...),
     * or by design within their own window of c (A2 keeps only the last c/2 to c).
     */
    private static final Set<FilterKind> KEEPERS = EnumSet.of(FilterKind.QHT, FilterKind.QHTD, FilterKind.QQHTD,
        FilterKind.SQF, FilterKind.BLOOM, FilterKind.CUCKOO, FilterKind.BDBF, FilterKind.EXACT_WINDOW, FilterKind.SHF,
        FilterKind.CSHF);

    @TempDir
    Path dir;

    /**
     * Kinds a queue may wrap: every implemented one but the two that are queues themselves and aged-cuckoo, whose
     * window is of time and its own (a queue's subfilter is refused: it needs window-ms).
     */
    private static List<FilterKind> implementedKinds()
    {
        final List<FilterKind> kinds = new ArrayList<>();
        for (final FilterKind kind : FilterKind.values())
        {
            if (kind != FilterKind.QUEUE && kind != FilterKind.FIFO_BLOOM && kind != FilterKind.AGED_CUCKOO)
            {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    private static FilterBuilder queue(final FilterKind kind)
    {
        final FilterBuilder builder = Filters.builder(kind).window((long)C * L).subfilters(L).seed(kind.code());
        final KindDefinition definition = SpiAccess.definition(kind);
        final int slot = definition.slotOf(CommonParams.MEMORY_BITS.name());
        if (slot >= 0 && definition.params().get(slot).option())
        {
            builder.memoryBits(L * SUBFILTER_BITS);
        }
        return builder;
    }

    /**
     * Streams {@code offset} fillers (so e falls anywhere in its subfilter), then e, then {@code gap} distinct
     * others, then asks about e.
     */
    private static boolean seenAfter(final DuplicateFilter filter, final AtomicLong fresh, final int offset,
        final int gap)
    {
        for (int i = 0; i < offset; i++)
        {
            filter.stream(fresh.getAndIncrement());
        }
        final long e = fresh.getAndIncrement();
        filter.stream(e);
        for (int i = 0; i < gap; i++)
        {
            filter.stream(fresh.getAndIncrement());
        }
        final boolean contained = filter.contains(e);
        assertEquals(contained, filter.stream(e) == Verdict.DUPLICATE, "contains and stream disagree");
        return contained;
    }

    @Test
    void queueOverQhtForgetsAfterCLAndRemembersWithinCLMinusOne()
    {
        final Random random = seededRandom();
        for (int trial = 0; trial < 20; trial++)
        {
            try (DuplicateFilter filter = queue(FilterKind.QHT).create())
            {
                final AtomicLong fresh = new AtomicLong(random.nextLong());
                final int offset = random.nextInt(3 * C);
                assertTrue(seenAfter(filter, fresh, offset, C * (L - 1)), "c(L-1) = " + C * (L - 1) +
                    " further elements: still remembered (offset " + offset + ")");
                assertFalse(seenAfter(filter, fresh, random.nextInt(3 * C), C * L), "c·L further elements: forgotten");
            }
        }
        // From a fresh filter, e is the first insertion of its subfilter, which lasts c·L insertions.
        try (DuplicateFilter filter = queue(FilterKind.QHT).create())
        {
            assertTrue(seenAfter(filter, new AtomicLong(1), 0, C * L - 1));
        }
    }

    @Test
    void everyImplementedKindIsForgottenAfterCLAndKeepersRememberWithinCLMinusOne()
    {
        final Random random = seededRandom();
        final List<String> report = new ArrayList<>();
        for (final FilterKind kind : implementedKinds())
        {
            int forgotten = 0;
            int remembered = 0;
            final int trials = 10;
            try (DuplicateFilter filter = queue(kind).create())
            {
                assertEquals(kind.cliName(), filter.parameters().toMap().get("inner"));
                final AtomicLong fresh = new AtomicLong(random.nextLong());
                for (int trial = 0; trial < trials; trial++)
                {
                    forgotten += seenAfter(filter, fresh, random.nextInt(C), C * L) ? 0 : 1;
                    remembered += seenAfter(filter, fresh, random.nextInt(C), C * (L - 1)) ? 1 : 0;
                }
            }
            report.add(kind.cliName() + ": forgotten " + forgotten + "/" + trials + ", remembered " + remembered + "/" +
                trials);
            // Forgetting is certain (the subfilter is cleared): only a false positive of the other subfilters can
            // hide it. Kinds with a built-in false positive rate (e.g. SBF's target 0.02) are allowed a few.
            assertTrue(forgotten >= (KEEPERS.contains(kind) ? trials : trials - 3), kind + ": " + report);
            if (KEEPERS.contains(kind))
            {
                assertEquals(trials, remembered, kind + ": " + report);
            }
        }
        System.out.println("queue L=" + L + " c=" + C + " over each kind: " + report);
    }

    @Test
    void parametersShowTheInnerKindAndTheTotalMemory() throws Exception
    {
        final FilterBuilder builder = Filters.builder(FilterKind.QHT).window(1000).subfilters(10)
            .memoryBits(1_000_000).buckets(4).fingerprintBits(12);
        final Map<String, String> map = builder.parameters().toMap();
        assertEquals("queue", map.get("kind"));
        assertEquals("qht", map.get("inner"));
        assertEquals("10", map.get("subfilters"));
        assertEquals("1000", map.get("window"));
        assertEquals("100", map.get("insertions-per-subfilter"));
        assertEquals("1000000", map.get("memory-bits"));
        assertEquals("100000", map.get("subfilter-memory-bits"));
        assertEquals("4", map.get("buckets"));
        assertEquals("12", map.get("fingerprint-bits"));
        // openOrCreate checks every given name against the file's parameters.
        final Path file = dir.resolve("q.ddf");
        builder.file(file).openOrCreate().close();
        try (DuplicateFilter reopened = Filters.builder(FilterKind.QHT).window(1000).subfilters(10).buckets(4)
            .file(file).openOrCreate())
        {
            assertEquals(map.get("table-bytes"), reopened.parameters().toMap().get("table-bytes"));
        }
        final FilterFileException e = assertThrows(FilterFileException.class,
            () -> Filters.builder(FilterKind.QHT).window(1000).subfilters(10).buckets(3).file(file).openOrCreate());
        assertTrue(e.getMessage().contains("buckets"), e.getMessage());
        assertThrows(FilterFileException.class,
            () -> Filters.builder(FilterKind.SQF).window(1000).subfilters(10).file(file).openOrCreate());
    }

    @Test
    void innerWindowedKindsGetTheSubfilterWindow()
    {
        final Map<String, String> map = Filters.builder(FilterKind.SHF).window(1000).subfilters(4).memoryBits(400_000)
            .parameters().toMap();
        assertEquals("1000", map.get("window"));
        assertEquals("250", map.get("subfilter-window"));
        assertEquals("100000", map.get("subfilter-memory-bits"));
        // Sized by fingerprint-bits instead of memory: memory-bits records the subfilters' total.
        final Map<String, String> byWidth = Filters.builder(FilterKind.SHF).window(1000).subfilters(4)
            .fingerprintBits(20).parameters().toMap();
        assertEquals("20", byWidth.get("fingerprint-bits"));
        assertEquals(Long.toString(4 * Long.parseLong(byWidth.get("subfilter-memory-bits"))), byWidth.get("memory-bits"));
        // Quotient filters sized by rows: memory-bits is 0, rows per subfilter.
        final Map<String, String> byRows = Filters.builder(FilterKind.QHT).window(1000).subfilters(4).rows(500)
            .parameters().toMap();
        assertEquals("500", byRows.get("rows"));
        assertEquals("0", byRows.get("memory-bits"));
        // An exact window of c per subfilter: no memory parameter (it follows from c), memory-bits 0.
        final Map<String, String> exact = Filters.builder(FilterKind.EXACT_WINDOW).window(1000).subfilters(4)
            .parameters().toMap();
        assertEquals("250", exact.get("subfilter-window"));
        assertEquals("0", exact.get("memory-bits"));
        // Defaults: the 2^26 bits are shared.
        final Map<String, String> defaults = Filters.builder(FilterKind.QHT).subfilters(16).parameters().toMap();
        assertEquals(Long.toString(1L << 26), defaults.get("memory-bits"));
        assertEquals(Long.toString((1L << 26) / 16), defaults.get("subfilter-memory-bits"));
        assertEquals("65536", defaults.get("window"));
    }

    @Test
    void refusesWhatMakesNoSense()
    {
        ExactWindowTest.assertThrowsWithMessage("give window 990 or 1000",
            () -> Filters.builder(FilterKind.QHT).window(999).subfilters(10).parameters());
        ExactWindowTest.assertThrowsWithMessage("param(\"max-kicks\") is not a parameter of .window(w).subfilters(L) over qht",
            () -> Filters.builder(FilterKind.QHT).window(1000).subfilters(10).param("max-kicks", 5).parameters());
        ExactWindowTest.assertThrowsWithMessage(".memoryBits(n) is not a parameter",
            () -> Filters.builder(FilterKind.EXACT_WINDOW).window(1000).subfilters(10).memoryBits(1 << 20).parameters());
        ExactWindowTest.assertThrowsWithMessage(".remainderBits(n) is not a parameter",
            () -> Filters.builder(FilterKind.QHT).window(1000).subfilters(10).remainderBits(8).parameters());
        ExactWindowTest.assertThrowsWithMessage("subfilters must be",
            () -> Filters.builder(FilterKind.QHT).window(1000).subfilters(0).parameters());
        ExactWindowTest.assertThrowsWithMessage("qht subfilters",
            () -> Filters.builder(FilterKind.QHT).window(1000).subfilters(10).memoryBits(100).parameters());
        // A queue cannot be built as a kind, so it cannot be wrapped.
        assertThrows(IllegalArgumentException.class, () -> Filters.builder(FilterKind.QUEUE));
    }

    @Test
    void concurrentStreamsAcrossManyRotationsNeitherHangNorLoseCounts() throws Exception
    {
        final int threads = 4;
        final int perThread = 50_000;
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).window(256).subfilters(4).memoryBits(1 << 16)
            .create())
        {
            final Thread[] workers = new Thread[threads];
            final Throwable[] failure = new Throwable[1];
            for (int t = 0; t < threads; t++)
            {
                final long base = (long)t << 40;
                workers[t] = new Thread(() ->
                {
                    try
                    {
                        for (int i = 0; i < perThread; i++)
                        {
                            filter.stream(base + i % 1000);
                        }
                    }
                    catch (final Throwable e)
                    {
                        failure[0] = e;
                    }
                });
                workers[t].start();
            }
            for (final Thread worker : workers)
            {
                worker.join(60_000);
                assertFalse(worker.isAlive(), "a stream is stuck waiting for a rotation");
            }
            if (failure[0] != null)
            {
                throw new AssertionError(failure[0]);
            }
            assertEquals((long)threads * perThread, filter.elements());
            // Sequential again: the window works as before.
            assertEquals(Verdict.UNSEEN, filter.stream(-1L));
            assertEquals(Verdict.DUPLICATE, filter.stream(-1L));
        }
    }
}
