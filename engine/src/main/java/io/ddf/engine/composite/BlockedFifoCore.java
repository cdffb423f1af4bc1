package io.ddf.engine.composite;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.spi.ChangeRecorder;
import io.ddf.engine.spi.LoggedCore;

import static io.ddf.engine.composite.BlockedFifoLayout.BLOCK_WORDS;
import static io.ddf.engine.composite.BlockedFifoLayout.INSERTIONS;
import static io.ddf.engine.composite.BlockedFifoLayout.READY;
import static io.ddf.engine.composite.BlockedFifoLayout.STATES_PER_WORD;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEEP_BLOCKS;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEEP_DONE;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEPT;
import static io.ddf.engine.composite.BlockedFifoLayout.ZEROING;

/**
 * The blocked fifo-bloom: L generations of B blocked-Bloom blocks ({@link BlockedBloom}), c new items each, used in
 * turn (the queuing construction counting only new items, as {@code window/QueueCore} in new-only mode). An item
 * has the same block and pattern in every generation, so a stream reads one cache line per generation (two for
 * d = 2): DUPLICATE iff some generation holds it, else it takes the next insertion ticket and is set in its
 * generation.
 *
 * <p>Rotation without a stall: the ticket g·c recycles slot g mod L by publishing g, which flips the slot's parity
 * and so makes all its blocks stale ({@link BlockedFifoLayout}) without writing them. A block is zeroed when an
 * item is first set in it, or by the sweep: the first c' = min(c, ⌈B/64⌉) tickets of a generation each zero up to
 * 64 blocks of its slot, so the slot is wholly live after c' insertions (SWEPT), and from then on nothing reads its
 * block-state map. Before that a lookup reads the block's state too (a second line, in a map 1/256 of the slot).
 * The rotating ticket first waits for the previous generation's sweep (in practice long done), so only the newest
 * slot is ever partly stale and a slot is wholly swept before its parity flips back.
 *
 * <p>Concurrency. Shared: one atomic add per new item for its ticket (an exact count decides the rotation: a
 * generation of more than c items breaks the false positive bound, one of fewer forgets before the capacity), a
 * compare-and-swap per word whose bits are missing, and per block zeroed a claim (state to ZEROING by
 * compare-and-swap; inserts into that block wait) and a publish (to LIVE); an insert while the slot is not wholly
 * live, and a sweep ticket, count themselves in and out of the slot's claimers (two atomic adds), for which the
 * rotation that recycles the slot waits, so that a claim late by a rotation or more never zeroes a newer
 * generation's block. Owned: the same steps as plain loads and release stores, no locked instruction. A stream is
 * atomic within a generation as a Bloom filter's is (two threads adding the same new item may both get UNSEEN); a
 * lookup racing a rotation may still see the recycled generation (it is then ordered before the rotation); a thread
 * stalled for L whole generations may set its bits in a recycled slot (a false positive later, never a lost item).
 *
 * <p>Crash safety (kill -9 at any point): every store is in the page cache. A rotation is the publish of READY, so a
 * kill between the ticket and the publish leaves READY behind; a kill mid-zeroing leaves a ZEROING state; a kill
 * mid-sweep leaves SWEEP_DONE short. {@link #recover()} makes every block of the newest slot (and of the previous
 * one, if its sweep is unfinished) live, zeroing those that are not, then publishes READY and SWEPT: no
 * acknowledged item is in a block that is not live (an insert first makes its block live), so nothing acknowledged
 * is lost, and a block left ZEROING held none.
 */
public final class BlockedFifoCore implements LoggedCore
{
    /** Bits of SWEEP_DONE that count; the rest name the generation. */
    private static final int COUNT_BITS = 30;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    final MappedWords table;
    final MappedWords state;
    final long blocks;
    private final int perBlock;
    final int blocksPerItem;
    final int generations;
    final long perGeneration;
    final long sweepTickets;
    private final long sweepBlocks;
    /** Single-writer mode: no thread waits for another (see {@link #awaitReady}). */
    private final boolean owned;
    /** Shared mode: the threads claiming stale blocks, per slot (see {@link #enterClaims}); null when owned. */
    private final SlotClaims claims;
    /** Test seam, null in production (see {@link BlockedFifoProbe}). */
    private final BlockedFifoProbe probe;
    /** Where FIFO_ADD and FIFO_TURN go (FORMAT-LOG.md), or null; set before the first stream. */
    private ChangeRecorder recorder;

