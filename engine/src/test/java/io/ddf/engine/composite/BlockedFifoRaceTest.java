package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.composite.BlockedFifoProbe.Point;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The rotation race of issue 20, shown deterministically: a sweeper or an inserter of generation g (shared mode)
 * stopped in the claim of a stale block, while other threads turn the filter a rotation or more past g (to g + L
 * and later, when g's slot is in use again, live with newer acknowledged items), then let go. It must not erase
 * them. The thread is not descheduled by luck: {@link LateThreadProbe} parks it at a named point of the claim
 * ({@link BlockedFifoProbe}) and the test thread turns the generations ({@link GenerationDriver}, by count here; a
 * time-driven filter brings a driver of its own and runs the same scenarios).
 *
 * <p>Every scenario acknowledges items into the late thread's block in each generation it sleeps through, checks
 * that every item acknowledged in the newest L generations is held before letting it go, and again after. Parked at
 * {@link Point#ENTERING}, the thread is late by every rotation the test turns; parked within its claim (STATE_READ,
 * BEFORE_CLAIM) it holds back the rotation that recycles its slot, and the probe lets it go when that rotation waits
 * (as the scheduler would run it). The owned (single-writer) mode has no such race: its one writer cannot be late
 * for itself.
 *
 * <p>Before 0906f0e every scenario fails (the late claim zeroes the block of generation g + L or later); with
 * 0906f0e alone (READY read between the block's state and the claim) the BEFORE_CLAIM ones still fail: the state
 * word the thread compare-and-swaps comes back to the value it read once g + L makes the word's blocks live again.
 */
class BlockedFifoRaceTest
{
    /** B: four sweep tickets of 64 blocks, eight state words of 32 blocks. */
    private static final long BLOCKS = 256;
    private static final int HASH_FUNCTIONS = 4;
    /** c: room for the sweep tickets and the items put into the late thread's block in each generation. */
    private static final long PER_GENERATION = 16;
    private static final long SWEEP_TICKETS = Math.min(PER_GENERATION,
        (BLOCKS + BlockedFifoLayout.SWEEP_BLOCKS - 1) / BlockedFifoLayout.SWEEP_BLOCKS);
    /** Items acknowledged into the late thread's block in each generation it sleeps through. */
    private static final int BLOCK_ITEMS = 4;
    /** The late thread's own item is in a block of the last two state words, which nothing else claims first. */
    private static final long LATE_ITEM_BLOCKS = BLOCKS / 2;

    /** Which part of a stream is late. */
    enum Role
    {
        /** Its sweep ticket's share of the slot (ticket 0: the thread that rotated to g). */
        SWEEPER,
        /** The claim of its own item's block (ticket 1: the sweep is not done, its block is stale). */
        INSERTER
    }

    record Scenario(Role role, Point point, int generations, long generation, long lateness)
    {
        @Override
        public String toString()
        {
            return "L = " + generations + ": " + role.name().toLowerCase() + " of generation " + generation +
                " parked at " + point + " for " + lateness + " rotations";
        }
    }

    static List<Scenario> scenarios()
    {
        final List<Scenario> scenarios = new ArrayList<>();
        for (final Role role : Role.values())
        {
            for (final Point point : List.of(Point.ENTERING, Point.STATE_READ, Point.BEFORE_CLAIM))
            {
                for (int l = 1; l <= 3; l++)
                {
                    // the slot's second and third uses (parity 1, then 0); late into its next use with the other
                    // parity (g + L, g + 3L) and, when g + L is still in the window, a rotation further
                    for (final long generation : new long[] {l, 2L * l})
                    {
                        scenarios.add(new Scenario(role, point, l, generation, l));
                        if (l >= 2)
                        {
                            scenarios.add(new Scenario(role, point, l, generation, l + 1));
                        }
                        scenarios.add(new Scenario(role, point, l, generation, 3L * l));
                    }
                }
            }
        }
        return scenarios;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aClaimLateByRotationsErasesNoAcknowledgedItem(final Scenario scenario) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final long lateItem = itemIn(random, LATE_ITEM_BLOCKS, BLOCKS);
        final long block = scenario.role() == Role.SWEEPER ? 0 : block(lateItem);
        final long g = scenario.generation();
        final LateThreadProbe probe = new LateThreadProbe(scenario.point(), g, block);
        try (DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(BLOCKS, scenario.generations()) * 8);
            DirectRegion header = new DirectRegion(64 * 8))
        {
            final BlockedFifoCore core = new BlockedFifoCore(table.words(false), header.words(false), BLOCKS,
                HASH_FUNCTIONS, 1, scenario.generations(), PER_GENERATION, probe);
            final GenerationDriver driver = new CountDriver(core, header.words(), PER_GENERATION, random.nextLong());
            driver.advanceTo(g, 0);
            if (scenario.role() == Role.INSERTER)
            {
                streamNewInto(driver, random, 0, BlockedFifoLayout.SWEEP_BLOCKS); // rotates to g, sweeps share 0
            }
            final AtomicReference<Throwable> lateFailure = new AtomicReference<>();
            final Thread late = new Thread(() ->
            {
                try
                {
                    driver.stream(lateItem);
                }
                catch (final Throwable e)
                {
                    lateFailure.set(e);
                }
            }, "late-" + scenario.role().name().toLowerCase());
            probe.designate(late);
            late.setDaemon(true);
            late.start();
            probe.awaitParked();

            for (long next = g + 1; next <= g + scenario.lateness(); next++)
            {
                driver.advanceTo(next, SWEEP_TICKETS); // published, its slot wholly swept
                for (int i = 0; i < BLOCK_ITEMS; i++)
                {
                    streamNewInto(driver, random, block, block + 1);
                }
            }
            assertEquals(g + scenario.lateness(), driver.newest());
            assertHeld(core, driver, scenario, block, probe.heldBack() < 0 ? "before the late thread went on"
                : "once the rotation to generation " + probe.heldBack() + " had waited for the late thread");
            probe.release();
            late.join(10_000);
            assertFalse(late.isAlive(), "the late thread did not finish its stream");
            assertEquals(null, lateFailure.get());
            assertHeld(core, driver, scenario, block, "after the late thread went on" + (probe.heldBack() < 0 ? ""
                : " (the rotation to generation " + probe.heldBack() + " waited for it and let it go on)"));
        }
    }

    /** Every item acknowledged in the newest L generations is held, some of them in the late thread's block. */
    private static void assertHeld(final BlockedFifoCore core, final GenerationDriver driver, final Scenario scenario,
        final long block, final String when)
    {
        final long newest = driver.newest();
        long inBlock = 0;
        for (final long[] acknowledged : driver.acknowledged())
        {
            if (acknowledged[1] > newest - scenario.generations())
            {
                inBlock += block(acknowledged[0]) == block ? 1 : 0;
                if (!core.contains(acknowledged[0]))
                {
                    fail(String.format("%s: item %016x, acknowledged new in generation %d (block %d), is missing %s "
                        + "(newest generation %d); %s", scenario, acknowledged[0], acknowledged[1],
                        block(acknowledged[0]), when, newest, TestSeed.replayHint()));
                }
            }
        }
        assertTrue(inBlock >= BLOCK_ITEMS, inBlock + " items checked in the late thread's block");
    }

    /** Streams items of the given blocks until one is acknowledged new. */
    private static void streamNewInto(final GenerationDriver driver, final SplittableRandom random, final long from,
        final long to)
    {
        while (driver.stream(itemIn(random, from, to)))
        {
            Thread.onSpinWait(); // a false positive: another item
        }
    }

    private static long itemIn(final SplittableRandom random, final long from, final long to)
    {
        while (true)
        {
            final long item = random.nextLong();
            final long block = block(item);
            if (block >= from && block < to)
            {
                return item;
            }
        }
    }

    private static long block(final long item)
    {
        return BlockedBloom.block(item, 0, BLOCKS);
    }
}
