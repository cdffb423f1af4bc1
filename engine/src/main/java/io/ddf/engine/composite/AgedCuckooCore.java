package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.ChangeRecorder;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.LoggedCore;
import io.ddf.engine.spi.TimedCore;
import io.ddf.engine.spi.WindowSnapshot;

import static io.ddf.engine.composite.AgedLayout.DEADLINE;
import static io.ddf.engine.composite.AgedLayout.EXPIRED;
import static io.ddf.engine.composite.AgedLayout.INSERTIONS;
import static io.ddf.engine.composite.AgedLayout.LIVE;
import static io.ddf.engine.composite.AgedLayout.LOCK;
import static io.ddf.engine.composite.AgedLayout.READY;
import static io.ddf.engine.composite.AgedLayout.SWEEPING;

/**
 * The aged cuckoo filter ({@code aged-cuckoo}): a window of time in one cuckoo table whose entries carry their age,
 * so that its memory follows the live elements only (FORMAT-AGED-CUCKOO.md). Buckets of eight 16-bit slots in two
 * adjacent words, one cache line (or, in files made before bucket-words, four in one word); a slot holds an f-bit
 * fingerprint and an a-bit stamp naming its generation ({@link AgedStamps}); two candidate buckets per element,
 * i1 = h(x) and i2 = (h(fp) − i1) mod n. An entry whose stamp is not live counts as empty for inserts and as absent
 * for lookups; the sweep ({@link AgedSweep}) clears such entries before their stamp is reused.
 *
 * <p>{@code stream}: DUPLICATE when either bucket holds the fingerprint with a live stamp. Otherwise the element
 * claims a ticket (ticket / c is its generation; the first ticket of a generation turns to it), then installs its
 * fingerprint and its generation's stamp into a free slot of i1 (its first word with one) by one compare-and-swap,
 * else under the table lock into i2 or by relocation (bounded by max-kicks; when they run out a live entry is dropped
 * and counted, an insert failure: the sizing keeps them away while the promise holds). Two threads with the same new
 * element choose the same word from the same reads, so one's compare-and-swap fails and it finds the other's entry.
 *
 * <p>Concurrency (shared mode), as the narrow cuckoo core ({@code cuckoo/NarrowCuckooCore}): word 0 is a
 * {@link SeqLock}; relocations and a turn's whole-table sweep run under it; lookups that miss retry when a relocation
 * overlapped their reads. Every decision reads the bucket words first and the live stamps after them. No live entry
 * is lost to a race: slots are emptied only when their stamp is not live (an expiry, a generation forgotten or a
 * turn's early expiry past the promise) or by an insert failure; a turn marks its new stamp not ended before making
 * it live, so that an expiry racing the turn keeps it; an insertion raises the latest time given before it claims its
 * ticket, so that the turn ending its generation ends it no earlier. A concurrent {@code stream} is atomic per element as the cuckoo filter's
 * is, with one exception, costing a wasted slot, never an element: when a slot of the element's first bucket turns
 * free (an expiry, a sweep) between two threads' decisions on the same new element, both may answer UNSEEN. A thread
 * stalled for more than W between its ticket and its install stores an entry already expired (absent). Single-writer
 * mode makes the same steps with plain loads and release stores.
 *
 * <p>Cost: a stream reads its two buckets (two cache lines, which {@link #touch} starts ahead in a batch) and the
 * live word; an insertion adds one atomic add (its ticket), one compare-and-swap, and at load 0.95 a relocation about
 * one time in three with eight-slot buckets (more than once on average with four), whose first steps look beside the
 * full buckets' entries ({@link AgedTable#relocate}), 500 steps at most. Past the promise the oldest generations are
 * forgotten early ({@link AgedForgetting}), so that the table stays within its sizing and insertions do not run to
 * max-kicks.
 *
 * <p>Crash safety (kill -9 at any point): a relocation killed mid-kick loses the fingerprint in hand, and leaves the
 * table lock held; a turn killed before its publish leaves tickets past the published generation; a sweep killed
 * mid-step leaves its lock held and its cursor where it was. {@link #recover()} releases both locks, publishes the
 * generations the tickets claim (at the count's start) and makes the current stamp live; the cursor resumes.
 */