    /**
     * @param table         the table, {@link BlockedFifoLayout#tableWords} words.
     * @param state         the header's state words.
     * @param blocks        B per generation.
     * @param hashFunctions k per item.
     * @param blocksPerItem d.
     * @param generations   L.
     * @param perGeneration c, new items per generation.
     */
    public BlockedFifoCore(final MappedWords table, final MappedWords state, final long blocks, final int hashFunctions,
        final int blocksPerItem, final int generations, final long perGeneration)
    {
        this(table, state, blocks, hashFunctions, blocksPerItem, generations, perGeneration, null);
    }

    /** A core whose claims of stale blocks report to a test's probe (null: none). */
    BlockedFifoCore(final MappedWords table, final MappedWords state, final long blocks, final int hashFunctions,
        final int blocksPerItem, final int generations, final long perGeneration, final BlockedFifoProbe probe)
    {
        this.probe = probe;
        this.table = table;
        this.state = state;
        this.blocks = blocks;
        this.perBlock = hashFunctions / blocksPerItem;
        this.blocksPerItem = blocksPerItem;
        this.generations = generations;
        this.perGeneration = perGeneration;
        this.sweepTickets = Math.min(perGeneration, (blocks + SWEEP_BLOCKS - 1) / SWEEP_BLOCKS);
        this.sweepBlocks = (blocks + sweepTickets - 1) / sweepTickets;
        this.owned = state.owned();
        this.claims = owned ? null : new SlotClaims(generations);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long b0 = BlockedBloom.block(hash, 0, blocks);
        final long x0 = BlockedBloom.pattern(hash, 0);
        final long b1 = blocksPerItem == 2 ? BlockedBloom.block(hash, 1, blocks) : -1;
        final long x1 = blocksPerItem == 2 ? BlockedBloom.pattern(hash, 1) : 0;
        if (anyContains(b0, x0, b1, x1))
        {
            return true;
        }
        final long ticket = state.getAndAddLong(INSERTIONS, 1);
        final long generation = ticket / perGeneration;
        final long offset = ticket - generation * perGeneration;
        if (generation > 0 && offset == 0)
        {
            rotate(generation);
        }
        else
        {
            awaitReady(generation);
        }
        final int slot = (int)(generation % generations);
        final boolean stale = generation >= generations && state.getLongVolatile(SWEPT) < generation;
        if (stale)
        {
            claimItemBlocks(generation, slot, b0, b1);
        }
        setAt(slot, b0, x0);
        if (b1 >= 0)
        {
            setAt(slot, b1, x1);
        }
        if (generation >= generations && offset < sweepTickets)
        {
            sweep(generation, offset);
        }
        if (recorder != null) // after the change (FORMAT-LOG.md): the ticket places it in its generation at replay
        {
            recorder.record(KindOps.FIFO_ADD, (int)(generation & 0x3F_FFFF), hash, ticket + 1);
        }
        return false;
    }

    @Override
    public void recordTo(final ChangeRecorder changes)
    {
        this.recorder = changes;
    }

    @Override
    public boolean replay(final int op, final int aux, final long hash, final long arg, final long[] more)
    {
        return BlockedFifoRecovery.replay(this, op, hash, arg);
    }

    @Override
    public boolean contains(final long hash)
    {
        final long b1 = blocksPerItem == 2 ? BlockedBloom.block(hash, 1, blocks) : -1;
        return anyContains(BlockedBloom.block(hash, 0, blocks), BlockedBloom.pattern(hash, 0), b1,
            b1 >= 0 ? BlockedBloom.pattern(hash, 1) : 0);
    }

