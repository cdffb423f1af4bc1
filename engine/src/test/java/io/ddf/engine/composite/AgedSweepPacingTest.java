package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aged-cuckoo on the wall clock (a clock the test moves) begins a sweep pass only when a stamp one of the next turns
 * reuses needs one ({@link AgedCuckooCore#passDue}), not at every expiry: at the promised rate and at three times it
 * (forgetting early), with the insertions' steps as the only sweeper (no deferred-work thread), the passes stay few,
 * no turn has to sweep the whole table itself, and every element inside its window is found at the end.
 */
class AgedSweepPacingTest
{
    private static final long CAPACITY = 20_000;
    private static final long WINDOW = 100_000;
    private static final long T0 = 1_700_000_000_000L;

    @ParameterizedTest(name = "{0} x the promised rate")
    @ValueSource(ints = {1, 3})
    void passesBeginWhenAStampSoonReusedNeedsOne(final int rate)
    {
        final long[] now = {T0};
        final AgedCuckooDefinition definition = new AgedCuckooDefinition();
        final GivenParameters given = new GivenParameters();
        given.put("capacity", CAPACITY);
        given.put("window-ms", WINDOW);
        given.put("time-source", 0L);
        given.put("target-fpr", 0.01);
        final long[] slots = definition.resolve(given);
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (DirectRegion region = new DirectRegion(definition.tableBytes(slots)))
        {
            final FilterClock clock = () -> now[0];
            final AgedCuckooCore core = (AgedCuckooCore)definition.core(slots, region.words(false), null, clock);
            final long total = 40 * CAPACITY;
            final long[] recent = new long[(int)CAPACITY / 2];
            int kept = 0;
            long passes = 0;
            boolean sweeping = false;
            for (long i = 0; i < total; i++)
            {
                now[0] = T0 + i * WINDOW / (CAPACITY * rate);
                final long element = random.nextLong();
                // an element answered DUPLICATE (a false positive, about 1 %) was not added: its match may go
                if (!core.stream(element) && i >= total - recent.length)
                {
                    recent[kept++] = element;
                }
                final boolean under = core.state.getLongVolatile(AgedLayout.CURSOR) != 0;
                passes += sweeping && !under ? 1 : 0;
                sweeping = under;
            }
            final long generations = core.state.getLongVolatile(AgedLayout.READY);
            final String what = passes + " passes over " + generations + " generations, " +
                core.state.getLongVolatile(AgedLayout.TURN_SWEEPS) + " whole-table sweeps by turns, " +
                core.window() + "; " + TestSeed.replayHint();
            assertTrue(generations >= 35 * slots[AgedCuckooDefinition.SLICES], what);
            assertEquals(0, core.state.getLongVolatile(AgedLayout.TURN_SWEEPS), what);
            // when every expiry wanted a pass, the insertions' steps alone made one about every two generations (273 of
            // 560 here, both rates); paced, 67 and 54
            assertTrue(passes > 0 && passes <= generations / 6, what);
            assertTrue(kept > recent.length * 9 / 10, kept + " kept; " + what);
            for (int k = 0; k < kept; k++)
            {
                assertTrue(core.contains(recent[k]), "an element of the newest half capacity is gone: " + what);
            }
        }
    }
}