public final class AgedCuckooCore implements TimedCore, LoggedCore
{
    /** Insertions per insert-driven sweep step, and table words per step: two words per insertion. */
    private static final int SWEEP_EVERY = 8;
    private static final int SWEEP_WORDS = 16;

    final MappedWords state;
    final MappedWords table;
    final SeqLock lock;
    final long buckets;
    final int stampBits;
    final long perGeneration;
    final int stamps;
    final AgedStamps time;
    final AgedSweep sweep;
    final AgedTable cells;
    final AgedForgetting forgetting;
    /**
     * Tickets between the forgetting's tests inside a generation: a quarter of c, or (L + 1) c / 64 if fewer (for
     * few slices): past the promise the table holds at most that many more than its sizing between two tests, load at
     * most 0.95 (1 + 1 / 64) for L = 1, 0.95 (1 + 1 / 68) at L = 16.
     */
    private final long testEvery;
    /**
     * On the wall clock, the turns ahead whose stamps a pass must have cleaned by then ({@link #passDue}): half the
     * generations between a stamp's expiry (about L + 1 after its own at a steady rate) and its reuse (S after), so
     * that a pass has the other half to complete (one takes about two generations at the promised rate from the
     * insertions' steps alone, at any size: two words an insertion over about 2.1 c words). When 2 L + 1 generations
     * are live (turns by time and by count mixed), a stamp is due at its expiry and its pass begins then, as before.
     */
    private final long reuseAhead;
    private final boolean owned;
    private ChangeRecorder recorder;
    private boolean openTimeDeferred;

    /**
     * @param layout        the region's layout.
     * @param region        the region: state, end times, table.
     * @param capacity      n, new elements per window.
     * @param perGeneration c = ⌈n / L⌉ new elements per generation.
     * @param maxKicks      relocations per insertion before an insert failure.
     * @param window        W, ms.
     * @param slices        L.
     * @param clock         what a call without a time reads ({@link FilterClock#NONE}: event time).
     */
    AgedCuckooCore(final AgedLayout layout, final MappedWords region, final long capacity, final long perGeneration,
        final int maxKicks, final long window, final int slices, final FilterClock clock)
    {
        this.state = region.slice(0, AgedLayout.TABLE);
        this.table = region.slice(AgedLayout.TABLE, layout.tableWords());
        this.lock = new SeqLock(state, LOCK);
        this.buckets = layout.buckets();
        this.stampBits = layout.stampBits();
        this.stamps = layout.stamps();
        this.perGeneration = perGeneration;
        this.owned = region.owned();
        this.time = new AgedStamps(state, window, slices, stamps, clock);
        this.sweep = new AgedSweep(state, table, lock, layout.tableWords(), stampBits, this::passDue);
        this.cells = new AgedTable(layout, state, table, lock, maxKicks);
        this.forgetting = new AgedForgetting(state, time, stamps, capacity, perGeneration);
        this.testEvery = Math.max(1, Math.min(perGeneration / 4, (slices + 1) * perGeneration / 64));
        this.reuseAhead = Math.max(1, (stamps - slices - 1) / 2);
    }

    @Override
    public boolean stream(final long hash)
    {
        return stream(hash, time.now());
    }

    @Override
    public boolean stream(final long hash, final long at)
    {
        if (at != FilterClock.NO_TIME && at >= state.getLongVolatile(DEADLINE))
        {
            advance(at);
        }
        return streamAt(hash, at);
    }

    /** What time has made due at {@code at}: expiries, and a turn by time when T has passed since the start. */
    void advance(final long at)
    {
        if (!time.started())
        {
            time.start(at);
        }
        time.given(at);
        while (true)
        {
            if (time.expire(at))
            {
                if (recorder != null)
                {
                    AgedReplay.recordExpire(recorder, at);
                }
                sweep.wake();
            }
            if (at < time.turnDue())
            {
                return;
            }
            turnByTime(state.getLongVolatile(READY), time.alignedStart(at));
        }
    }

