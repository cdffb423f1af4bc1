package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.HangGuard;
import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The blocked fifo-bloom's rotation without a stall and its recovery, on the core itself (a table in direct memory):
 * the call that recycles a generation writes a bounded number of words, not the generation; the recycled items are
 * forgotten at once; the sweep makes the slot live within its c' tickets; and every state a kill -9 can leave (a
 * rotation claimed but not published, a block left ZEROING with garbage in it, a sweep cut short) is recovered with
 * no acknowledged item lost and no recycled one back.
 */
class BlockedFifoRotationTest
{
    /** c per generation: 20,000 items, so B is in the hundreds and the sweep takes several tickets. */
    private static final long PER_GENERATION = 20_000;
    private static final int GENERATIONS = 2;

    private static final class Fixture implements AutoCloseable
    {
        final BlockedBloomModel layer = BlockedBloomModel.generationLayer(PER_GENERATION, 0.01, GENERATIONS, -1);
        final DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(layer.blocks(), GENERATIONS) * 8);
        final DirectRegion header = new DirectRegion(64 * 8);
        final boolean owned;
        BlockedFifoCore core;

        Fixture(final boolean owned)
        {
            this.owned = owned;
            core = open();
        }

        /** A core over the same memory, as a process opening the file again would build it. */
        BlockedFifoCore open()
        {
            return new BlockedFifoCore(words(table), words(header), layer.blocks(), layer.hashFunctions(),
                layer.blocksPerItem(), GENERATIONS, PER_GENERATION);
        }

        MappedWords words(final DirectRegion region)
        {
            return region.words(owned);
        }

        long state(final int word)
        {
            return header.words().getLongVolatile(word);
        }

