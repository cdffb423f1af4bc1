package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.WindowSnapshot;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aged-cuckoo's window promise on event time, on the core: an element added at t answers DUPLICATE until t + W while
 * at most n new elements come within any window, is forgotten by t + W + W / L, and the false positive rate stays at
 * most ε. At 0.5x and 1x the promised rate (steady, and at 1x in bursts that fill each window's budget): nothing
 * inside its window missed, no insert failure, nothing recycled early. At 2x and 4x (steady, and at 2x in bursts) the
 * promise is broken: the filter forgets its oldest generations early and misses elements inside their window, but
 * never one of the newest n - c elements added (c = n / L), and makes no insert failure (its live entries stay
 * within the table's sizing). Also: a
 * stamp reused after a long idle brings none of its old generation's entries back. L = 16 at 1 % is the one-word
 * layout (four slots a bucket: eight need an 11-bit fingerprint, whose 31 stamps allow L ≤ 14); L = 14, 4 and 1 the
 * two-word one (eight slots), the default.
 */
class AgedCuckooPromiseTest
{
    static final long CAPACITY = 20_000;
    static final long WINDOW = 100_000;
    static final long T0 = 1_700_000_000_000L;
    static final double ERROR = 0.01;
    private static final int SAMPLE = 64;

    /** A core over a direct region. */
    static final class Fixture implements AutoCloseable
    {
        final long[] slots;
        final DirectRegion region;
        final AgedCuckooCore core;

        Fixture(final long capacity, final long slices, final double error, final boolean owned)
        {
            final AgedCuckooDefinition definition = new AgedCuckooDefinition();
            final GivenParameters given = new GivenParameters();
            given.put("capacity", capacity);
            given.put("window-ms", WINDOW);
            given.put("slices", slices);
            given.put("time-source", 1L);
            given.put("target-fpr", error);
            slots = definition.resolve(given);
            region = new DirectRegion(definition.tableBytes(slots));
            core = (AgedCuckooCore)definition.core(slots, region.words(owned), null, FilterClock.NONE);
        }

        @Override
        public void close()
        {
            region.close();
        }
    }

    /** What happened to the elements of a run. */
    static final class Tally
    {
        long insideChecked;
        long insideMissed;
        long pastChecked;
        long pastHeld;
        long probes;
        long falsePositives;
        long newestChecked;
        long newestMissed;
    }

    @ParameterizedTest(name = "{0} x the rate, bursty {1}, L = {2}")
    @CsvSource({"0.5, false, 16", "1.0, false, 16", "1.0, true, 16", "1.0, false, 4", "1.0, true, 1",
        "2.0, false, 16", "2.0, false, 4", "4.0, false, 16", "2.0, true, 16",
        "0.5, false, 14", "1.0, false, 14", "1.0, true, 14", "2.0, false, 14", "4.0, false, 14", "2.0, true, 14"})
    void thePromiseHoldsUpToTheRate(final double rate, final boolean bursty, final int slices)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final Tally tally = new Tally();
        try (Fixture f = new Fixture(CAPACITY, slices, ERROR, true))
        {
            assertEquals(slices == 16 ? 1 : 2, AgedCuckooDefinition.layout(f.slots).bucketWords(), "the layout");
            final List<long[]> added = new ArrayList<>();
            final long perWindow = Math.round(rate * CAPACITY);
            long now = T0;
            for (long i = 0; now < T0 + 6 * WINDOW; i++)
            {
                now = bursty ? T0 + i / (perWindow / 2) * (WINDOW / 2 + 1) : T0 + i * WINDOW / perWindow;
                final long element = random.nextLong();
                if (!f.core.stream(element, now))
                {
                    added.add(new long[] {element, now});
                }
                if (i % 10 == 0 && !added.isEmpty()) // a recent element again: a duplicate, not a new one
                {
                    final long[] again = added.get(added.size() - 1 - random.nextInt(Math.min(added.size(), 50)));
                    if (now < again[1] + WINDOW)
                    {
                        tally.insideChecked++;
                        tally.insideMissed += f.core.stream(again[0], now) ? 0 : 1;
                    }
                }
                if (i % 401 == 0)
                {
                    check(f.core, added, now, slices, random, tally);
                }
            }
            final WindowSnapshot window = f.core.window();
            final String what = rate + " x the rate" + (bursty ? " in bursts" : "") + ", L = " + slices + ": " +
                tally.insideMissed + " of " + tally.insideChecked + " inside the window missed, " + f.core.failures() +
                " insert failures, " + window.recycledEarly() + " recycled early, " + window.timeTurns() +
                " turns by time, " + window.countTurns() + " by count, " + tally.falsePositives + " false positives in " +
                tally.probes + "; " + TestSeed.replayHint();
            if (rate <= 1.0)
            {
                assertEquals(0, tally.insideMissed, what);
                assertEquals(0, f.core.failures(), what);
                assertEquals(0, window.recycledEarly(), what);
                assertTrue(tally.falsePositives <= ERROR * tally.probes, what);
            }
            else
            {
                assertTrue(tally.insideMissed > 0, "the rate breaks the promise, so elements are missed: " + what);
                assertTrue(window.recycledEarly() > 0, "the oldest forgotten early: " + what);
                assertTrue(tally.newestChecked > 1000, tally.newestChecked + " checks of the newest n - c: " + what);
                assertEquals(0, tally.newestMissed, "of " + tally.newestChecked + " checks of the newest n - c: " +
                    what);
                assertEquals(0, f.core.failures(), "no insert failure: " + what);
            }
            if (rate < 1.0)
            {
                assertEquals(0, window.countTurns(), "below the rate every turn is by time: " + what);
            }
            assertTrue(tally.pastChecked > 1000, tally.pastChecked + " checks past the window");
            assertTrue(tally.pastHeld <= 2 * ERROR * tally.pastChecked, tally.pastHeld + " of " + tally.pastChecked +
                " elements past t + W + W/L still answered: " + what);
        }
    }

    /** Samples elements inside their window (each must answer), past t + W + W / L, and never added. */
    static void check(final AgedCuckooCore core, final List<long[]> added, final long now, final long slices,
        final SplittableRandom random, final Tally tally)
    {
        for (int i = 0; i < SAMPLE; i++)
        {
            final long[] e = added.get(i < SAMPLE / 2 ? added.size() - 1 - random.nextInt(Math.min(added.size(),
                500)) : random.nextInt(added.size()));
            if (now < e[1] + WINDOW)
            {
                tally.insideChecked++;
                tally.insideMissed += core.contains(e[0]) ? 0 : 1;
            }
            else if (now >= e[1] + WINDOW + WINDOW / slices)
            {
                tally.pastChecked++;
                tally.pastHeld += core.contains(e[0]) ? 1 : 0;
            }
        }
        final int newest = (int)(CAPACITY - CAPACITY / slices); // n - c: held whatever the rate (AgedForgetting)
        for (int i = 0; i < SAMPLE / 2 && newest > 0 && added.size() >= newest; i++)
        {
            tally.newestChecked++;
            tally.newestMissed += core.contains(added.get(added.size() - 1 - random.nextInt(newest))[0]) ? 0 : 1;
        }
        for (int i = 0; i < 4 * SAMPLE; i++)
        {
            tally.probes++;
            tally.falsePositives += core.contains(random.nextLong()) ? 1 : 0;
        }
    }

    /**
     * A generation's elements, then an idle of many times the stamps' cycle, then more than S turns of new elements:
     * when the stamp of the old generation comes round again, none of its entries is back (the turn found them
     * expired and swept, or swept them itself), checked at every turn.
     */
    @Test
    void aStampReusedAfterALongIdleBringsNothingBack()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (Fixture f = new Fixture(CAPACITY, 16, ERROR, true))
        {
            final long[] old = random.longs(CAPACITY / 2).toArray();
            for (final long e : old)
            {
                f.core.stream(e, T0);
            }
            final long slice = WINDOW / 16;
            long now = T0 + 1_000 * WINDOW;
            long held = 0;
            long checks = 0;
            for (int turn = 0; turn < 3 * f.core.stamps; turn++)
            {
                for (int i = 0; i < 50; i++)
                {
                    f.core.stream(random.nextLong(), now);
                }
                for (int i = 0; i < 200; i++)
                {
                    checks++;
                    held += f.core.contains(old[random.nextInt(old.length)]) ? 1 : 0;
                }
                now += slice;
            }
            assertTrue(f.core.window().timeTurns() >= 3L * f.core.stamps - 1, "every stamp reused");
            assertTrue(held <= 2 * ERROR * checks, held + " of " + checks + " checks of the old generation answered" +
                " after its stamp came round again; " + TestSeed.replayHint());
        }
    }
}