    private boolean streamAt(final long hash, final long at)
    {
        final long fp = cells.fingerprint(hash);
        final long i1 = cells.firstBucket(hash);
        final long i2 = cells.alternate(i1, fp);
        final boolean wide = cells.wide();
        final long at1 = cells.index(i1);
        final long at2 = cells.index(i2);
        long ticket = -1;
        long entry = 0;
        while (true)
        {
            final long version = lock.readBeginAcquire();
            final long word1 = table.getLongVolatile(at1);
            final long high1 = wide ? table.getLongVolatile(at1 + 1) : 0;
            final long word2 = i2 == i1 ? word1 : table.getLongVolatile(at2);
            final long high2 = wide && i2 != i1 ? table.getLongVolatile(at2 + 1) : 0;
            final long live = state.getLongVolatile(LIVE); // after the words: see the class comment
            if (cells.find(word1, fp, live) || cells.find(word2, fp, live) ||
                wide && (cells.find(high1, fp, live) || cells.find(high2, fp, live)))
            {
                return true;
            }
            if (!lock.readValidAcquire(version))
            {
                continue; // a relocation overlapped the reads: the element may have been in hand
            }
            if (ticket < 0)
            {
                if (at != FilterClock.NO_TIME)
                {
                    time.given(at); // before the ticket: the turn that ends this generation reads it after
                }
                ticket = claimTicket(at);
                entry = fp << stampBits | time.stampOf(ticket / perGeneration);
                continue; // decide again with the generation's stamp live (a turn may have made it so)
            }
            final int free = cells.freeSlot(word1, live);
            final int freeHigh = free < 0 && wide ? cells.freeSlot(high1, live) : -1;
            if (free >= 0 || freeHigh >= 0)
            {
                final boolean low = free >= 0;
                final long read = low ? word1 : high1;
                if (table.compareAndSetLong(low ? at1 : at1 + 1, read, AgedTable.with(read, low ? free : freeHigh,
                    entry)))
                {
                    inserted(hash, ticket);
                    return false;
                }
                continue;
            }
            if (lock.tryLockAcquire(version))
            {
                try
                {
                    if (cells.holds(i1, fp) || cells.holds(i2, fp))
                    {
                        return true;
                    }
                    if (!cells.placeIfFree(i1, entry) && !cells.placeIfFree(i2, entry))
                    {
                        cells.relocate(hash, entry, i1, i2);
                    }
                }
                finally
                {
                    lock.unlockRelease(version + 1);
                }
                inserted(hash, ticket);
                return false;
            }
        }
    }

    /** After an insertion: a sweep step every {@link #SWEEP_EVERY} tickets when a pass is wanted, and the record. */
    private void inserted(final long hash, final long ticket)
    {
        if (ticket % SWEEP_EVERY == 0 && sweep.wanted())
        {
            sweep.step(SWEEP_WORDS);
        }
        if (recorder != null) // after the change: the ticket places it in its generation at replay
        {
            AgedReplay.recordAdd(recorder, hash, ticket);
        }
    }

    /**
     * Claims the element's ticket: the first of a generation turns to it (by count), any other waits until its
     * generation is published.
     *
     * @return the ticket.
     */
    private long claimTicket(final long at)
    {
        final long ticket = state.getAndAddLong(INSERTIONS, 1);
        final long generation = ticket / perGeneration;
        if (generation > 0 && ticket - generation * perGeneration == 0)
        {
            rotate(generation, time.started() ? time.countStart(at) : 0, -1, false, perGeneration, false);
        }
        else
        {
            awaitReady(generation);
        }
        if (generation == 0 && state.getLongVolatile(LIVE) == 0)
        {
            time.makeLive(time.stampOf(0)); // a new filter's first element: generation 0's stamp
        }
        final long within = ticket - generation * perGeneration;
        if (within > 0 && within % testEvery == 0) // past the promise the table overfills before the next turn
        {
            forgetting.forgetPastPromise(generation, within, this::forgot);
        }
        return ticket;
    }