    @Override
    public long touch(final long hash)
    {
        final long b0 = BlockedBloom.block(hash, 0, blocks) * BLOCK_WORDS;
        final long b1 = blocksPerItem == 2 ? BlockedBloom.block(hash, 1, blocks) * BLOCK_WORDS : -1;
        long sum = 0;
        for (int slot = 0; slot < generations; slot++)
        {
            final long base = BlockedFifoLayout.generationOffset(blocks, slot);
            sum += table.getLongPlain(base + b0);
            if (b1 >= 0)
            {
                sum += table.getLongPlain(base + b1);
            }
        }
        return sum;
    }

    /**
     * Whether some generation holds the item, as of the newest published generation: older slots are wholly live,
     * the newest is read through its block states until its sweep is done, slots not yet used are skipped.
     */
    private boolean anyContains(final long b0, final long x0, final long b1, final long x1)
    {
        final long newest = state.getLongVolatile(READY);
        final boolean stale = newest >= generations && state.getLongVolatile(SWEPT) < newest;
        final int newestSlot = (int)(newest % generations);
        final int used = (int)Math.min(generations, newest + 1);
        final int parity = BlockedFifoLayout.parity(newest, generations);
        for (int i = 0; i < used; i++)
        {
            final int slot = (newestSlot - i + generations) % generations;
            final boolean checkState = stale && i == 0;
            if (holds(slot, parity, checkState, b0, x0) && (b1 < 0 || holds(slot, parity, checkState, b1, x1)))
            {
                return true;
            }
        }
        return false;
    }

    private boolean holds(final int slot, final int parity, final boolean checkState, final long block,
        final long pattern)
    {
        if (checkState && blockState(slot, block) != parity)
        {
            return false;
        }
        return BlockedBloom.containsAt(table, BlockedFifoLayout.generationOffset(blocks, slot) + block * BLOCK_WORDS,
            pattern, perBlock);
    }

    void setAt(final int slot, final long block, final long pattern)
    {
        BlockedBloom.setAt(table, BlockedFifoLayout.generationOffset(blocks, slot) + block * BLOCK_WORDS, pattern,
            perBlock);
    }

    /**
     * An inserter's claim of its item's blocks while its generation's slot is not wholly live, as one of the slot's
     * claimers ({@link #enterClaims}). An inserter late past its generation claims nothing: its bits then go into a
     * block live for g, or for a newer generation (a false positive later, never a lost item).
     */
    private void claimItemBlocks(final long generation, final int slot, final long b0, final long b1)
    {
        if (probe != null)
        {
            probe.reached(BlockedFifoProbe.Point.ENTERING, generation, b0);
        }
        if (!enterClaims(slot, generation))
        {
            return;
        }
        try
        {
            final int parity = BlockedFifoLayout.parity(generation, generations);
            makeLive(generation, slot, parity, b0);
            if (b1 >= 0)
            {
                makeLive(generation, slot, parity, b1);
            }
        }
        finally
        {
            leaveClaims(slot);
        }
    }

    /**
     * Counts the thread among the slot's claimers (shared mode), then reads READY: past g, the thread is late and is
     * counted out at once. A thread so counted while READY is g holds back the rotation to g + L, which recycles the
     * slot ({@link #awaitClaimers}); one counted only after that rotation looked reads block states the sweep of g
     * already made live, so it claims nothing ({@link #makeLive}).
     *
     * @return whether the thread is counted in (then it calls {@link #leaveClaims}).
     */
    private boolean enterClaims(final int slot, final long generation)
    {
        if (claims != null)
        {
            claims.enter(slot);
        }
        if (state.getLongVolatile(READY) > generation)
        {
            leaveClaims(slot);
            return false;
        }
        return true;
    }

    private void leaveClaims(final int slot)
    {
        if (claims != null)
        {
            claims.leave(slot);
        }
    }

    private int blockState(final int slot, final long block)
    {
        final long word = table.getLongVolatile(mapWord(slot, block));
        return (int)(word >>> shift(block)) & 3;
    }

    private long mapWord(final int slot, final long block)
    {
        return BlockedFifoLayout.mapOffset(blocks, generations, slot) + block / STATES_PER_WORD;
    }

    private static int shift(final long block)
    {
        return (int)(block % STATES_PER_WORD) * 2;
    }

