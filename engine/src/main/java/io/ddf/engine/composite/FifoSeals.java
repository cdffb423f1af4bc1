package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.ddf.engine.composite.BlockedFifoLayout.READY;
import static io.ddf.engine.composite.BlockedFifoLayout.STALE;
import static io.ddf.engine.composite.BlockedFifoLayout.STATES_PER_WORD;

/**
 * The seals of a blocked fifo-bloom with a window of time (layout 2.1, {@link FifoBlocks#seal}), spread over the
 * calls: a slot whose use g ends before its sweep did must be sealed before its reuse, 2L turns later, and sealing it
 * reads its whole map (a 256th of the slot: 3.4 MB at a capacity of 10^9). Done in the turn that reuses the slot,
 * that read stalls the turning call (about 1 ms at 10^9); instead, from the turn that ends g on, each stream call seals
 * {@link #CHUNK} map words of the pending slots, and the turn that reuses the slot seals only what is left (nothing,
 * unless fewer calls than the map's pages came in between: about 830 at 10^9).
 *
 * <p>A nearly idle filter has too few calls for that: the turn would seal most of the slot itself (1 ms of CPU at
 * 10^9 on a quiet machine, 4–5 ms on a loaded one; bench/results/window). So the filter that holds the core hands
 * the seals to a thread of its own as well ({@link #wakeWith}, {@code internal.BackgroundSeals}): each turn that
 * leaves a slot pending wakes it, and it seals {@link #BACKGROUND_CHUNK} words a step, between the calls, while the
 * slot waits for its reuse 2L − 1 slices later. The turn seals only what the thread has not reached by then (with a
 * window of time on the wall clock: nothing, unless slices are milliseconds long; with event time that jumps by
 * slices within milliseconds, the rest). A turn that finds the thread in the middle of a step waits for that step,
 * and for the thread itself when it was preempted there: on a loaded machine, milliseconds now and then in that case
 * (bench/results/window; a seal without the lock would need compare-and-swaps that a claim of the new use restoring
 * the word read, an ABA, defeats).
 *
 * <p>Safe to seal once g has ended (READY past g: no new claim for g can start) and the slot's claimers of g have
 * left; a seal only turns states that are not live for g into DEAD, so lookups of g see no change. One sealer at a
 * time ({@link #lock}), the turn that reuses a slot among them, so that no chunk of g's seal lands after the slot's
 * next use began: a real lock in both modes (an owned filter's thread and the filter's sealing thread are two
 * threads), taken by a stream call only while a seal is pending and by a turn. The progress is process memory: an
 * open marks every stale slot but the newest's as pending from its start (a seal done twice changes nothing).
 */
final class FifoSeals
{
    /** Map words sealed by one call: a 4 KiB page. */
    static final int CHUNK = 512;
    /** Map words sealed by one step of the filter's sealing thread: 64 KiB, tens of µs (what a turn may wait for). */
    static final int BACKGROUND_CHUNK = 8192;
    /** Spins on the lock before each yield of the processor. */
    private static final int SPINS_BEFORE_YIELD = 1000;
    /** What {@link #background()} returns when no seal is pending. */
    static final long NONE = -1;

    private final MappedWords state;
    private final FifoBlocks slots;
    private final SlotClaims claims;
    private final int generations;
    private final long mapWords;
    /** Words of a slot's first sweep range: what the turning call sweeps (it holds the first sweep ticket). */
    private final long firstSweepWords;
    /** The generation whose turn's pages {@link #prepareNextTurn} has touched last, or −1. */
    private volatile long prepared = -1;
    /** Per slot: the use being sealed (its generation), or −1. */
    private final long[] pending;
    /** Per slot: the next map word to seal for it. */
    private final long[] cursor;
    /** Per slot: the use whose seal is done, or −1. */
    private final long[] sealed;
    private final AtomicBoolean sealing = new AtomicBoolean();
    /** What a turn that leaves a seal pending calls (the filter's sealing thread's wake-up), or null. */
    private volatile Runnable wake;
    /** Whether some slot is pending: the one field a stream call reads here. */
    private volatile boolean work;
    /** Map words the turns sealed themselves (read under the lock; for tests and benchmarks). */
    private long turnWords;

    FifoSeals(final MappedWords state, final FifoBlocks slots, final SlotClaims claims, final int generations,
        final long blocks, final long sweepBlocks)
    {
        this.firstSweepWords = Math.min(blocks, sweepBlocks) * BlockedFifoLayout.BLOCK_WORDS;
        this.state = state;
        this.slots = slots;
        this.claims = claims;
        this.generations = generations;
        this.mapWords = (blocks + STATES_PER_WORD - 1) / STATES_PER_WORD;
        this.pending = new long[generations];
        this.cursor = new long[generations];
        this.sealed = new long[generations];
        Arrays.fill(pending, -1);
        Arrays.fill(sealed, -1);
    }

    /** A stream call's share: a chunk of some pending seal, if any and if no other thread is sealing. */
    void share()
    {
        if (work && lock(false))
        {
            try
            {
                sealOldest(CHUNK);
            }
            finally
            {
                unlock();
            }
        }
    }

    /**
     * A step of the filter's sealing thread: a chunk of the oldest pending seal (waiting for the lock, which a turn
     * or a stream call holds for a chunk at most).
     *
     * @return map words sealed (0: a seal is pending but cannot be done yet, its slot's late claimers still in), or
     *     {@link #NONE} when no seal is pending.
     */
    long background()
    {
        if (!work)
        {
            return NONE;
        }
        lock(true);
        try
        {
            return sealOldest(BACKGROUND_CHUNK);
        }
        finally
        {
            unlock();
        }
    }

