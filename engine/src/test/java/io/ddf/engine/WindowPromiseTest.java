package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The window's promise ({@link TimeWindow}), tested as stated, through the embedder API with an injected clock: an
 * element added at t answers DUPLICATE until t + W provided no more than n new elements come within a window; it is
 * forgotten by t + W + W / L; the false positive rate stays at most ε. At 0.5x and 1x the promised rate (steady, and at
 * 1x in bursts that fill the budget of every window), nothing inside its window is missed and nothing is recycled
 * early; at 2x the rate the condition is broken, elements are missed inside their window and the filter counts the
 * generations it recycled early. Across a close and reopen, and with time passing while closed.
 */
class WindowPromiseTest extends EngineTestBase
{
    private static final long CAPACITY = 4_000;
    private static final double ERROR = 0.01;
    private static final long WINDOW = 60_000;
    private static final long T0 = 1_700_000_000_000L;
    /** Elements of each check against their window: the newest and oldest ones matter most, the rest sampled. */
    private static final int SAMPLE = 64;

    @TempDir
    Path dir;

    /** What happened to the elements of a run, checked as it went. */
    private static final class Tally
    {
        long insideChecked;
        long insideMissed;
        long pastChecked;
        long pastHeld;
        long probes;
        long falsePositives;
    }

    /** Elements added, with their times, oldest first. */
    private static final class Added
    {
        final List<long[]> elements = new ArrayList<>();

        void add(final long element, final long time)
        {
            elements.add(new long[] {element, time});
        }
    }

    private FilterBuilder builder(final ManualClock clock, final int slices)
    {
        return Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", CAPACITY).param("target-fpr", ERROR)
            .window(Duration.ofMillis(WINDOW)).subfilters(slices).clock(clock).seed(0x5EED_0029L);
    }