    @Override
    public boolean contains(final long hash)
    {
        final long fp = cells.fingerprint(hash);
        final long i1 = cells.firstBucket(hash);
        final long i2 = cells.alternate(i1, fp);
        final long now = time.now();
        final boolean wide = cells.wide();
        final long at1 = cells.index(i1);
        final long at2 = cells.index(i2);
        while (true)
        {
            final long version = lock.readBeginAcquire();
            final long word1 = table.getLongVolatile(at1);
            final long high1 = wide ? table.getLongVolatile(at1 + 1) : 0;
            final long word2 = table.getLongVolatile(at2);
            final long high2 = wide ? table.getLongVolatile(at2 + 1) : 0;
            // read only: what time has made absent since the filter last acted is absent for a lookup too
            final long live = now == FilterClock.NO_TIME ? state.getLongVolatile(LIVE) : time.liveAt(now);
            if (cells.find(word1, fp, live) || cells.find(word2, fp, live) ||
                wide && (cells.find(high1, fp, live) || cells.find(high2, fp, live)))
            {
                return true;
            }
            if (lock.readValidAcquire(version))
            {
                return false;
            }
        }
    }

    /** Reads a word of each of the element's two buckets (each bucket is in one cache line in either layout). */
    @Override
    public long touch(final long hash)
    {
        final long i1 = cells.firstBucket(hash);
        return table.getLongPlain(cells.index(i1)) + table.getLongPlain(cells.index(cells.alternate(i1,
            cells.fingerprint(hash))));
    }

    /**
     * Generation h's turn, by its first ticket's holder (turns are serial): waits for h − 1, sweeps the whole table
     * when the stamp h reuses may still have entries (its old generation still live past the promise, or no pass
     * completed since its window passed or since it was forgotten), forgets the oldest generations past the promise
     * ({@link AgedForgetting#forgetPastPromise}), then publishes h.
     *
     * @param previous  the elements of h − 1: the tickets it claimed (c when it turned by count).
     * @param replaying whether replay turns (it forgets from the records, not by the test).
     */
    void rotate(final long h, final long start, final long recordedEnd, final boolean byTime, final long previous,
        final boolean replaying)
    {
        awaitReady(h - 1);
        if (h >= stamps)
        {
            final int stamp = time.stampOf(h);
            final int forgotten = forgetting.forgottenState(stamp);
            if ((time.live() >>> stamp & 1) != 0 || !time.started() || forgotten == 0 ||
                forgotten < 0 && !sweep.clean(time.endOf(stamp) + time.window()))
            {
                final long version = cells.lockTable();
                try
                {
                    time.expireEarly(stamp);
                    sweep.sweepAll();
                }
                finally
                {
                    lock.unlockRelease(version + 1);
                }
            }
            forgetting.reused(stamp);
        }
        final long end = recordedEnd >= 0 ? recordedEnd : time.endAt(start);
        time.beforePublish(h, start, end, byTime);
        forgetting.turned(h, previous);
        if (!replaying) // replay forgets from the records the uncut turn made
        {
            forgetting.forgetPastPromise(h, 0, this::forgot);
        }
        if (recorder != null) // before the publish: every add of h waits for it, so its record follows
        {
            AgedReplay.recordTurn(recorder, h, start, end, byTime, previous);
        }
        state.putLongRelease(READY, h);
        time.storeDeadline();
        sweep.wake();
    }

    /**
     * Whether the sweep may begin a pass now. On event time, whenever an expiry wants one (as files have always been
     * swept: the same stream leaves the same file byte for byte). On the wall clock, only once a stamp that one of the
     * next {@link #reuseAhead} turns reuses still holds entries a pass clears (expired since the last completed pass
     * began, or forgotten and unswept): a pass reads the whole table, and one per generation, as every expiry wanted
     * it, cost a filter held at its bound about a tenth of its CPU (the daemon's sweep thread, 10^7, 60 s window, 14
     * slices) where a stamp is reused only every 31 generations.
     */
    boolean passDue()
    {
        if (time.eventTime())
        {
            return true;
        }
        final long ready = state.getLongVolatile(READY);
        final long live = time.live();
        for (long h = Math.max(ready + 1, stamps); h <= ready + reuseAhead; h++)
        {
            final int stamp = time.stampOf(h);
            if ((live >>> stamp & 1) != 0)
            {
                continue; // live: not a pass's to clear (its turn expires it early and sweeps itself, the rare case)
            }
            final int forgotten = forgetting.forgottenState(stamp);
            if (forgotten == 0 || forgotten < 0 && !sweep.clean(time.endOf(stamp) + time.window()))
            {
                return true;
            }
        }
        return false;
    }

