package io.ddf.engine.composite;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.memory.MappedWords;

import static io.ddf.engine.composite.BlockedFifoLayout.BLOCK_WORDS;
import static io.ddf.engine.composite.BlockedFifoLayout.STATES_PER_WORD;
import static io.ddf.engine.composite.BlockedFifoLayout.ZEROING;

/**
 * The blocks and block-state maps of a blocked fifo-bloom's generation slots ({@link BlockedFifoLayout}): reading and
 * setting an item's bits, reading a block's state, and the state changes of the lazy clearing (claim and zero a block,
 * sweep a slot, seal a slot). Which generation a caller acts for, and whether it may, is the core's business
 * ({@link BlockedFifoCore}); this class only names the slot, the parity of the slot's use and the block.
 *
 * <p>The states, 2 bits a block. Layout 2.0: LIVE(p) = p, ZEROING(p) = 2 | p (a claim in progress for a use of parity
 * p). Layout 2.1 (a window of time): LIVE(p) = p, {@link BlockedFifoLayout#CLAIMING} = 2 (a claim in progress, for the
 * slot's current use: the rotation that ends a use waits for its claimers, so none is ever older) and
 * {@link BlockedFifoLayout#DEAD} = 3 (stale for every use: what a seal leaves, so that the next seal of the slot rewrites
 * only the words a use made live since).
 */
final class FifoBlocks
{
    /** Both bits of every state of a map word. */
    private static final long LOW_BITS = 0x5555_5555_5555_5555L;

    private final MappedWords table;
    /** Layout 2.1's states (CLAIMING, DEAD) rather than 2.0's (ZEROING(p)). */
    private final boolean windowed;
    private final long blocks;
    private final int perBlock;
    private final int generations;
    /** Test seam, null in production (see {@link BlockedFifoProbe}). */
    private final BlockedFifoProbe probe;

    /**
     * @param table       the table, {@link BlockedFifoLayout#tableWords} words.
     * @param blocks      B per generation.
     * @param perBlock    bits an item sets in each of its blocks.
     * @param generations slots.
     * @param windowed    whether the states are layout 2.1's.
     * @param probe       a test's probe, or null.
     */
    FifoBlocks(final MappedWords table, final long blocks, final int perBlock, final int generations,
        final boolean windowed, final BlockedFifoProbe probe)
    {
        this.table = table;
        this.windowed = windowed;
        this.blocks = blocks;
        this.perBlock = perBlock;
        this.generations = generations;
        this.probe = probe;
    }

    /** Zeroes every block and map word: every block live for each slot's first use. */
    void clear()
    {
        table.clear();
    }

    /**
     * @return whether the slot holds the item's bits for a use of the given parity: all of them set, and (when the
     *     slot is not wholly live, checkState) the block live for that use.
     */
    boolean holds(final int slot, final int parity, final boolean checkState, final long block, final long pattern)
    {
        if (checkState && blockState(slot, block) != parity)
        {
            return false;
        }
        return BlockedBloom.containsAt(table, BlockedFifoLayout.generationOffset(blocks, slot) + block * BLOCK_WORDS,
            pattern, perBlock);
    }

    /** Sets the item's bits in a block of the slot. */
    void setAt(final int slot, final long block, final long pattern)
    {
        BlockedBloom.setAt(table, BlockedFifoLayout.generationOffset(blocks, slot) + block * BLOCK_WORDS, pattern,
            perBlock);
    }

    /** @return a plain read of the block's first word in the slot (a batch's touch ahead). */
    long touch(final int slot, final long blockWord)
    {
        return table.getLongPlain(BlockedFifoLayout.generationOffset(blocks, slot) + blockWord);
    }

    /** @return the sum of plain reads of an item's block words (b1 −1: one block) in every slot: a batch's touch. */
    long touchAll(final long b0Word, final long b1Word)
    {
        long sum = 0;
        for (int slot = 0; slot < generations; slot++)
        {
            sum += touch(slot, b0Word) + (b1Word >= 0 ? touch(slot, b1Word) : 0);
        }
        return sum;
    }

    int blockState(final int slot, final long block)
    {
        final long word = table.getLongVolatile(mapWord(slot, block));
        return (int)(word >>> shift(block)) & 3;
    }

    long mapWord(final int slot, final long block)
    {
        return BlockedFifoLayout.mapOffset(blocks, generations, slot) + block / STATES_PER_WORD;
    }

    private static int shift(final long block)
    {
        return (int)(block % STATES_PER_WORD) * 2;
    }