    /** @param wake what a turn that leaves a seal pending calls from now on (it must not block), or null. */
    void wakeWith(final Runnable wake)
    {
        this.wake = wake;
        if (wake != null && work)
        {
            wake.run(); // an open's pending seals
        }
    }

    /**
     * After a turn's publish: wakes the sealing thread, for the seal the turn queued (if any) and for the next turn's
     * pages ({@link #prepareNextTurn}).
     */
    void afterTurn()
    {
        final Runnable w = wake;
        if (w != null)
        {
            w.run();
        }
    }

    /**
     * The sealing thread's work once no seal is pending, once per turn: takes the write faults of the pages the next
     * turn's call stores into whatever its item, so that the turn does not: the reused slot's map, of which any claim
     * of the new use writes a word (3.3 MB at 10^9: 800 pages), and its first sweep range, which the turning call
     * sweeps. Such a page may have been left mapped read-only since the slot's previous use (read, or written back;
     * on a huge-page mapping of ext4 a 2 MiB mapping that the first store splits, with a TLB shootdown and the file
     * system's page_mkwrite over the whole folio: 0.1 ms and more). Measured at 10^9 (bench/results/window,
     * turn-profile-2026-11-29.md) they were rare (the seal's own stores leave most of the map writable): what a turning
     * call faults on is its item's block, as any call does. Changes no word
     * ({@link MappedWords#touchForWrite}), so it needs no lock and races nothing: the slot is still answered for its
     * previous use meanwhile. Done right after the turn before, which is as good as just before the next one when
     * slices are shorter than the kernel's writeback of dirty pages (30 s by default); with longer slices the
     * writeback write-protects the pages again before the turn comes, and the turn takes some of these faults.
     *
     * @return pages touched (0: the next turn's already were).
     */
    long prepareNextTurn()
    {
        final long next = state.getLongVolatile(READY) + 1;
        if (prepared >= next)
        {
            return 0;
        }
        prepared = next;
        return slots.prepareSlot((int)(next % generations), firstSweepWords);
    }

    /**
     * Under the lock: seals up to {@code words} map words of the oldest use whose seal is pending and may be done now
     * (the use has ended, its slot is not reused yet, no late claimer of it is still in).
     *
     * @return words sealed, or {@link #NONE} when no seal is pending any more.
     */
    private long sealOldest(final long words)
    {
        // the oldest use first: its slot is the next reused
        final long ready = state.getLongVolatile(READY);
        int oldest = -1;
        for (int slot = 0; slot < generations; slot++)
        {
            final long use = pending[slot];
            if (use >= 0 && ready > use && ready < use + generations && !claims.busy(slot) &&
                (oldest < 0 || use < pending[oldest]))
            {
                oldest = slot;
            }
        }
        long sealedNow = 0;
        if (oldest >= 0)
        {
            final long from = cursor[oldest];
            sealTo(oldest, pending[oldest], Math.min(mapWords, from + words));
            sealedNow = cursor[oldest] - from;
        }
        work = anyPending();
        return work || sealedNow > 0 ? sealedNow : NONE;
    }

    private boolean anyPending()
    {
        for (final long use : pending)
        {
            if (use >= 0)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The turn to generation h, before it publishes h (its claimers of h − 2L counted out): seals what is left of the
     * slot's previous use if that use ended stale, and marks the use h − 1, ending now, pending if its slot is stale.
     */
    void turning(final long h)
    {
        lock(true);
        try
        {
            final int slot = (int)(h % generations);
            final long previous = h - generations;
            if (previous >= 0 && stale(slot) && sealed[slot] != previous)
            {
                if (pending[slot] != previous)
                {
                    cursor[slot] = 0; // no progress known (an open, or a use that was not marked)
                }
                turnWords += mapWords - cursor[slot];
                sealTo(slot, previous, mapWords);
            }
            pending[slot] = -1;
            final long ending = h - 1;
            final int endingSlot = (int)(ending % generations);
            if (ending >= generations && stale(endingSlot) && sealed[endingSlot] != ending)
            {
                pending[endingSlot] = ending;
                cursor[endingSlot] = 0;
                work = true;
            }
        }
        finally
        {
            unlock();
        }
    }

    /** @return map words the turns have sealed themselves, the rest of the seals having been spread over calls. */
    long turnWords()
    {
        lock(true);
        try
        {
            return turnWords;
        }
        finally
        {
            unlock();
        }
    }

    /** An open: every stale slot but the newest's has ended its use unswept and is pending from its start. */
    void opened(final long newest)
    {
        for (int slot = 0; slot < generations; slot++)
        {
            final long use = newest - Math.floorMod(newest - slot, (long)generations);
            if (use != newest && use >= generations && stale(slot))
            {
                pending[slot] = use;
                cursor[slot] = 0;
                work = true;
            }
        }
    }

    private boolean stale(final int slot)
    {
        return (state.getLongVolatile(STALE) >>> slot & 1) != 0;
    }

    /** Seals the slot's map words [cursor, to) for the use; the seal is done at the map's end. */
    private void sealTo(final int slot, final long use, final long to)
    {
        slots.seal(slot, BlockedFifoLayout.parity(use, generations), cursor[slot], to);
        cursor[slot] = to;
        if (to == mapWords)
        {
            sealed[slot] = use;
            pending[slot] = -1;
        }
    }

    /** Takes the sealers' lock: waiting for it (a turn, the sealing thread) or not (a stream call's share). */
    private boolean lock(final boolean wait)
    {
        int spins = 0;
        while (!sealing.compareAndSet(false, true))
        {
            if (!wait)
            {
                return false;
            }
            if (++spins % SPINS_BEFORE_YIELD == 0)
            {
                Thread.yield(); // the holder may have been preempted mid-chunk (2 cores, many threads)
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private void unlock()
    {
        sealing.set(false);
    }
}
