package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aged-cuckoo through the embedder API: built like fifo-bloom's window of time ({@code window(Duration)},
 * {@code subfilters(L)} its slices, capacity); time passing while the file is closed expires what it should at the
 * open, and the open says so; the promise holds across closes; concurrent streams lose no live element; an error rate
 * or slices the 16-bit slots cannot hold are refused with what to give instead.
 */
class AgedCuckooWindowTest extends EngineTestBase
{
    private static final long CAPACITY = 10_000;
    private static final double ERROR = 0.01;
    private static final long WINDOW = 60_000;
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private static FilterBuilder builder(final ManualClock clock, final int slices)
    {
        return Filters.builder(FilterKind.AGED_CUCKOO).param("capacity", CAPACITY).param("target-fpr", ERROR)
            .window(Duration.ofMillis(WINDOW)).subfilters(slices).clock(clock).seed(0x5EED_0029L);
    }

    /**
     * Time passes while the file is closed: at the open the generations whose window ended meanwhile are gone, and
     * the open says how many and since when; the elements still inside their window are there.
     */
    @ParameterizedTest(name = "closed for {0} ms")
    @CsvSource({"20000", "45000", "100000", "600000"})
    void timePassingWhileClosedExpiresWhatItShould(final long closedFor)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final ManualClock clock = new ManualClock(T0);
        final Path file = dir.resolve("closed.ddf");
        final List<long[]> added = new ArrayList<>();
        final long filterTimeAtClose;
        try (DuplicateFilter filter = builder(clock, 4).file(file).create())
        {
            for (long i = 0; i < 3 * CAPACITY; i++)
            {
                clock.set(T0 + i * WINDOW / CAPACITY);
                final long element = random.nextLong();
                if (filter.stream(element) == Verdict.UNSEEN)
                {
                    added.add(new long[] {element, clock.millis()});
                }
            }
            filterTimeAtClose = filter.timeWindow().orElseThrow().filterTimeMillis();
        }
        clock.set(clock.millis() + closedFor);
        try (DuplicateFilter filter = builder(clock, 4).file(file).openOrCreate())
        {
            final TimeWindow.AtOpen atOpen = filter.timeWindow().orElseThrow().atOpen();
            assertEquals(clock.millis(), atOpen.appliedTime());
            assertEquals(filterTimeAtClose, atOpen.filterTimeBefore());
            final long now = clock.millis();
            long inside = 0;
            long past = 0;
            long pastHeld = 0;
            for (final long[] e : added)
            {
                if (now < e[1] + WINDOW)
                {
                    inside++;
                    assertTrue(filter.contains(e[0]), "an element inside its window is missing after the open");
                }
                else if (now >= e[1] + WINDOW + WINDOW / 4)
                {
                    past++;
                    pastHeld += filter.contains(e[0]) ? 1 : 0;
                }
            }
            assertTrue(past > 0);
            assertTrue(pastHeld <= 2 * ERROR * past + 1, pastHeld + " of " + past + " past their window answered; " +
                TestSeed.replayHint());
            assertEquals(closedFor < WINDOW, inside > 0);
            assertTrue(atOpen.expiredGenerations() > 0, atOpen.describe());
        }
    }

    /** Closed and reopened mid-stream at the same time, four times: nothing inside its window is missed. */
    @Test
    void thePromiseHoldsAcrossCloses()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final ManualClock clock = new ManualClock(T0);
        final Path file = dir.resolve("window.ddf");
        final List<long[]> added = new ArrayList<>();
        long i = 0;
        long checked = 0;
        for (int round = 0; round < 4; round++)
        {
            try (DuplicateFilter filter = builder(clock, 16).file(file).openOrCreate())
            {
                for (final long[] e : added)
                {
                    if (clock.millis() < e[1] + WINDOW)
                    {
                        checked++;
                        assertTrue(filter.contains(e[0]), "inside its window, missing after a reopen; " +
                            TestSeed.replayHint());
                    }
                }
                for (final long end = i + 2 * CAPACITY; i < end; i++)
                {
                    clock.set(T0 + i * WINDOW / CAPACITY);
                    final long element = random.nextLong();
                    if (filter.stream(element) == Verdict.UNSEEN)
                    {
                        added.add(new long[] {element, clock.millis()});
                    }
                }
            }
        }
        assertTrue(checked > CAPACITY, checked + " checks");
    }

    /**
     * Four threads stream at the promised rate in all (event time, each element's time from one shared counter), a
     * quarter of the elements from a pool every thread streams too: afterwards every element answered UNSEEN within
     * the last window answers DUPLICATE, and during the run each thread's own recent elements do while the filter's
     * time is inside their window.
     */
    @Test
    void concurrentStreamsLoseNoLiveElement() throws InterruptedException
    {
        final int threads = 4;
        final long total = 6 * CAPACITY;
        final AtomicLong counter = new AtomicLong();
        final long[] pool = new SplittableRandom(TestSeed.seed() ^ 0x9001).longs(CAPACITY).toArray();
        final ConcurrentLinkedQueue<long[]> added = new ConcurrentLinkedQueue<>();
        final AtomicLong missed = new AtomicLong();
        try (DuplicateFilter filter = builder(new ManualClock(T0), 16).eventTime().create())
        {
            final List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final SplittableRandom random = new SplittableRandom(TestSeed.seed() + t);
                workers.add(new Thread(() ->
                {
                    final List<long[]> mine = new ArrayList<>();
                    for (long i = counter.getAndIncrement(); i < total; i = counter.getAndIncrement())
                    {
                        final long time = T0 + i * WINDOW / CAPACITY;
                        final long element = random.nextInt(4) == 0 ? pool[(int)(i / 4 % pool.length)] :
                            random.nextLong();
                        if (filter.stream(element, time) == Verdict.UNSEEN)
                        {
                            final long[] e = {element, time};
                            mine.add(e);
                            added.add(e);
                        }
                        if (i % 16 == 0 && !mine.isEmpty())
                        {
                            // missed only if the filter's time, read after the lookup, is still inside its window
                            // (this thread's own time may lag the others')
                            final long[] recent = mine.get(Math.max(0, mine.size() - 1 - random.nextInt(100)));
                            if (!filter.contains(recent[0]) &&
                                filter.timeWindow().orElseThrow().filterTimeMillis() < recent[1] + WINDOW)
                            {
                                missed.incrementAndGet();
                            }
                        }
                    }
                }));
            }
            workers.forEach(Thread::start);
            for (final Thread worker : workers)
            {
                worker.join();
            }
            final long now = filter.timeWindow().orElseThrow().filterTimeMillis();
            long inside = 0;
            for (final long[] e : added)
            {
                if (now < e[1] + WINDOW)
                {
                    inside++;
                    missed.addAndGet(filter.contains(e[0]) ? 0 : 1);
                }
            }
            assertTrue(inside > CAPACITY / 2, inside + " checked");
            assertEquals(0, missed.get(), "live elements lost; " + TestSeed.replayHint());
        }
    }

    /** An error rate whose fingerprints leave too few stamp bits, or slices beyond the stamps: refused, saying why. */
    @Test
    void whatTheSlotsCannotHoldIsRefused()
    {
        final IllegalArgumentException tooFine = assertThrows(IllegalArgumentException.class, () ->
            Filters.builder(FilterKind.AGED_CUCKOO).param("capacity", CAPACITY).param("target-fpr", 0.0001)
                .window(Duration.ofMillis(WINDOW)).create().close());
        assertTrue(tooFine.getMessage().contains("fingerprint bits"), tooFine.getMessage());
        final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () ->
            Filters.builder(FilterKind.AGED_CUCKOO).param("capacity", CAPACITY).param("target-fpr", 0.001)
                .window(Duration.ofMillis(WINDOW)).subfilters(4).create().close());
        assertTrue(tooMany.getMessage().contains("at most 2"), tooMany.getMessage());
        try (DuplicateFilter filter = Filters.builder(FilterKind.AGED_CUCKOO).param("capacity", CAPACITY)
            .param("target-fpr", 0.001).window(Duration.ofMillis(WINDOW)).subfilters(2).create())
        {
            assertEquals(2, filter.timeWindow().orElseThrow().slices());
        }
    }
}
