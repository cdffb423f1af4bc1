package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.ddf.engine.composite.AgedCuckooPromiseTest.CAPACITY;
import static io.ddf.engine.composite.AgedCuckooPromiseTest.T0;
import static io.ddf.engine.composite.AgedCuckooPromiseTest.WINDOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a kill -9 can leave in an aged-cuckoo region, written into it as the killed process would have left it, and
 * {@code recover()}'s repair: the table and sweep locks held (mid-relocation, mid-sweep step), and a turn by count
 * whose ticket was claimed but whose generation was never published. After recover() the structure check passes,
 * every element added before is still answered, and streaming goes on (the next turn included).
 */
class AgedCuckooRecoveryTest
{
    @Test
    void locksHeldAndAnUnpublishedTurnAreRepaired()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (AgedCuckooPromiseTest.Fixture f = new AgedCuckooPromiseTest.Fixture(CAPACITY, 16, 0.01, true))
        {
            final long[] streamed = random.longs(CAPACITY / 2).toArray();
            final java.util.List<Long> unseen = new java.util.ArrayList<>();
            long time = T0;
            for (final long e : streamed)
            {
                if (!f.core.stream(e, time)) // a false positive is never added
                {
                    unseen.add(e);
                }
                time += WINDOW / CAPACITY;
            }
            assertTrue(unseen.size() > CAPACITY / 3);
            final long[] added = unseen.stream().mapToLong(Long::longValue).toArray();
            final MappedWords words = f.region.words(true);
            final long ready = words.getLongVolatile(AgedLayout.READY);
            // killed mid-relocation (the lock held), mid-sweep step, and between a turn's ticket and its publish
            words.putLongRelease(AgedLayout.LOCK, words.getLongVolatile(AgedLayout.LOCK) | 1);
            words.putLongRelease(AgedLayout.SWEEPING, 1);
            words.putLongRelease(AgedLayout.INSERTIONS, (ready + 1) * f.core.perGeneration + 1);
            final AgedCuckooCore reopened = (AgedCuckooCore)new AgedCuckooDefinition().core(f.slots,
                f.region.words(true), null, io.ddf.engine.spi.FilterClock.NONE);
            reopened.recover();
            new AgedCuckooDefinition().checkStructure(f.slots, f.region.words(true), null);
            assertEquals(0, words.getLongVolatile(AgedLayout.LOCK) & 1, "table lock released");
            assertEquals(0, words.getLongVolatile(AgedLayout.SWEEPING), "sweep lock released");
            assertEquals(ready + 1, words.getLongVolatile(AgedLayout.READY), "the claimed turn published");
            long missing = 0;
            for (final long e : added)
            {
                missing += reopened.contains(e) ? 0 : 1;
            }
            assertEquals(0, missing, "elements added before the kill; " + TestSeed.replayHint());
            for (int i = 0; i < 2 * CAPACITY / 16; i++) // past the next turn by count
            {
                reopened.stream(random.nextLong(), time);
            }
            assertTrue(reopened.window().newest() > ready + 1, "turns go on: " + reopened.window());
            assertTrue(reopened.stream(added[added.length - 1], time), "still a duplicate");
        }
    }
}