    /** Records a generation forgotten past the promise (replay forgets it again). */
    private void forgot(final long generation)
    {
        if (recorder != null)
        {
            AgedReplay.recordForget(recorder, generation, time.filterTime());
        }
    }

    /**
     * Claims generation newest + 1's first ticket and turns to it, unless another thread holds that ticket already
     * (a turn in flight), whose publish it then waits for. Rounds the ticket counter up: the tickets skipped are never
     * issued.
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
                rotate(next, start, -1, true, claimed - newest * perGeneration, false); // the tickets it claimed
                return;
            }
        }
    }

    /**
     * Shared: waits until the generation is published. Owned: the one writer always has, so an unpublished one is a
     * damaged state (two threads misusing the filter): it publishes it itself rather than wait forever.
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

    /** Publishes the generations up to g not yet published, each at the count's start (recovery, replay). */
    void publishUnpublished(final long generation)
    {
        for (long h = state.getLongVolatile(READY) + 1; h <= generation; h++)
        {
            rotate(h, time.started() ? time.countStart(FilterClock.NO_TIME) : 0, -1, false, perGeneration, false);
        }
    }


    /** Empties the table and every state word: the filter's time starts again with its next call. */
    @Override
    public void clear()
    {
        table.clear();
        state.clear();
    }

    /** Repairs what a kill left (see the class comment), then applies the time passed while closed. */
    @Override
    public void recover()
    {
        lock.recoverRelease();
        state.putLongRelease(SWEEPING, 0);
        final long claimed = state.getLongVolatile(INSERTIONS);
        if (claimed > 0)
        {
            publishUnpublished((claimed - 1) / perGeneration);
            time.makeLive(time.stampOf(state.getLongVolatile(READY)));
        }
        time.storeDeadline();
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

    /** On the wall clock: applies the time passed while the file was closed, recording what it expired. */
    @Override
    public void openTime()
    {
        if (time.eventTime() || !time.started())
        {
            return;
        }
        final long before = time.filterTime();
        final long expired = state.getLongVolatile(EXPIRED);
        final long now = time.now();
        if (now >= state.getLongVolatile(DEADLINE))
        {
            advance(now);
        }
        time.opened(before, now, state.getLongVolatile(EXPIRED) - expired);
    }

    /**
     * On the wall clock, the sweep's passes are also the holder's deferred work (so that a nearly idle filter's turns
     * find their stamps clean). On event time they are not: its sweep is driven by its insertions only (and its turns
     * when a stamp is still dirty), so that the same stream leaves the same file byte for byte, whatever a thread's
     * timing (golden files, replays of a backfill).
     */
    @Override
    public void onDeferredWork(final Runnable wake)
    {
        if (!time.eventTime())
        {
            sweep.wakeWith(wake);
        }
    }

    @Override // a step of the sweep of expired slots
    public long doDeferredWork()
    {
        return sweep.step(AgedSweep.STEP_WORDS);
    }

    @Override
    public boolean windowed()
    {
        return true;
    }

    @Override
    public WindowSnapshot window()
    {
        return time.snapshot();
    }

    @Override
    public void recordTo(final ChangeRecorder changes)
    {
        recorder = changes;
        cells.recordTo(changes);
    }

    @Override
    public boolean replay(final int op, final int aux, final long hash, final long arg, final long[] more)
    {
        return AgedReplay.replay(this, op, aux, hash, arg, more);
    }


    /** @return insert failures: live entries dropped after max-kicks relocations. */
    public long failures()
    {
        return cells.failures();
    }

}
