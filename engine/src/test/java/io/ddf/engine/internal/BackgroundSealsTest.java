package io.ddf.engine.internal;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.ManualClock;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.Verdict;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filters' sealing thread ({@link BackgroundSeals}) on real filters with a window of time and an injected clock:
 * it takes the seal each turn of a nearly idle filter queues (the core's own test shows the turn then seals nothing
 * itself: {@code WindowedFifoRotationTest}), after a reopen too, and a close in the middle of its work waits for the
 * step in flight and drops the filter (a step on an unmapped table would crash the test's JVM).
 */
class BackgroundSealsTest
{
    private static final Duration WINDOW = Duration.ofHours(24);
    private static final int SLICES = 2;
    private static final long SLICE = WINDOW.toMillis() / SLICES;
    private static final int GENERATIONS = 2 * SLICES;
    private static final long T0 = 1_700_000_000_000L;

    private static DuplicateFilter windowed(final long capacity, final ManualClock clock, final Path file)
    {
        final var builder = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity).window(WINDOW)
            .subfilters(SLICES).clock(clock).seed(7);
        return file == null ? builder.create() : builder.file(file).sync(SyncPolicy.NO).openOrCreate();
    }

    /** Three new items, then the clock moves a slice and one more call turns: returns the three. */
    private static List<Long> slice(final DuplicateFilter filter, final ManualClock clock,
        final SplittableRandom random)
    {
        final List<Long> items = new ArrayList<>();
        while (items.size() < 3)
        {
            final long item = random.nextLong();
            if (filter.stream(item) == Verdict.UNSEEN)
            {
                items.add(item);
            }
        }
        clock.advance(SLICE);
        filter.stream(random.nextLong());
        return items;
    }

    private static void awaitSealed(final long unitsBefore, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (BackgroundSeals.done()[1] <= unitsBefore)
        {
            assertTrue(System.nanoTime() < deadline, what + ": the sealing thread did nothing in 20 s");
            Thread.sleep(1);
        }
    }

    @Test
    void theThreadTakesEachTurnsSealAndNoItemWithinItsWindowIsLost(@TempDir final Path dir) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final ManualClock clock = new ManualClock(T0);
        final Path file = dir.resolve("w.ddf");
        final List<List<Long>> bySlice = new ArrayList<>();
        final long preparedBefore = BackgroundSeals.done()[2];
        try (DuplicateFilter filter = windowed(10_000_000, clock, file))
        {
            for (int turn = 1; turn <= 3 * GENERATIONS; turn++)
            {
                final long before = BackgroundSeals.done()[1];
                bySlice.add(slice(filter, clock, random));
                if (turn > GENERATIONS)
                {
                    awaitSealed(before, "turn " + turn); // each such turn ends a stale use: a seal queued
                }
                assertHeld(filter, bySlice);
            }
            // once its seals are done, the thread readies the next turn's pages (prepareNextTurn), the filter open
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (BackgroundSeals.done()[2] == preparedBefore)
            {
                assertTrue(System.nanoTime() < deadline, "the sealing thread readied no page in 20 s");
                Thread.sleep(1);
            }
        }
        // reopened: every stale slot but the newest's is pending from its start, and the thread is woken at once
        final long before = BackgroundSeals.done()[1];
        try (DuplicateFilter filter = windowed(10_000_000, clock, file))
        {
            awaitSealed(before, "the reopen");
            for (int turn = 1; turn <= GENERATIONS; turn++)
            {
                bySlice.add(slice(filter, clock, random));
                assertHeld(filter, bySlice);
            }
        }
    }

    /** The items of the last L slices (within their window: W = L slices) are answered. */
    private static void assertHeld(final DuplicateFilter filter, final List<List<Long>> bySlice)
    {
        for (int age = 0; age < SLICES && age < bySlice.size(); age++)
        {
            for (final long item : bySlice.get(bySlice.size() - 1 - age))
            {
                assertTrue(filter.contains(item), "an item " + age + " slices old was forgotten (seed " +
                    TestSeed.seed() + ")");
            }
        }
    }

    @Test
    void aCloseInTheMiddleOfTheSealsWaitsForTheStepAndDropsTheFilter()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        for (int round = 0; round < 12; round++)
        {
            final ManualClock clock = new ManualClock(T0);
            final DuplicateFilter filter = windowed(30_000_000, clock, null);
            for (int turn = 1; turn <= GENERATIONS + 2 + round % 3; turn++)
            {
                slice(filter, clock, random); // from turn 2L + 1 on, a seal of ~12,000 map words queued
            }
            filter.close(); // while the thread seals it, most rounds
            assertThrows(IllegalStateException.class, () -> filter.stream(1L));
        }
    }
}