    /**
     * Makes a block live for the slot's current use: zeroes it first unless it is already, claiming it by its state
     * so that no insert sets a bit the zeroing would erase (inserts into a block being zeroed wait for it).
     *
     * <p>A caller late by a rotation or more (a sweeper or an inserter of generation g descheduled until READY passed
     * g) leaves a block it finds not live for g alone: by then g's slot was swept whole before g + 1 was published,
     * so a state other than g's parity can only be g + L's, live with newer items, which zeroing would erase. READY
     * is read after the block's state and before the claim. The claim's compare-and-swap alone would not close the
     * gap between the two: the state word the thread read comes back once g + L makes its blocks live again (ABA,
     * BlockedFifoRaceTest), so the claim is made by a counted claimer, whose count holds back that rotation
     * ({@link #enterClaims}).
     */
    private void makeLive(final long generation, final int slot, final int parity, final long block)
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
                return;
            }
            if (current == (ZEROING | parity) && !table.owned())
            {
                Thread.onSpinWait(); // another thread is zeroing it
                continue;
            }
            if (probe != null)
            {
                probe.reached(BlockedFifoProbe.Point.STATE_READ, generation, block);
            }
            if (state.getLongVolatile(READY) > generation)
            {
                return; // late: the slot is a newer generation's (above)
            }
            if (probe != null)
            {
                probe.reached(BlockedFifoProbe.Point.BEFORE_CLAIM, generation, block);
            }
            // stale, or (owned) ZEROING left by a misused second writer: no owner waits for a thread that may not
            // exist, it zeroes the block again
            if (table.compareAndSetLong(index, word, word & ~field | (long)(ZEROING | parity) << shift))
            {
                zeroBlock(slot, block);
                publishLive(index, field, (long)parity << shift);
                return;
            }
        }
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
     * Sweep ticket {@code offset} of a generation: makes its share of the slot's blocks live, then counts itself in
     * SWEEP_DONE, which names its generation (the top bits) so that a sweeper late past a rotation, whose share the
     * rotation has swept, cannot count toward the next generation's sweep.
     */
    private void sweep(final long generation, final long offset)
    {
        final int slot = (int)(generation % generations);
        final long first = offset * sweepBlocks;
        if (probe != null)
        {
            probe.reached(BlockedFifoProbe.Point.ENTERING, generation, first);
        }
        if (!enterClaims(slot, generation))
        {
            return; // the rotation that followed has swept this generation's slot
        }
        try
        {
            final int parity = BlockedFifoLayout.parity(generation, generations);
            final long end = Math.min(blocks, first + sweepBlocks);
            for (long block = first; block < end; block++)
            {
                makeLive(generation, slot, parity, block);
            }
        }
        finally
        {
            leaveClaims(slot);
        }
        final long tag = sweepTag(generation);
        while (true)
        {
            final long done = state.getLongVolatile(SWEEP_DONE);
            if ((done & ~COUNT_MASK) != tag)
            {
                return;
            }
            if (state.compareAndSetLong(SWEEP_DONE, done, done + 1))
            {
                if ((done & COUNT_MASK) + 1 == sweepTickets)
                {
                    publishSwept(generation);
                }
                return;
            }
        }
    }

    /** SWEEP_DONE's top bits for a generation: its low 34 bits (a sweeper is never 2^34 generations late). */
    static long sweepTag(final long generation)
    {
        return generation << COUNT_BITS;
    }

    void publishSwept(final long generation)
    {
        while (true)
        {
            final long swept = state.getLongVolatile(SWEPT);
            if (swept >= generation || state.compareAndSetLong(SWEPT, swept, generation))
            {
                return;
            }
        }
    }

    /**
     * The first ticket of generation g: waits for g − 1 to be published, finishes its sweep if a sweeper is late
     * (it nearly never is: the sweep ends c' of c tickets into the generation), then publishes g, which recycles
     * slot g mod L by flipping its parity: O(1), whatever the filter's size.
     */
    private void rotate(final long generation)
    {
        awaitReady(generation - 1);
        if (recorder != null) // before the publish: every add of g waits for it, so its record follows (replay clears)
        {
            recorder.record2(KindOps.FIFO_TURN, 0, generation * perGeneration, generation, System.currentTimeMillis(),
                0, 0, 0);
        }
        publish(generation);
    }

    /** The rotation's publish of g, once g − 1 is published. */
    void publish(final long generation)
    {
        if (generation - 1 >= generations && state.getLongVolatile(SWEPT) < generation - 1)
        {
            sweepSlot(generation - 1, false);
            publishSwept(generation - 1);
        }
        awaitClaimers(generation);
        state.putLongRelease(SWEEP_DONE, sweepTag(generation));
        state.putLongRelease(READY, generation);
    }

    /**
     * Shared: before g is published, recycling slot g mod L, waits for the threads still claiming blocks of the slot
     * for its previous use (counted while READY was g − L, then stalled inside a claim: in practice none, so this
     * is one read).
     */
    private void awaitClaimers(final long generation)
    {
        final int slot = (int)(generation % generations);
        if (claims == null || !claims.busy(slot))
        {
            return;
        }
        if (probe != null)
        {
            probe.reached(BlockedFifoProbe.Point.ROTATION_WAITS, generation, -1);
        }
        while (claims.busy(slot))
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Makes every block of a generation's slot live, skipping map words whose 32 blocks all are.
     *
     * @param exclusive true in {@link #recover()}: no other thread runs, so a ZEROING state is a killed process's
     *                  and is zeroed again rather than waited for.
     */
    void sweepSlot(final long generation, final boolean exclusive)
    {
        final int slot = (int)(generation % generations);
        final int parity = BlockedFifoLayout.parity(generation, generations);
        final long allLive = parity == 0 ? 0 : 0x5555_5555_5555_5555L;
        for (long block = 0; block < blocks; block += STATES_PER_WORD)
        {
            if (table.getLongVolatile(mapWord(slot, block)) == allLive)
            {
                continue;
            }
            final long end = Math.min(blocks, block + STATES_PER_WORD);
            for (long b = block; b < end; b++)
            {
                if (!exclusive)
                {
                    makeLive(generation, slot, parity, b);
                }
                else if (blockState(slot, b) != parity)
                {
                    zeroBlock(slot, b);
                    publishLive(mapWord(slot, b), 3L << shift(b), (long)parity << shift(b));
                }
            }
        }
    }

    /**
     * Shared: waits until the generation is published. Owned: the one writer always has, so a generation found
     * unpublished is a damaged header (two threads misusing the filter lost a ticket or put back an older READY, after
     * which each would wait forever for the other): the thread publishes it itself and goes on, losing updates at
     * worst, never hanging.
     */
    private void awaitReady(final long generation)
    {
        if (owned)
        {
            if (state.getLongVolatile(READY) < generation)
            {
                publish(generation);
            }
            return;
        }
        while (state.getLongVolatile(READY) < generation)
        {
            Thread.onSpinWait();
        }
    }

    /** Zeroes every block, map and state word: not atomic with respect to concurrent streams. */
    @Override
    public void clear()
    {
        table.clear();
        state.putLongRelease(SWEEP_DONE, 0);
        state.putLongRelease(SWEPT, 0);
        state.putLongRelease(READY, 0);
        state.putLongRelease(INSERTIONS, 0);
    }

    /**
     * Finishes what a killed process left: the sweep of the newest generation (and of the previous one, killed
     * between its ticket and its publish), zeroing each block that is not live (ZEROING ones included), then
     * publishes the newest generation as ready and swept. Costs a read of the slot's map, plus the zeroing the
     * sweep had left: nothing when the file was closed after its sweep, as it nearly always is.
     */
    @Override
    public void recover()
    {
        BlockedFifoRecovery.recover(this);
    }

    /**
     * @return the generation whose slot is being swept, or −1 when every slot is live (for tests and benchmarks
     *     that look at the lazy clearing).
     */
    public long sweeping()
    {
        final long newest = state.getLongVolatile(READY);
        return newest >= generations && state.getLongVolatile(SWEPT) < newest ? newest : -1;
    }
}
