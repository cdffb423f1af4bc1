package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.spi.WindowSnapshot;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The turn by time of a blocked fifo-bloom with a window (layout 2.1), on the core itself with an injected clock: a
 * generation cut short by time, before its sweep tickets came, leaves its slot partly stale, and that slot is sealed
 * when it is reused, so that the items of the use before do not come back when the slot's parity flips back; the
 * turn writes a slot's map at most, never its blocks; a jump of the clock over many slices is one turn and expires
 * every generation past its window; and each state a kill -9 leaves is recovered.
 */
class WindowedFifoRotationTest
{
    /** c per generation: 20,000 items, so B is in the hundreds and the sweep takes several tickets. */
    private static final long PER_GENERATION = 20_000;
    private static final int SLICES = 2;
    private static final int GENERATIONS = 2 * SLICES;
    private static final long WINDOW = 60_000;
    private static final long SLICE = WINDOW / SLICES;
    private static final long T0 = 1_700_000_000_000L;

    private static final class Fixture implements AutoCloseable
    {
        final BlockedBloomModel layer = BlockedBloomModel.generationLayer(PER_GENERATION, 0.01, GENERATIONS, -1);
        final DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(layer.blocks(), GENERATIONS) * 8);
        final DirectRegion header = new DirectRegion(64 * 8);
        final AtomicLong now = new AtomicLong(T0);
        final boolean owned;
        BlockedFifoCore core;

        Fixture(final boolean owned)
        {
            this.owned = owned;
            core = open();
        }

        BlockedFifoCore open()
        {
            return WindowedFifo.of(table.words(owned), header.words(owned), layer.blocks(),
                layer.hashFunctions(), layer.blocksPerItem(), PER_GENERATION, WINDOW, SLICES, now::get);
        }

        long state(final int word)
        {
            return header.words().getLongVolatile(word);
        }

        long sweepTickets()
        {
            return (layer.blocks() + BlockedFifoLayout.SWEEP_BLOCKS - 1) / BlockedFifoLayout.SWEEP_BLOCKS;
        }