        @Override
        public void close()
        {
            table.close();
            header.close();
        }
    }

    /** Streams {@code count} new items, returning them; each must be judged UNSEEN unless a false positive. */
    private static long[] streamNew(final BlockedFifoCore core, final SplittableRandom random, final long count)
    {
        final long[] items = new long[(int)count];
        long inserted = 0;
        while (inserted < count)
        {
            final long item = random.nextLong();
            if (!core.stream(item))
            {
                items[(int)inserted++] = item;
            }
        }
        return items;
    }

    @ParameterizedTest(name = "owned {0}")
    @ValueSource(booleans = {false, true})
    void recyclingAGenerationWritesABoundedNumberOfWordsAndForgetsItAtOnce(final boolean owned)
    {
        try (Fixture f = new Fixture(owned))
        {
            final SplittableRandom random = TestSeed.splittable();
            final long[] oldest = streamNew(f.core, random, PER_GENERATION);
            final long[] newer = streamNew(f.core, random, PER_GENERATION);
            final long[] before = snapshot(f.table.words());
            final long[] first = streamNew(f.core, random, 1); // ticket 2c: recycles slot 0
            assertEquals(2, f.state(BlockedFifoLayout.READY));
            final long changed = changedWords(before, snapshot(f.table.words()));
            // its own block and the first sweep ticket's 64 blocks, and their state words: nothing like the
            // generation's B = f.layer.blocks() blocks
            assertTrue(changed <= 8 * (BlockedFifoLayout.SWEEP_BLOCKS + 1) + 8, changed + " words changed of " +
                8 * f.layer.blocks() + " in the generation");
            assertTrue(f.core.contains(first[0]));
            for (final long item : newer)
            {
                assertTrue(f.core.contains(item), "an item of the generation still held was lost");
            }
            long stillPresent = 0;
            for (final long item : oldest)
            {
                stillPresent += f.core.contains(item) ? 1 : 0;
            }
            // forgotten: present only as often as a never-added item would be (FPR of one full generation)
            assertTrue(stillPresent < 0.01 * PER_GENERATION, stillPresent + " of the recycled generation present");
        }
    }

    @ParameterizedTest(name = "owned {0}")
    @ValueSource(booleans = {false, true})
    void theSweepMakesTheSlotLiveWithinItsTickets(final boolean owned)
    {
        try (Fixture f = new Fixture(owned))
        {
            final SplittableRandom random = TestSeed.splittable();
            streamNew(f.core, random, 2 * PER_GENERATION + 1);
            assertEquals(2, f.core.sweeping());
            final long tickets = (f.layer.blocks() + BlockedFifoLayout.SWEEP_BLOCKS - 1) / BlockedFifoLayout.SWEEP_BLOCKS;
            streamNew(f.core, random, tickets - 1);
            assertEquals(-1, f.core.sweeping(), "swept after c' = " + tickets + " tickets");
            assertEquals(2, f.state(BlockedFifoLayout.SWEPT));
            final MappedWords table = f.table.words();
            final long map = BlockedFifoLayout.mapOffset(f.layer.blocks(), GENERATIONS, 0);
            for (long b = 0; b < f.layer.blocks(); b++)
            {
                assertEquals(1, (table.getLongVolatile(map + b / 32) >>> (2 * (b % 32))) & 3, "block " + b);
            }
        }
    }

    /** A kill between the ticket that rotates and its publish: READY behind the tickets. */
    @ParameterizedTest(name = "owned {0}")
    @ValueSource(booleans = {false, true})
    void recoverFinishesARotationClaimedButNotPublished(final boolean owned)
    {
        try (Fixture f = new Fixture(owned))
        {
            final SplittableRandom random = TestSeed.splittable();
            final long[] oldest = streamNew(f.core, random, PER_GENERATION);
            final long[] newer = streamNew(f.core, random, PER_GENERATION);
            f.header.words().putLongRelease(BlockedFifoLayout.INSERTIONS, 2 * PER_GENERATION + 1); // the claimed ticket
            final BlockedFifoCore reopened = f.open();
            reopened.recover();
            assertEquals(2, f.state(BlockedFifoLayout.READY));
            assertEquals(2, f.state(BlockedFifoLayout.SWEPT));
            assertEquals(-1, reopened.sweeping());
            for (final long item : newer)
            {
                assertTrue(reopened.contains(item), "an acknowledged item was lost");
            }
            long stillPresent = 0;
            for (final long item : oldest)
            {
                stillPresent += reopened.contains(item) ? 1 : 0;
            }
            assertTrue(stillPresent < 0.01 * PER_GENERATION, stillPresent + " of the recycled generation present");
            streamNew(reopened, random, 3 * PER_GENERATION); // rotates on: nothing waits for the dead process
            assertEquals(5, f.state(BlockedFifoLayout.READY));
        }
    }

    /** A kill mid-zeroing: a block left ZEROING with stale bits in it, the sweep's count short. */
    @ParameterizedTest(name = "owned {0}")
    @ValueSource(booleans = {false, true})
    void recoverZeroesABlockLeftZeroingAndFinishesTheSweep(final boolean owned)
    {
        try (Fixture f = new Fixture(owned))
        {
            final SplittableRandom random = TestSeed.splittable();
            streamNew(f.core, random, 2 * PER_GENERATION);
            final long[] acknowledged = streamNew(f.core, random, 1); // generation 2, sweep ticket 0 done
            final MappedWords table = f.table.words();
            final long blocks = f.layer.blocks();
            final long victim = blocks - 1; // beyond the first sweep ticket's blocks: still stale
            final long map = BlockedFifoLayout.mapOffset(blocks, GENERATIONS, 0) + victim / 32;
            final int shift = (int)(2 * (victim % 32));
            assertEquals(0, (table.getLongVolatile(map) >>> shift) & 3, "stale (LIVE(0) in a parity-1 use)");
            // the dead process had claimed it (ZEROING(1)) and zeroed half its words: the rest hold stale bits
            table.putLongRelease(map, table.getLongVolatile(map) & ~(3L << shift) | 3L << shift);
            for (int w = 0; w < 4; w++)
            {
                table.putLongRelease(victim * 8 + w, 0);
            }
            final BlockedFifoCore reopened = f.open();
            reopened.recover();
            assertEquals(-1, reopened.sweeping());
            assertEquals(1, (table.getLongVolatile(map) >>> shift) & 3, "live after recovery");
            for (int w = 0; w < 8; w++)
            {
                if (BlockedBloom.block(acknowledged[0], 0, blocks) != victim)
                {
                    assertEquals(0, table.getLongVolatile(victim * 8 + w), "word " + w + " of the zeroed block");
                }
            }
            assertTrue(reopened.contains(acknowledged[0]), "the acknowledged item was lost");
            assertFalse(hasAnyState(table, blocks, 0, 2) || hasAnyState(table, blocks, 0, 3), "a ZEROING state left");
        }
    }

    @Test
    void recoverOfANewFilterChangesNothing()
    {
        try (Fixture f = new Fixture(false))
        {
            f.core.recover();
            assertEquals(0, f.state(BlockedFifoLayout.INSERTIONS));
            assertEquals(0, changedWords(new long[(int)f.table.words().words()], snapshot(f.table.words())));
        }
    }

    private static boolean hasAnyState(final MappedWords table, final long blocks, final int slot, final int state)
    {
        final long map = BlockedFifoLayout.mapOffset(blocks, GENERATIONS, slot);
        for (long b = 0; b < blocks; b++)
        {
            if (((table.getLongVolatile(map + b / 32) >>> (2 * (b % 32))) & 3) == state)
            {
                return true;
            }
        }
        return false;
    }

    private static long[] snapshot(final MappedWords words)
    {
        final long[] copy = new long[(int)words.words()];
        for (int i = 0; i < copy.length; i++)
        {
            copy[i] = words.getLongPlain(i);
        }
        return copy;
    }

    private static long changedWords(final long[] before, final long[] after)
    {
        long changed = 0;
        for (int i = 0; i < before.length; i++)
        {
            changed += before[i] != after[i] ? 1 : 0;
        }
        return changed;
    }

    @Test
    void anOwnedFilterPublishesAGenerationAMisusingThreadPutBack() throws InterruptedException
    {
        final Fixture f = new Fixture(true);
        final SplittableRandom random = TestSeed.splittable();
        final long[] oldest = streamNew(f.core, random, PER_GENERATION);
        streamNew(f.core, random, PER_GENERATION + 3); // tickets up to 2c + 2: generation 2 published
        assertEquals(2, f.state(BlockedFifoLayout.READY));
        // Two threads misusing the owned filter: a stale release store put back generation 1. Each later item of
        // generation 2 used to wait for a publication no thread would make.
        f.header.words().putLongRelease(BlockedFifoLayout.READY, 1);
        final long[] added = new long[1];
        HangGuard.assertEnds("an owned filter's stream waits forever for a generation no thread publishes",
            () -> added[0] = streamNew(f.core, random, 1)[0], f);
        assertEquals(2, f.state(BlockedFifoLayout.READY), "the thread published generation 2 itself");
        assertTrue(f.core.contains(added[0]));
        long stillPresent = 0;
        for (final long item : oldest)
        {
            stillPresent += f.core.contains(item) ? 1 : 0;
        }
        assertTrue(stillPresent < 0.01 * PER_GENERATION, stillPresent + " of the recycled generation present");
        f.close();
    }
}