    /**
     * @param rate    new elements per window, as a multiple of the capacity.
     * @param bursty  whether they come in bursts that fill each window's budget (else evenly spaced).
     * @param slices  L.
     */
    @ParameterizedTest(name = "{0} x the rate, bursty {1}, L = {2}")
    @CsvSource({"0.5, false, 2", "1.0, false, 2", "1.0, true, 2", "0.5, false, 4", "1.0, false, 4", "1.0, true, 4",
        "1.0, true, 1", "2.0, false, 2", "2.0, false, 4"})
    void thePromiseHoldsUpToTheRateAndIsCountedBeyondIt(final double rate, final boolean bursty, final int slices)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final ManualClock clock = new ManualClock(T0);
        final Tally tally = new Tally();
        try (DuplicateFilter filter = builder(clock, slices).create())
        {
            final Added added = new Added();
            final Schedule schedule = new Schedule(random, rate, bursty);
            for (long time = schedule.next(); time < T0 + 6 * WINDOW; time = schedule.next())
            {
                clock.set(time);
                final long element = random.nextLong();
                if (filter.stream(element) == Verdict.UNSEEN)
                {
                    added.add(element, time);
                }
                if (added.elements.size() % 97 == 0)
                {
                    check(filter, added, clock.millis(), slices, random, tally);
                }
            }
            final TimeWindow window = filter.timeWindow().orElseThrow();
            final String what = rate + " x the rate" + (bursty ? " in bursts" : "") + ", L = " + slices + ": " +
                tally.insideMissed + " of " + tally.insideChecked + " checks inside the window missed, " +
                window.recycledEarly() + " generations recycled early, " + window.turnsByTime() + " turns by time, " +
                window.turnsByCount() + " by count; " + TestSeed.replayHint();
            if (rate <= 1.0)
            {
                assertEquals(0, tally.insideMissed, what);
                assertEquals(0, window.recycledEarly(), what);
            }
            else
            {
                assertTrue(tally.insideMissed > 0, "the rate breaks the promise, so elements are missed: " + what);
                assertTrue(window.recycledEarly() > 0, "and the filter counts it: " + what);
            }
            if (rate < 1.0)
            {
                assertEquals(0, window.turnsByCount(), "below the rate every turn is by time: " + what);
            }
            assertTrue(tally.pastChecked > 1000, tally.pastChecked + " checks past the window");
            assertTrue(tally.pastHeld <= 2 * ERROR * tally.pastChecked, tally.pastHeld + " of " + tally.pastChecked +
                " elements past t + W + W/L still answered (false positives at most): " + what);
            assertTrue(tally.falsePositives <= 1.2 * ERROR * tally.probes, tally.falsePositives + " false positives " +
                "in " + tally.probes + " probes: " + what);
        }
    }

    /**
     * Checks, at {@code now}, a sample of the elements inside their window (each must answer DUPLICATE), of those
     * past t + W + W / L (each answers only as a false positive would), and never-added elements.
     */
    private static void check(final DuplicateFilter filter, final Added added, final long now, final int slices,
        final SplittableRandom random, final Tally tally)
    {
        final List<long[]> all = added.elements;
        for (int i = 0; i < SAMPLE && !all.isEmpty(); i++)
        {
            final long[] e = all.get(i < SAMPLE / 2 ? all.size() - 1 - random.nextInt(Math.min(all.size(), 200)) :
                random.nextInt(all.size()));
            if (now < e[1] + WINDOW)
            {
                tally.insideChecked++;
                tally.insideMissed += filter.contains(e[0]) ? 0 : 1;
            }
            else if (now >= e[1] + WINDOW + WINDOW / slices)
            {
                tally.pastChecked++;
                tally.pastHeld += filter.contains(e[0]) ? 1 : 0;
            }
        }
        for (int i = 0; i < SAMPLE; i++)
        {
            tally.probes++;
            tally.falsePositives += filter.contains(random.nextLong()) ? 1 : 0;
        }
        // the oldest inside the window: the one the promise is most at risk for
        for (int i = all.size() - 1; i >= 0 && now < all.get(i)[1] + WINDOW; i--)
        {
            if (i == 0 || now >= all.get(i - 1)[1] + WINDOW)
            {
                tally.insideChecked++;
                tally.insideMissed += filter.contains(all.get(i)[0]) ? 0 : 1;
            }
        }
    }

    /**
     * When new elements come: evenly at {@code rate} x n per window, or in bursts: a burst of up to the whole budget
     * at once, then quiet for a random time, never more than {@code rate} x n within any window (a sliding count).
     */
    private static final class Schedule
    {
        private final SplittableRandom random;
        private final boolean bursty;
        private final long budget;
        private final double gap;
        private final ArrayDeque<Long> recent = new ArrayDeque<>();
        private long time = T0;
        private long burstLeft;

        Schedule(final SplittableRandom random, final double rate, final boolean bursty)
        {
            this.random = random;
            this.bursty = bursty;
            this.budget = Math.round(rate * CAPACITY);
            this.gap = WINDOW / (rate * CAPACITY);
        }

        long next()
        {
            if (!bursty)
            {
                time = T0 + Math.round(++burstLeft * gap);
                return time;
            }
            while (true)
            {
                if (burstLeft == 0)
                {
                    time += 1 + random.nextLong(WINDOW / 2); // quiet, then a burst of a random share of the budget
                    burstLeft = 1 + random.nextLong(budget);
                }
                while (!recent.isEmpty() && recent.peekFirst() <= time - WINDOW)
                {
                    recent.pollFirst();
                }
                if (recent.size() < budget)
                {
                    burstLeft--;
                    recent.addLast(time);
                    return time;
                }
                // the window's budget is spent: wait until its oldest element leaves the window
                time = recent.peekFirst() + WINDOW;
            }
        }
    }

    /** Closed and reopened mid-stream, at the same time: the promise holds across, at 1x the rate. */
    @Test
    void thePromiseHoldsAcrossACloseAndReopen()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final ManualClock clock = new ManualClock(T0);
        final Path file = dir.resolve("window.ddf");
        final Added added = new Added();
        final Tally tally = new Tally();
        final Schedule schedule = new Schedule(random, 1.0, true);
        long time = schedule.next();
        for (int round = 0; round < 4; round++)
        {
            try (DuplicateFilter filter = builder(clock, 2).file(file).openOrCreate())
            {
                assertEquals(0, filter.timeWindow().orElseThrow().atOpen().expiredGenerations());
                for (; time < T0 + (round + 1) * 1.5 * WINDOW; time = schedule.next())
                {
                    clock.set(time);
                    final long element = random.nextLong();
                    if (filter.stream(element) == Verdict.UNSEEN)
                    {
                        added.add(element, time);
                    }
                }
                check(filter, added, clock.millis(), 2, random, tally);
            }
            try (DuplicateFilter filter = builder(clock, 2).file(file).openOrCreate())
            {
                check(filter, added, clock.millis(), 2, random, tally); // right after the reopen
            }
        }
        assertEquals(0, tally.insideMissed, tally.insideMissed + " of " + tally.insideChecked + " missed");
        assertTrue(tally.insideChecked > 100);
    }

    /**
     * Time passes while the file is closed: at the open, the generations whose window ended meanwhile are no longer
     * answered and the open says how many, and since when; those still inside it are.
     */
    @ParameterizedTest(name = "closed for {0} ms")
    @CsvSource({"20000", "45000", "100000", "600000"})
    void timePassingWhileClosedExpiresWhatItShouldAndTheOpenSaysSo(final long closedFor)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final ManualClock clock = new ManualClock(T0);
        final Path file = dir.resolve("closed.ddf");
        final Added added = new Added();
        final long visibleAtClose;
        final long filterTimeAtClose;
        final long turnsAtClose;
        try (DuplicateFilter filter = builder(clock, 2).file(file).create())
        {
            for (long i = 0; i < 3 * CAPACITY; i++)
            {
                clock.set(T0 + i * WINDOW / CAPACITY);
                final long element = random.nextLong();
                if (filter.stream(element) == Verdict.UNSEEN)
                {
                    added.add(element, clock.millis());
                }
            }
            final TimeWindow window = filter.timeWindow().orElseThrow();
            visibleAtClose = window.newestGeneration() - window.oldestGeneration() + 1;
            filterTimeAtClose = window.filterTimeMillis();
            turnsAtClose = window.turnsByTime() + window.turnsByCount();
        }
        final long closedAt = clock.millis();
        clock.set(closedAt + closedFor);
        try (DuplicateFilter filter = builder(clock, 2).file(file).openOrCreate())
        {
            final TimeWindow window = filter.timeWindow().orElseThrow();
            final TimeWindow.AtOpen atOpen = window.atOpen();
            assertEquals(clock.millis(), atOpen.appliedTime());
            assertEquals(filterTimeAtClose, atOpen.filterTimeBefore());
            final long now = clock.millis();
            long inside = 0;
            long past = 0;
            long pastHeld = 0;
            for (final long[] e : added.elements)
            {
                if (now < e[1] + WINDOW)
                {
                    inside++;
                    assertTrue(filter.contains(e[0]), "an element inside its window is missing after the open");
                }
                else if (now >= e[1] + WINDOW + WINDOW / 2)
                {
                    past++;
                    pastHeld += filter.contains(e[0]) ? 1 : 0;
                }
            }
            assertTrue(pastHeld <= 2 * ERROR * past + 1, pastHeld + " of " + past + " past their window answered");
            final long visibleNow = window.newestGeneration() - window.oldestGeneration() + 1;
            final long turnedAtOpen = window.turnsByTime() + window.turnsByCount() - turnsAtClose;
            assertTrue(turnedAtOpen <= 1, "one turn at most, however long it was closed");
            assertEquals(visibleAtClose + turnedAtOpen - visibleNow, atOpen.expiredGenerations(),
                "the open's count of expired generations: " + atOpen.describe());
            assertEquals(closedFor < WINDOW, inside > 0);
            if (closedFor >= WINDOW + WINDOW / 2)
            {
                // every generation visible at the close ended before it, so its window has passed
                assertEquals(visibleAtClose, atOpen.expiredGenerations(), atOpen.describe());
            }
            assertTrue(atOpen.describe().contains("expired while closed"), atOpen.describe());
        }
    }
}
