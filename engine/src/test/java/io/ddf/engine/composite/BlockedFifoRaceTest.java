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
import java.util.concurrent.atomic.AtomicLong;
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
 * ({@link BlockedFifoProbe}) and the test thread turns the generations ({@link GenerationDriver}): by count
 * ({@link CountDriver}), and by time ({@link TimeDriver}: a filter with a window of time whose generations turn
 * with fewer new items than their sweep's tickets, sometimes over several slices at once, so that every slot is left
 * partly stale and sealed at its reuse), over the same scenarios.
 *
 * <p>Every scenario acknowledges items into the late thread's block in each generation it sleeps through, checks
 * that every item acknowledged in the newest L generations is held before letting it go, and again after. Parked at
 * {@link Point#ENTERING}, the thread is late by every rotation the test turns; parked within its claim (STATE_READ,
 * BEFORE_CLAIM) it holds back the rotation that recycles its slot, and the probe lets it go when that rotation waits
 * (as the scheduler would run it). The owned (single-writer) mode has no such race: its one writer cannot be late
 * for itself.
 *
 * <p>By time, L below is the window's 2 L' generations (L' = 1..3 slices) and the blocks are four times as many (the
 * sweep has 16 tickets, c of them, so a generation cut short by time is never swept whole); the checked items are
 * those the window still answers.
 *
 * <p>By time (a filter with a window of time, layout 2.1), each safeguard fails scenarios when removed: the rotation's
 * wait for the slot's claimers (64 fail: a late claim zeroes a block of generation g + L); the seal of a slot cut short
 * (18: blocks left ZEROING hang, or old bits come back); a counted claimer that gives up once READY passes g, the
 * count layout's rule (4 of those late by one rotation: its own item, in a generation still answered, lost); an
 * inserter late past g that sets its bits without claiming instead of taking a new ticket (4 of those parked at
 * ENTERING for one rotation, the same loss).
 *
 * <p>Before 0906f0e every scenario fails (the late claim zeroes the block of generation g + L or later); with
 * 0906f0e alone (READY read between the block's state and the claim) the BEFORE_CLAIM ones still fail: the state
 * word the thread compare-and-swaps comes back to the value it read once g + L makes the word's blocks live again.
 */
class BlockedFifoRaceTest
{
    /** B by count: four sweep tickets of 64 blocks, eight state words of 32 blocks. */
    private static final long BLOCKS = 256;
    /** B by time: 16 sweep tickets, as many as c, so a generation turned by time is never swept whole. */
    private static final long TIMED_BLOCKS = 1024;
    private static final int HASH_FUNCTIONS = 4;
    /** c: room for the sweep tickets and the items put into the late thread's block in each generation. */
    private static final long PER_GENERATION = 16;
    /** W / L of the windows of time. */
    private static final long SLICE = 1_000;
    /** Items acknowledged into the late thread's block in each generation it sleeps through. */
    private static final int BLOCK_ITEMS = 4;

    /** Which part of a stream is late. */
    enum Role
    {
        /** Its sweep ticket's share of the slot (ticket 0: the thread that rotated to g). */
        SWEEPER,
        /** The claim of its own item's block (ticket 1: the sweep is not done, its block is stale). */
        INSERTER
    }

    /** What turns the generations. */
    enum Turns
    {
        /** c new items ({@link CountDriver}). */
        BY_COUNT,
        /** W / L of time, before c new items came ({@link TimeDriver}). */
        BY_TIME
    }

    record Scenario(Turns turns, Role role, Point point, int generations, long generation, long lateness)
    {
        long blocks()
        {
            return turns == Turns.BY_TIME ? TIMED_BLOCKS : BLOCKS;
        }

        @Override
        public String toString()
        {
            return turns.name().toLowerCase().replace('_', ' ') + ", L = " + generations + ": " +
                role.name().toLowerCase() + " of generation " + generation + " parked at " + point + " for " +
                lateness + " rotations";
        }
    }

    static List<Scenario> scenarios()
    {
        final List<Scenario> scenarios = new ArrayList<>();
        for (final Turns turns : Turns.values())
        {
            addScenarios(scenarios, turns);
        }
        return scenarios;
    }

    private static void addScenarios(final List<Scenario> scenarios, final Turns turns)
    {
        for (final Role role : Role.values())
        {
            for (final Point point : List.of(Point.ENTERING, Point.STATE_READ, Point.BEFORE_CLAIM))
            {
                for (int n = 1; n <= 3; n++)
                {
                    final int l = turns == Turns.BY_TIME ? 2 * n : n; // by time: 2 L' generations of L' slices
                    // the slot's second and third uses (parity 1, then 0); late into its next use with the other
                    // parity (g + L, g + 3L) and, when g + L is still in the window, a rotation further
                    for (final long generation : new long[] {l, 2L * l})
                    {
                        if (l >= 2)
                        {
                            // late by one rotation: g is still answered, and so must the late thread's own item be
                            scenarios.add(new Scenario(turns, role, point, l, generation, 1));
                        }
                        scenarios.add(new Scenario(turns, role, point, l, generation, l));
                        if (l >= 2)
                        {
                            scenarios.add(new Scenario(turns, role, point, l, generation, l + 1));
                        }
                        scenarios.add(new Scenario(turns, role, point, l, generation, 3L * l));
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aClaimLateByRotationsErasesNoAcknowledgedItem(final Scenario scenario) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final long blocks = scenario.blocks();
        final long lateItem = itemIn(random, blocks / 2, blocks, blocks); // a block nothing else claims first
        final long block = scenario.role() == Role.SWEEPER ? 0 : block(lateItem, blocks);
        final long g = scenario.generation();
        final LateThreadProbe probe = new LateThreadProbe(scenario.point(), g, block);
        try (DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(blocks, scenario.generations()) * 8);
            DirectRegion header = new DirectRegion(64 * 8))
        {
            final GenerationDriver driver = driver(scenario, table, header, probe, random.nextLong());
            final BlockedFifoCore core = driver.core();
            driver.advanceTo(g, 0);
            if (scenario.role() == Role.INSERTER)
            {
                // rotates to g (by count its item's ticket, by time the call's turn) and sweeps share 0
                streamNewInto(driver, random, 0, BlockedFifoLayout.SWEEP_BLOCKS, blocks);
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
                driver.turnTo(next);
                for (int i = 0; i < BLOCK_ITEMS; i++)
                {
                    streamNewInto(driver, random, block, block + 1, blocks);
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

    /** A core of the scenario's kind over the regions, and its driver. */
    private static GenerationDriver driver(final Scenario scenario, final DirectRegion table,
        final DirectRegion header, final LateThreadProbe probe, final long seed)
    {
        final long blocks = scenario.blocks();
        if (scenario.turns() == Turns.BY_COUNT)
        {
            final BlockedFifoCore core = new BlockedFifoCore(table.words(false), header.words(false), blocks,
                HASH_FUNCTIONS, 1, scenario.generations(), PER_GENERATION, probe);
            return new CountDriver(core, header.words(), PER_GENERATION, blocks, scenario.generations(), seed);
        }
        final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
        final int slices = scenario.generations() / 2;
        final BlockedFifoCore core = new BlockedFifoCore(table.words(false), header.words(false), blocks,
            HASH_FUNCTIONS, 1, scenario.generations(), PER_GENERATION,
            new FifoWindow.Spec(slices * SLICE, slices, clock::get, false), probe);
        return new TimeDriver(core, header.words(), PER_GENERATION, SLICE, clock, seed);
    }

    /**
     * Every item acknowledged in a generation the filter still answers (by count the newest L, by time those within
     * their window) is held, some of them in the late thread's block.
     */
    private static void assertHeld(final BlockedFifoCore core, final GenerationDriver driver, final Scenario scenario,
        final long block, final String when)
    {
        final long newest = driver.newest();
        final long oldest = driver.oldestHeld();
        long inBlock = 0;
        for (final long[] acknowledged : driver.acknowledged())
        {
            if (acknowledged[1] >= oldest)
            {
                inBlock += block(acknowledged[0], scenario.blocks()) == block ? 1 : 0;
                if (!core.contains(acknowledged[0]))
                {
                    fail(String.format("%s: item %016x, acknowledged new in generation %d (block %d), is missing %s "
                        + "(newest generation %d); %s", scenario, acknowledged[0], acknowledged[1],
                        block(acknowledged[0], scenario.blocks()), when, newest, TestSeed.replayHint()));
                }
            }
        }
        assertTrue(inBlock >= BLOCK_ITEMS, inBlock + " items checked in the late thread's block");
    }

    /** Streams items of the given blocks until one is acknowledged new. */
    private static void streamNewInto(final GenerationDriver driver, final SplittableRandom random, final long from,
        final long to, final long blocks)
    {
        while (driver.stream(itemIn(random, from, to, blocks)))
        {
            Thread.onSpinWait(); // a false positive: another item
        }
    }

    private static long itemIn(final SplittableRandom random, final long from, final long to, final long blocks)
    {
        while (true)
        {
            final long item = random.nextLong();
            final long block = block(item, blocks);
            if (block >= from && block < to)
            {
                return item;
            }
        }
    }

    private static long block(final long item, final long blocks)
    {
        return BlockedBloom.block(item, 0, blocks);
    }
}
