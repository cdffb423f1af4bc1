package io.ddf.engine.composite;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.ChangeRecorder;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.LoggedCore;
import io.ddf.engine.spi.TimedCore;
import io.ddf.engine.spi.WindowSnapshot;

import java.util.function.LongPredicate;

import static io.ddf.engine.composite.BlockedFifoLayout.BLOCK_WORDS;
import static io.ddf.engine.composite.BlockedFifoLayout.DEADLINE;
import static io.ddf.engine.composite.BlockedFifoLayout.INSERTIONS;
import static io.ddf.engine.composite.BlockedFifoLayout.OLDEST;
import static io.ddf.engine.composite.BlockedFifoLayout.READY;
import static io.ddf.engine.composite.BlockedFifoLayout.STALE;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEEP_BLOCKS;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEEP_DONE;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEPT;

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
 * 64 blocks of its slot, so the slot is wholly live after c' insertions, and from then on nothing reads its
 * block-state map. Before that a lookup reads the block's state too (a second line, in a map 1/256 of the slot).
 *
 * <p>With a window of time (layout 2.1, {@link FifoWindow}) a generation also turns when W / L has passed: the turn
 * claims the next generation's first ticket (rounding the ticket counter up, so that generation = ticket / c stays
 * true) and takes the same rotation as a turn by count. Such a generation may end before its c' sweep tickets came;
 * its slot then stays partly stale (lookups read the states of every slot marked in {@link BlockedFifoLayout#STALE})
 * and is sealed when it is reused ({@link FifoBlocks#seal}: the map alone, 2 bits a block), instead of the count
 * layout's sweep of the rest of the slot at the turn (which would stall the turning call for the zeroing of a whole
 * generation). Without a window the rotating ticket finishes the previous generation's sweep if a sweeper is late
 * (nearly never), so only the newest slot is ever partly stale.
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
 * With a window, an inserter late past its generation takes a new ticket instead (its slot may be partly stale).
 *
 * <p>Crash safety (kill -9 at any point): every store is in the page cache. A rotation is the publish of READY, so a
 * kill between the ticket and the publish leaves READY behind; a kill mid-zeroing leaves a ZEROING state; a kill
 * mid-sweep leaves SWEEP_DONE short. {@link #recover()} repairs each ({@link FifoRecovery}); a power cut, the log.
 */
public final class BlockedFifoCore implements TimedCore, LoggedCore
{
    /** Bits of SWEEP_DONE that count; the rest name the generation. */
    static final int COUNT_BITS = 30;
    static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    final MappedWords state;
    final FifoBlocks slots;
    final long blocks;
    final int blocksPerItem;
    final int generations;
    final long perGeneration;
    private final long sweepTickets;
    private final long sweepBlocks;
    /** Single-writer mode: no thread waits for another (see {@link #awaitReady}). */
    private final boolean owned;
    /** The threads claiming stale blocks, per slot (shared mode). */
    private final SlotClaims claims;
    /** Test seam, null in production (see {@link BlockedFifoProbe}). */
    private final BlockedFifoProbe probe;
    /** The window of time, or null for a filter that forgets by count only. */
    final FifoWindow window;
    /** With a window, the seals of slots whose use ended stale, spread over the calls; else null. */
    final FifoSeals seals;
    /** The turn by time, as the window asks for it (one object, not one per call). */
    private final FifoWindow.Turner turner = this::turnByTime;
    /** Whether a claimer of generation g is late (the count layout: READY past g; with a window: never, counted). */
    final LongPredicate late;
    /** Where FIFO_ADD and FIFO_TURN go (FORMAT-LOG.md), or null; set before the first stream. */
    private ChangeRecorder recorder;
    /** Whether {@link #recover()} leaves the time passed while closed to {@link #openTime()} (a log's replay first). */
    private boolean openTimeDeferred;

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
        this(table, state, blocks, hashFunctions, blocksPerItem, generations, perGeneration, null, null);
    }

    /** A core whose claims of stale blocks report to a test's probe (null: none). */
    BlockedFifoCore(final MappedWords table, final MappedWords state, final long blocks, final int hashFunctions,
        final int blocksPerItem, final int generations, final long perGeneration, final BlockedFifoProbe probe)
    {
        this(table, state, blocks, hashFunctions, blocksPerItem, generations, perGeneration, null, probe);
    }

    /** A core with a window of time ({@code window}; null: it forgets by count only) and a test's probe (or null). */
    BlockedFifoCore(final MappedWords table, final MappedWords state, final long blocks, final int hashFunctions,
        final int blocksPerItem, final int generations, final long perGeneration, final FifoWindow.Spec window,
        final BlockedFifoProbe probe)
    {
        this.probe = probe;
        this.state = state;
        this.blocks = blocks;
        this.blocksPerItem = blocksPerItem;
        this.generations = generations;
        this.perGeneration = perGeneration;
        this.sweepTickets = Math.min(perGeneration, (blocks + SWEEP_BLOCKS - 1) / SWEEP_BLOCKS);
        this.sweepBlocks = (blocks + sweepTickets - 1) / sweepTickets;
        this.owned = state.owned();
        this.claims = new SlotClaims(generations, state, probe);
        this.slots = new FifoBlocks(table, blocks, hashFunctions / blocksPerItem, generations, window != null, probe);
        this.window = window == null ? null : new FifoWindow(state, window, generations);
        this.seals = window == null ? null : new FifoSeals(state, slots, claims, generations, blocks, sweepBlocks);
        this.late = window == null ? g -> state.getLongVolatile(READY) > g : g -> false;
    }

    @Override
    public boolean stream(final long hash)
    {
        return window == null ? streamAt(hash, FilterClock.NO_TIME) : stream(hash, window.now());
    }

    @Override
    public boolean stream(final long hash, final long time)
    {
        if (window != null)
        {
            if (time >= state.getLongVolatile(DEADLINE))
            {
                window.advance(time, turner); // no seal share in the call that may turn: its time is the turn's
            }
            else
            {
                seals.share();
            }
        }
        return streamAt(hash, time);
    }

    private boolean streamAt(final long hash, final long time)
    {
        final long b0 = BlockedBloom.block(hash, 0, blocks);
        final long x0 = BlockedBloom.pattern(hash, 0);
        final long b1 = blocksPerItem == 2 ? BlockedBloom.block(hash, 1, blocks) : -1;
        final long x1 = blocksPerItem == 2 ? BlockedBloom.pattern(hash, 1) : 0;
        if (anyContains(b0, x0, b1, x1, oldestAnswered()))
        {
            return true;
        }
        while (true)
        {
            final long ticket = state.getAndAddLong(INSERTIONS, 1);
            final long generation = ticket / perGeneration;
            final long offset = ticket - generation * perGeneration;
            if (generation > 0 && offset == 0)
            {
                rotate(generation, window == null ? 0 : window.countStart(generation - 1, time), false);
            }
            else
            {
                awaitReady(generation);
            }
            final int slot = (int)(generation % generations);
            if (slotStale(generation, slot) && !claimItemBlocks(generation, slot, b0, b1) && window != null)
            {
                continue; // late past its generation, whose slot may be partly stale: a newer generation takes it
            }
            slots.setAt(slot, b0, x0);
            if (b1 >= 0)
            {
                slots.setAt(slot, b1, x1);
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
    }

    @Override
    public boolean contains(final long hash)
    {
        long oldest = oldestAnswered();
        if (window != null)
        {
            final long time = window.now();
            if (time >= state.getLongVolatile(DEADLINE) && window.started())
            {
                oldest = window.visibleFrom(time); // what has expired by now, read only: a lookup changes nothing
                if (oldest > state.getLongVolatile(READY))
                {
                    return false; // idle past the newest generation's window: every item's window has passed
                }
            }
        }
        final long b1 = blocksPerItem == 2 ? BlockedBloom.block(hash, 1, blocks) : -1;
        return anyContains(BlockedBloom.block(hash, 0, blocks), BlockedBloom.pattern(hash, 0), b1,
            b1 >= 0 ? BlockedBloom.pattern(hash, 1) : 0, oldest);
    }

    @Override
    public long touch(final long hash)
    {
        return slots.touchAll(BlockedBloom.block(hash, 0, blocks) * BLOCK_WORDS,
            blocksPerItem == 2 ? BlockedBloom.block(hash, 1, blocks) * BLOCK_WORDS : -1);
    }

    /** @return the oldest generation a lookup reads: with a window, OLDEST (read before READY, so never past it). */
    private long oldestAnswered()
    {
        return window == null ? 0 : state.getLongVolatile(OLDEST);
    }

    /**
     * Whether some generation from {@code oldest} holds the item, as of the newest published generation: a slot whose
     * use is not wholly live is read through its block states (without a window only the newest can be), slots not
     * yet used are skipped.
     */
    private boolean anyContains(final long b0, final long x0, final long b1, final long x1, final long oldest)
    {
        final long newest = state.getLongVolatile(READY);
        final long staleSlots;
        if (window == null)
        {
            staleSlots = newest >= generations && state.getLongVolatile(SWEPT) < newest ? 1L << newest % generations :
                0;
        }
        else
        {
            staleSlots = state.getLongVolatile(STALE);
        }
        final int newestSlot = (int)(newest % generations);
        final int used = (int)Math.min(Math.min(generations, newest + 1), Math.max(1, newest - oldest + 1));
        for (int i = 0; i < used; i++)
        {
            final int slot = (newestSlot - i + generations) % generations;
            final boolean checkState = (staleSlots >>> slot & 1) != 0;
            final int parity = checkState ? BlockedFifoLayout.parity(newest - i, generations) : 0;
            if (slots.holds(slot, parity, checkState, b0, x0) && (b1 < 0 || slots.holds(slot, parity, checkState,
                b1, x1)))
            {
                return true;
            }
        }
        return false;
    }

    /** @return whether generation g's slot may hold blocks not yet live for it (its inserts claim their blocks). */
    boolean slotStale(final long generation, final int slot)
    {
        if (window == null)
        {
            return generation >= generations && state.getLongVolatile(SWEPT) < generation;
        }
        return (state.getLongVolatile(STALE) >>> slot & 1) != 0;
    }

    /**
     * An inserter's claim of its item's blocks while its generation's slot is not wholly live, as one of the slot's
     * claimers ({@link SlotClaims#enter}).
     *
     * @return false when the inserter is late past its generation and claimed nothing: without a window its bits then
     *     go into a block live for g, or for a newer generation (a false positive later, never a lost item); with a
     *     window the caller takes a new ticket.
     */
    private boolean claimItemBlocks(final long generation, final int slot, final long b0, final long b1)
    {
        if (probe != null)
        {
            probe.reached(BlockedFifoProbe.Point.ENTERING, generation, b0);
        }
        if (!claims.enter(slot, generation))
        {
            return false;
        }
        try
        {
            final int parity = BlockedFifoLayout.parity(generation, generations);
            slots.makeLive(generation, slot, parity, b0, late);
            if (b1 >= 0)
            {
                slots.makeLive(generation, slot, parity, b1, late);
            }
            return true;
        }
        finally
        {
            claims.leave(slot);
        }
    }

    /**
     * Sweep ticket {@code offset} of a generation: makes its share of the slot's blocks live, then counts itself in
     * SWEEP_DONE, which names its generation (the top bits) so that a sweeper late past a rotation, whose share the
     * rotation has swept, cannot count toward the next generation's sweep. The count and the sweep's end are made as
     * a claimer, so that the rotation which reuses the slot cannot come between them.
     */
    private void sweep(final long generation, final long offset)
    {
        final int slot = (int)(generation % generations);
        final long first = offset * sweepBlocks;
        if (probe != null)
        {
            probe.reached(BlockedFifoProbe.Point.ENTERING, generation, first);
        }
        if (!claims.enter(slot, generation))
        {
            return; // the rotation that followed has swept this generation's slot, or left it stale to be sealed
        }
        try
        {
            slots.sweepRange(generation, slot, BlockedFifoLayout.parity(generation, generations), first,
                Math.min(blocks, first + sweepBlocks), false, late);
            countSweep(generation);
        }
        finally
        {
            claims.leave(slot);
        }
    }

    private void countSweep(final long generation)
    {
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

    /** Marks a generation's slot wholly live: SWEPT (count layout), or its STALE bit cleared (with a window). */
    void publishSwept(final long generation)
    {
        if (window != null)
        {
            window.markStale((int)(generation % generations), false);
            return;
        }
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
     * The first ticket of generation g (claimed by a new item, or by a turn by time): waits for g − 1 to be published,
     * then publishes g, which recycles slot g mod L by flipping its parity: O(1) without a window (after finishing the
     * previous sweep if a sweeper is late, which it nearly never is), with a window at most a seal of the slot's map.
     *
     * @param start  the new generation's start (with a window).
     * @param byTime whether a turn by time claimed the ticket.
     */
    private void rotate(final long generation, final long start, final boolean byTime)
    {
        awaitReady(generation - 1);
        if (recorder != null) // before the publish: every add of g waits for it, so its record follows (replay clears)
        {
            recorder.record2(KindOps.FIFO_TURN, 0, generation * perGeneration, generation, window == null ?
                System.currentTimeMillis() : start, byTime ? 1 : 0, 0, 0);
        }
        publish(generation, start, byTime);
    }

    @Override
    public void recordTo(final ChangeRecorder changes)
    {
        recorder = changes;
    }

    @Override
    public boolean replay(final int op, final int aux, final long hash, final long arg, final long[] more)
    {
        return BlockedFifoRecovery.replay(this, op, hash, arg, more);
    }

    /** The rotation's publish of g, once g − 1 is published. */
    void publish(final long generation, final long start, final boolean byTime)
    {
        final int slot = (int)(generation % generations);
        if (window == null && generation - 1 >= generations && state.getLongVolatile(SWEPT) < generation - 1)
        {
            final long previous = generation - 1;
            slots.sweepSlot(previous, (int)(previous % generations), BlockedFifoLayout.parity(previous, generations),
                false, late);
            publishSwept(previous);
        }
        claims.awaitFree(generation);
        if (window != null)
        {
            seals.turning(generation); // the reused slot sealed if its use ended stale, the ending one queued
            if (generation >= generations)
            {
                window.markStale(slot, true);
            }
            window.beforePublish(generation, start, byTime);
        }
        state.putLongRelease(SWEEP_DONE, sweepTag(generation));
        state.putLongRelease(READY, generation);
        if (window != null)
        {
            window.afterPublish(generation);
            seals.afterTurn(); // the filter's sealing thread, if it has one, takes the seal this turn queued
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
                publishUnpublished(generation);
            }
            return;
        }
        while (state.getLongVolatile(READY) < generation)
        {
            Thread.onSpinWait();
        }
    }

    /** Publishes a generation (awaitReady's in owned mode; recovery's, no item acknowledged in it), at the count. */
    void publishUnpublished(final long generation)
    {
        publish(generation, window == null ? 0 : window.countStart(generation - 1, FilterClock.NO_TIME), false);
    }

    /**
     * Claims generation newest + 1's first ticket and rotates to it, unless another thread holds that ticket already
     * (a turn by count, or by time, in flight), whose publish it then waits for. Rounds the ticket counter up from
     * wherever the newest generation's items left it: the tickets skipped are never issued.
     */
    private void turnByTime(final long newest, final long start)
    {
        final long next = newest + 1;
        final long first = next * perGeneration;
        while (true)
        {
            final long claimed = state.getLongVolatile(INSERTIONS);
            if (claimed > first)
            {
                awaitReady(next);
                return;
            }
            if (state.compareAndSetLong(INSERTIONS, claimed, first + 1))
            {
                rotate(next, start, true);
                if (next >= generations && sweepTickets > 0)
                {
                    sweep(next, 0); // the turn's ticket is the first sweep ticket, as a rotating item's is
                }
                return;
            }
        }
    }

    /** Zeroes every block, map and state word: not atomic with respect to concurrent streams. */
    @Override
    public void clear()
    {
        slots.clear();
        if (window != null)
        {
            state.clear(); // every time word too: the filter's time starts again with its next call
            return;
        }
        state.putLongRelease(SWEEP_DONE, 0);
        state.putLongRelease(SWEPT, 0);
        state.putLongRelease(READY, 0);
        state.putLongRelease(INSERTIONS, 0);
    }

    /**
     * Finishes what a killed process left (see {@link FifoRecovery}), then, for a filter with a window of time on the
     * wall clock, applies the time that passed while the file was closed: the generations whose window ended
     * meanwhile are no longer answered, and {@link #window()} says how many and since when.
     */
    @Override
    public void recover()
    {
        new FifoRecovery(this, state, slots, window, generations, perGeneration, sweepTickets, sweepBlocks,
            blocks).run();
        if (!openTimeDeferred)
        {
            openTime();
        }
    }

    @Override
    public void deferOpenTime()
    {
        openTimeDeferred = true;
    }

    @Override
    public void openTime()
    {
        if (window != null)
        {
            seals.opened(state.getLongVolatile(READY));
            window.open(turner);
        }
    }

    @Override
    public void onDeferredWork(final Runnable wake)
    {
        if (seals != null)
        {
            seals.wakeWith(wake);
        }
    }

    @Override // a step of the seals of slots whose use ended stale (FifoSeals.background)
    public long doDeferredWork()
    {
        return seals == null ? NO_DEFERRED_WORK : seals.background();
    }

    @Override // the next turn's pages faulted in writable (FifoSeals.prepareNextTurn)
    public long prepareNextTurn()
    {
        return seals == null ? 0 : seals.prepareNextTurn();
    }

    @Override
    public boolean windowed()
    {
        return window != null;
    }

    @Override
    public WindowSnapshot window()
    {
        return window == null ? null : window.snapshot();
    }

    /** @return the generation whose slot is being swept (the newest if partly stale), or −1: tests, benchmarks. */
    public long sweeping()
    {
        final long newest = state.getLongVolatile(READY);
        return slotStale(newest, (int)(newest % generations)) ? newest : -1;
    }
}