    /**
     * Makes a block live for the slot's use of the given parity: zeroes it first unless it is already, claiming it by
     * its state so that no insert sets a bit the zeroing would erase (inserts into a block being zeroed wait for it).
     *
     * <p>A caller the core finds late ({@code late}, read after the block's state and before the claim) leaves a block
     * it finds not live alone: the core says why that block can then only be a newer use's. The claim's
     * compare-and-swap alone would not close the gap between the two reads: the state word the thread read comes back
     * once a newer use makes its blocks live again (ABA, BlockedFifoRaceTest), so the core makes the claim as a counted
     * claimer, whose count holds back the rotation that recycles the slot.
     *
     * @param generation the generation the caller acts for (for the probe).
     * @param late       says, when asked, whether the caller is late for its generation's use of the slot.
     * @return whether the block is live for the use (false only when the caller was found late).
     */
    boolean makeLive(final long generation, final int slot, final int parity, final long block,
        final java.util.function.LongPredicate late)
    {
        final long index = mapWord(slot, block);
        final int shift = shift(block);
        final long field = 3L << shift;
        while (true)
        {
            final long word = table.getLongVolatile(index);
            final int current = (int)(word >>> shift) & 3;
            if (current == parity)
            {
                return true;
            }
            if (current == claiming(parity) && !table.owned())
            {
                Thread.onSpinWait(); // another thread is zeroing it
                continue;
            }
            if (probe != null)
            {
                probe.reached(BlockedFifoProbe.Point.STATE_READ, generation, block);
            }
            if (late.test(generation))
            {
                return false; // late: the slot is a newer use's (the core says why)
            }
            if (probe != null)
            {
                probe.reached(BlockedFifoProbe.Point.BEFORE_CLAIM, generation, block);
            }
            // stale, or (owned) ZEROING left by a misused second writer: no owner waits for a thread that may not
            // exist, it zeroes the block again
            if (table.compareAndSetLong(index, word, word & ~field | (long)claiming(parity) << shift))
            {
                zeroBlock(slot, block);
                publishLive(index, field, (long)parity << shift);
                return true;
            }
        }
    }

    /** @return the state of a block being zeroed for a use of the given parity. */
    private int claiming(final int parity)
    {
        return windowed ? BlockedFifoLayout.CLAIMING : ZEROING | parity;
    }

    private void zeroBlock(final int slot, final long block)
    {
        final long first = BlockedFifoLayout.generationOffset(blocks, slot) + block * BLOCK_WORDS;
        for (int i = 0; i < BLOCK_WORDS; i++)
        {
            table.putLongPlain(first + i, 0);
        }
    }

    /** Sets one state to LIVE: a compare-and-swap (owned: a release store after the zeroing's plain stores). */
    private void publishLive(final long index, final long field, final long live)
    {
        while (true)
        {
            final long word = table.getLongVolatile(index);
            if (table.compareAndSetLong(index, word, word & ~field | live))
            {
                return;
            }
        }
    }

    /**
     * Replay's clearing of a recycled slot (no other thread runs): every block zeroed and live for a use of the given
     * parity, whatever its state was.
     */
    void clearLive(final int slot, final int parity)
    {
        final long first = BlockedFifoLayout.generationOffset(blocks, slot);
        for (long i = 0; i < blocks * BLOCK_WORDS; i++)
        {
            table.putLongPlain(first + i, 0);
        }
        final long map = BlockedFifoLayout.mapOffset(blocks, generations, slot);
        final long live = parity == 0 ? 0 : LOW_BITS;
        for (long w = 0; w < (blocks + STATES_PER_WORD - 1) / STATES_PER_WORD; w++)
        {
            table.putLongRelease(map + w, live);
        }
    }

    /**
     * Makes every block of a slot live for a use of the given parity, skipping map words whose 32 blocks all are.
     *
     * @param exclusive true in recovery: no other thread runs, so a ZEROING state is a killed process's and is zeroed
     *                  again rather than waited for.
     * @param late      as for {@link #makeLive} (shared callers only).
     */
    void sweepSlot(final long generation, final int slot, final int parity, final boolean exclusive,
        final java.util.function.LongPredicate late)
    {
        sweepRange(generation, slot, parity, 0, blocks, exclusive, late);
    }