        @Override
        public void close()
        {
            table.close();
            header.close();
        }
    }

    private static List<Long> streamNew(final BlockedFifoCore core, final SplittableRandom random, final long count)
    {
        final List<Long> items = new ArrayList<>();
        while (items.size() < count)
        {
            final long item = random.nextLong();
            if (!core.stream(item))
            {
                items.add(item);
            }
        }
        return items;
    }

    /**
     * Every generation gets fewer items than its sweep's tickets and turns by time; 2 L + 1 turns later each slot
     * has been reused with both parities. The items of a generation whose slot was reused must be gone (but for
     * false positives), those still within their window held.
     */
    @ParameterizedTest(name = "owned = {0}")
    @ValueSource(booleans = {false, true})
    void aSlotCutShortByTimeIsSealedSoItsOldItemsDoNotComeBack(final boolean owned)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (Fixture f = new Fixture(owned))
        {
            final long few = 3;
            assertTrue(few + 1 < f.sweepTickets(), "the sweep has " + f.sweepTickets() + " tickets");
            final List<List<Long>> byGeneration = new ArrayList<>();
            for (int g = 0; g < 3 * GENERATIONS; g++)
            {
                byGeneration.add(streamNew(f.core, random, few));
                assertEquals(g, f.state(BlockedFifoLayout.READY));
                f.now.addAndGet(SLICE); // the next call turns by time
            }
            f.core.stream(random.nextLong()); // turn to the last generation
            final long newest = f.state(BlockedFifoLayout.READY);
            assertEquals(3 * GENERATIONS, newest);
            assertTrue(f.state(BlockedFifoLayout.STALE) != 0, "slots cut short stay marked stale");
            final WindowSnapshot window = f.core.window();
            final long oldest = window.oldest();
            assertEquals(newest - SLICES, oldest, "a generation is answered until its start + T + W: L + 1 of them");
            long heldOld = 0;
            long oldChecked = 0;
            for (int g = 0; g < byGeneration.size(); g++)
            {
                for (final long item : byGeneration.get(g))
                {
                    if (g >= oldest)
                    {
                        assertTrue(f.core.contains(item), "item of generation " + g + " (still answered) is missing");
                    }
                    else
                    {
                        oldChecked++;
                        heldOld += f.core.contains(item) ? 1 : 0;
                    }
                }
            }
            assertEquals(0, heldOld, heldOld + " of " + oldChecked + " items of generations past their window are " +
                "answered (their slots' old bits came back); " + TestSeed.replayHint());
            assertEquals(3 * GENERATIONS, window.timeTurns());
            assertEquals(0, window.recycledEarly());
        }
    }

    /** A turn by time writes at most the reused slot's map (its seal) and the state words: never a slot's blocks. */
    @ParameterizedTest(name = "owned = {0}")
    @ValueSource(booleans = {false, true})
    void aTurnByTimeWritesAtMostTheReusedSlotsMap(final boolean owned)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (Fixture f = new Fixture(owned))
        {
            for (int g = 0; g < GENERATIONS; g++)
            {
                streamNew(f.core, random, 2);
                f.now.addAndGet(SLICE);
            }
            f.core.stream(random.nextLong()); // generation 2L: the first reuse, of a slot swept never
            streamNew(f.core, random, 2);
            f.now.addAndGet(SLICE);
            final long[] before = snapshot(f.table.words());
            final long item = random.nextLong();
            assertFalse(f.core.stream(item));
            final long[] after = snapshot(f.table.words());
            long changed = 0;
            final long maps = BlockedFifoLayout.mapsOffset(f.layer.blocks(), GENERATIONS);
            long changedBlocks = 0;
            for (int i = 0; i < before.length; i++)
            {
                if (before[i] != after[i])
                {
                    changed++;
                    changedBlocks += i < maps ? 1 : 0;
                }
            }
            final long mapWords = BlockedFifoLayout.mapWords(f.layer.blocks());
            // the seal (one slot's map), the sweep ticket of the turn (64 blocks and their states), the item
            assertTrue(changed <= mapWords + 8 * (BlockedFifoLayout.SWEEP_BLOCKS + 2) + 8, changed + " words changed");
            assertTrue(changedBlocks <= 8 * (BlockedFifoLayout.SWEEP_BLOCKS + 2), changedBlocks + " block words changed");
            assertTrue(f.core.contains(item));
        }
    }

    /**
     * The seal of a slot whose use ended stale is spread over the stream calls after that use ended ({@link FifoSeals}):
     * with enough calls between, the turn that reuses the slot reads and writes none of its map; with none, it seals
     * the slot itself. Either way no old item comes back (the first test).
     */
    @ParameterizedTest(name = "calls between turns = {0}")
    @ValueSource(ints = {0, 16})
    void theSealIsSpreadOverTheCallsBetweenTurns(final int callsBetween)
    {
        final long perGeneration = 8_000_000;
        final BlockedBloomModel layer = BlockedBloomModel.generationLayer(perGeneration, 0.01, GENERATIONS, -1);
        final long mapWords = (layer.blocks() + 31) / 32;
        assertTrue(mapWords > 8L * FifoSeals.CHUNK && mapWords < 16L * FifoSeals.CHUNK, mapWords + " map words");
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final AtomicLong now = new AtomicLong(T0);
        try (DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(layer.blocks(), GENERATIONS) * 8);
            DirectRegion header = new DirectRegion(64 * 8))
        {
            final BlockedFifoCore core = WindowedFifo.of(table.words(false), header.words(false),
                layer.blocks(), layer.hashFunctions(), layer.blocksPerItem(), perGeneration, WINDOW, SLICES, now::get);
            final long known = streamNew(core, random, 1).get(0);
            for (int turn = 1; turn <= 3 * GENERATIONS; turn++)
            {
                streamNew(core, random, 3);
                for (int i = 0; i < callsBetween; i++)
                {
                    core.stream(known); // a duplicate: its call seals a share all the same
                }
                now.addAndGet(SLICE);
                final long before = core.seals.turnWords();
                core.stream(random.nextLong()); // the turn
                final long sealed = core.seals.turnWords() - before;
                if (turn > 2 * GENERATIONS)
                {
                    // the reused slot's use ended stale: the calls since it ended sealed it, a chunk each (with none
                    // between, only the 3 new items' of each slice: the turn seals the rest itself)
                    final String what = "turn " + turn + " sealed " + sealed + " of " + mapWords + " map words " +
                        "itself, with " + callsBetween + " calls between turns";
                    assertTrue(callsBetween == 0 ? sealed > 0 && sealed <= mapWords - 3 * FifoSeals.CHUNK :
                        sealed == 0, what);
                }
            }
        }
    }

    /**
     * With a thread of its own doing the deferred work between turns ({@link BlockedFifoCore#doDeferredWork()}, here
     * the test's thread after each turn, as {@code internal.BackgroundSeals} does once woken), the turn that reuses a
     * slot whose use ended stale seals none of it itself, even with no calls between turns (where, without that
     * thread, the turn seals nearly the whole map: the test above); each turn that queues a seal wakes the thread,
     * the deferred work seals the whole map, and no item within its window is lost, none whose window ended comes back.
     */
    @ParameterizedTest(name = "owned = {0}")
    @ValueSource(booleans = {false, true})
    void theDeferredWorkSealsSoTheTurnNeedNot(final boolean owned)
    {
        final long perGeneration = 8_000_000;
        final BlockedBloomModel layer = BlockedBloomModel.generationLayer(perGeneration, 0.01, GENERATIONS, -1);
        final long mapWords = (layer.blocks() + 31) / 32;
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final AtomicLong now = new AtomicLong(T0);
        final AtomicLong wakes = new AtomicLong();
        try (DirectRegion table = new DirectRegion(BlockedFifoLayout.tableWords(layer.blocks(), GENERATIONS) * 8);
            DirectRegion header = new DirectRegion(64 * 8))
        {
            final BlockedFifoCore core = WindowedFifo.of(table.words(owned), header.words(owned),
                layer.blocks(), layer.hashFunctions(), layer.blocksPerItem(), perGeneration, WINDOW, SLICES, now::get);
            core.onDeferredWork(wakes::incrementAndGet);
            final List<List<Long>> byTurn = new ArrayList<>();
            for (int turn = 1; turn <= 3 * GENERATIONS; turn++)
            {
                byTurn.add(streamNew(core, random, 3));
                now.addAndGet(SLICE);
                final long wakesBefore = wakes.get();
                final long before = core.seals.turnWords();
                core.stream(random.nextLong()); // the turn
                assertEquals(0, core.seals.turnWords() - before, "turn " + turn + " sealed map words itself");
                long deferred = 0;
                for (long step = core.doDeferredWork(); step != BlockedFifoCore.NO_DEFERRED_WORK;
                    step = core.doDeferredWork())
                {
                    assertTrue(step > 0 && step <= FifoSeals.BACKGROUND_CHUNK, "step of " + step + " words");
                    deferred += step;
                }
                // from the turn that ends the first reuse of a slot on (turn 2L + 1), each turn queues a whole seal,
                // of which the turning call takes no share (its time is the turn's)
                assertEquals(turn > GENERATIONS ? mapWords : 0, deferred, "turn " + turn + "'s deferred seal");
                // every turn wakes the thread: for its seal, if any, and for the next turn's pages
                assertEquals(1, wakes.get() - wakesBefore, "turn " + turn + "'s wakes");
                for (int back = 0; back < byTurn.size(); back++)
                {
                    final int age = byTurn.size() - 1 - back; // slices since the items' generation ended
                    if (age < SLICES)
                    {
                        for (final long item : byTurn.get(back))
                        {
                            assertTrue(core.contains(item), "an item " + age + " slices old is forgotten");
                        }
                    }
                }
            }
            assertEquals(0, core.seals.turnWords(), "the turns sealed nothing themselves");
        }
    }

    /**
     * Once the seals are done, the deferred work readies the next turn's pages ({@link FifoSeals#prepareNextTurn}):
     * once per turn, the reused slot's map and first sweep range, a store into every 4 KiB page of them, changing no
     * word of the table (here in direct memory, where no page faults are to be seen: what is tested is which words are
     * touched, how often, and that the table is left as it was, with the slot still answered for its previous use).
     */
    @ParameterizedTest(name = "owned = {0}")
    @ValueSource(booleans = {false, true})
    void theNextTurnsPagesAreReadiedOncePerTurnChangingNothing(final boolean owned)
    {
        final long perGeneration = 8_000_000;
        final BlockedBloomModel layer = BlockedBloomModel.generationLayer(perGeneration, 0.01, GENERATIONS, -1);
        final long mapWords = (layer.blocks() + 31) / 32;
        final long sweepTickets = (layer.blocks() + BlockedFifoLayout.SWEEP_BLOCKS - 1) / BlockedFifoLayout.SWEEP_BLOCKS;
        final long firstSweepWords = (layer.blocks() + sweepTickets - 1) / sweepTickets * BlockedFifoLayout.BLOCK_WORDS;
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final AtomicLong now = new AtomicLong(T0);
        final long tableWords = BlockedFifoLayout.tableWords(layer.blocks(), GENERATIONS);
        try (DirectRegion table = new DirectRegion(tableWords * 8); DirectRegion header = new DirectRegion(64 * 8))
        {
            final MappedWords words = table.words(owned);
            final BlockedFifoCore core = WindowedFifo.of(words, header.words(owned), layer.blocks(),
                layer.hashFunctions(), layer.blocksPerItem(), perGeneration, WINDOW, SLICES, now::get);
            final List<List<Long>> byTurn = new ArrayList<>();
            for (int turn = 1; turn <= 3 * GENERATIONS; turn++)
            {
                byTurn.add(streamNew(core, random, 3));
                now.addAndGet(SLICE);
                core.stream(random.nextLong()); // the turn
                while (core.doDeferredWork() != BlockedFifoCore.NO_DEFERRED_WORK)
                {
                    Thread.onSpinWait(); // the seals first (no late claimer here: every step seals)
                }
                final long sum = sum(words, tableWords);
                // a page a 512 words, the ranges off page boundaries in direct memory: one more page each at most
                final long pages = core.prepareNextTurn();
                final long least = (mapWords + 511) / 512 + (firstSweepWords + 511) / 512;
                assertTrue(pages >= least && pages <= least + 2, "turn " + turn + " readied " + pages + " pages, " +
                    "the map's and the first sweep range's are " + least);
                assertEquals(0, core.prepareNextTurn(), "turn " + turn + ": readied twice");
                assertEquals(sum, sum(words, tableWords), "turn " + turn + ": the readying changed the table");
                for (final long item : byTurn.get(byTurn.size() - 1))
                {
                    assertTrue(core.contains(item), "turn " + turn + ": an item of the slice just ended is forgotten");
                }
            }
        }
    }

    /** @return a checksum of the words (position-dependent: a word moved or changed changes it). */
    private static long sum(final MappedWords words, final long count)
    {
        long sum = 0;
        for (long i = 0; i < count; i++)
        {
            sum = sum * 31 + words.getLongPlain(i);
        }
        return sum;
    }

    /** The clock jumps over many slices: one turn, every older generation expired, the new one aligned on T. */
    @ParameterizedTest(name = "owned = {0}")
    @ValueSource(booleans = {false, true})
    void aJumpOverManySlicesIsOneTurnAndExpiresEveryOlderGeneration(final boolean owned)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (Fixture f = new Fixture(owned))
        {
            final List<Long> first = streamNew(f.core, random, 100);
            f.now.addAndGet(SLICE + 5);
            final List<Long> second = streamNew(f.core, random, 100);
            assertEquals(1, f.state(BlockedFifoLayout.READY));
            f.now.addAndGet(10 * WINDOW + 7);
            final List<Long> third = streamNew(f.core, random, 1);
            assertEquals(2, f.state(BlockedFifoLayout.READY), "one turn for the whole jump");
            final long start = f.state(BlockedFifoLayout.START + 2);
            assertEquals(0, (start - T0) % SLICE, "aligned on the first generation's slices");
            assertTrue(start <= f.now.get() && f.now.get() < start + SLICE);
            assertEquals(2, f.core.window().oldest());
            assertEquals(2, f.core.window().expired());
            for (final long item : first)
            {
                assertFalse(f.core.contains(item));
            }
            for (final long item : second)
            {
                assertFalse(f.core.contains(item));
            }
            assertTrue(f.core.contains(third.get(0)));
        }
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
}