    /** {@link #sweepSlot} over blocks [from, to) of the slot. */
    void sweepRange(final long generation, final int slot, final int parity, final long from, final long to,
        final boolean exclusive, final java.util.function.LongPredicate late)
    {
        final long allLive = parity == 0 ? 0 : LOW_BITS;
        long block = from;
        while (block < to)
        {
            final long wordEnd = Math.min(to, (block / STATES_PER_WORD + 1) * STATES_PER_WORD);
            if (block % STATES_PER_WORD == 0 && wordEnd - block == STATES_PER_WORD &&
                table.getLongVolatile(mapWord(slot, block)) == allLive)
            {
                block = wordEnd;
                continue;
            }
            for (long b = block; b < wordEnd; b++)
            {
                if (!exclusive)
                {
                    makeLive(generation, slot, parity, b, late);
                }
                else if (blockState(slot, b) != parity)
                {
                    zeroBlock(slot, b);
                    publishLive(mapWord(slot, b), 3L << shift(b), (long)parity << shift(b));
                }
            }
            block = wordEnd;
        }
    }

    /**
     * Seals a slot (layout 2.1) whose use of the given parity ends before its sweep did: every block that is neither
     * live for that use nor DEAD is set DEAD, so that none reads as live for the slot's next use (the other parity)
     * with the bits of the use before (which a flip back to that parity would otherwise bring back). Writes the map
     * only, 2 bits a block, and only the words with a block the ending use's predecessor made live and the ending use
     * left alone (DEAD stays DEAD across uses): it reads the slot's map (a 256th of the slot) and writes little once a
     * slot has been sealed before. The caller makes sure no thread claims in the slot meanwhile (no claimer of the
     * ending use is counted, and the next use is not published); lookups of the ending use see no change (a block not
     * live for it stays so). The next use claims a DEAD block as any stale one. {@link FifoSeals} spreads it over calls,
     * a range of map words at a time.
     *
     * @param fromWord the first map word of the slot to seal.
     * @param toWord   past the last (at most the slot's map words, ⌈B / 32⌉).
     * @return map words written.
     */
    long seal(final int slot, final int parity, final long fromWord, final long toWord)
    {
        final long first = BlockedFifoLayout.mapOffset(blocks, generations, slot);
        final long words = (blocks + STATES_PER_WORD - 1) / STATES_PER_WORD;
        final long live = parity == 0 ? 0 : LOW_BITS;
        final int tail = (int)(blocks % STATES_PER_WORD);
        long written = 0;
        for (long i = fromWord; i < toWord; i++)
        {
            final long word = table.getLongPlain(first + i);
            long notLive = word ^ live;
            notLive = (notLive | notLive >>> 1) & LOW_BITS; // the low bit of each state that is not live
            if (i == words - 1 && tail != 0)
            {
                notLive &= (1L << 2 * tail) - 1; // states past the last block stay as they are
            }
            final long updated = word | notLive * BlockedFifoLayout.DEAD;
            if (updated != word)
            {
                table.putLongPlain(first + i, updated);
                written++;
            }
        }
        return written;
    }

    /**
     * Touches for write ({@link MappedWords#touchForWrite}) the slot's map and its first {@code firstWords} block
     * words, changing nothing: {@link FifoSeals#prepareNextTurn}.
     *
     * @return pages touched.
     */
    long prepareSlot(final int slot, final long firstWords)
    {
        return table.touchForWrite(BlockedFifoLayout.mapOffset(blocks, generations, slot),
            (blocks + STATES_PER_WORD - 1) / STATES_PER_WORD) +
            table.touchForWrite(BlockedFifoLayout.generationOffset(blocks, slot), firstWords);
    }

    /**
     * Recovery (layout 2.1): every block of the slot left CLAIMING (by a process killed mid-claim: no insert was
     * acknowledged into it) is zeroed and made live for the slot's use of the given parity.
     *
     * @return blocks repaired.
     */
    long repairClaims(final int slot, final int parity)
    {
        final long first = BlockedFifoLayout.mapOffset(blocks, generations, slot);
        final long words = (blocks + STATES_PER_WORD - 1) / STATES_PER_WORD;
        final long zeroing = BlockedFifoLayout.CLAIMING * LOW_BITS;
        long repaired = 0;
        for (long i = 0; i < words; i++)
        {
            long matches = table.getLongPlain(first + i) ^ zeroing;
            matches = ~(matches | matches >>> 1) & LOW_BITS; // the low bit of each state that is CLAIMING
            while (matches != 0)
            {
                final long block = i * STATES_PER_WORD + Long.numberOfTrailingZeros(matches) / 2;
                matches &= matches - 1;
                if (block < blocks)
                {
                    zeroBlock(slot, block);
                    publishLive(mapWord(slot, block), 3L << shift(block), (long)parity << shift(block));
                    repaired++;
                }
            }
        }
        return repaired;
    }
}
