package io.ddf.engine.window;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * The queuing construction (sliding-window paper §5.1, Alg. 2): L subfilters of any kind, each taking c consecutive
 * insertions, used round-robin. Generation g (insertions g·c … g·c + c − 1) goes into subfilter g mod L; the first
 * insertion of generation g first recycles that subfilter, which held generation g − L, the oldest. The rotation
 * counter and the newest subfilter live in the file header's state words: word {@value #INSERTIONS} counts the
 * insertions claimed (so the newest subfilter is ⌊(n − 1) / c⌋ mod L), word {@value #READY} is the newest generation
 * whose subfilter has been cleared.
 *
 * <p>{@code stream(e)} answers DUPLICATE iff some subfilter holds e, then inserts e into the newest subfilter, also
 * when e was judged a duplicate, so that a recurring element stays in the window; every element counts as an
 * insertion. The subfilters are looked up before the oldest is recycled, so the filter judges e against the last
 * c·(L − 1) + r elements, r ∈ [1, c] the insertions into the newest subfilter: at least the c·(L − 1) + 1 before e,
 * at most c·L = w. (Alg. 2 rotates right after the c-th insertion instead, which covers one element less.)
 *
 * <p>Concurrency: each {@code stream} claims its insertion with one getAndAdd on the counter, so the counter decides
 * which thread rotates (the one that claims the first insertion of a generation); that thread waits until the
 * previous rotation is published, looks the element up, clears the oldest subfilter, publishes the new generation
 * with a release store, then inserts. Threads whose insertion falls in a generation not yet published wait for it,
 * so no insertion is lost to a clear that follows it. Within a generation a stream is as atomic as the inner kind's
 * (for the quotient filters: two threads streaming the same new element never both get UNSEEN); across a rotation
 * it is not (one may insert into the new subfilter after the other looked it up). A thread stalled for a whole L
 * generations may insert its element into a subfilter that has since been recycled, and a {@code contains} racing
 * a rotation may miss elements of the subfilter being cleared. A process killed mid-rotation leaves the published
 * generation behind the counter; {@link #recover()} finishes the clearing.
 *
 * <p>Owned (single-writer) mode: the counter's getAndAdd is a plain load and a release store, and no thread ever
 * waits. The one writer publishes each generation itself before its next insertion, so it never finds the newest
 * generation unpublished; if it does (the header is damaged: two threads misusing the filter lost a counter update or
 * overwrote a newer publication with an older one, after which each would wait forever for the other), the thread
 * finishes the missing rotations itself, as {@link #recover()} does, and goes on: misuse loses updates, it never
 * hangs (a hung writer whose filter is then closed would read an unmapped header).
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class QueueCore implements FilterCore
{
    /** Header state word: insertions claimed so far. */
    static final int INSERTIONS = 0;
    /** Header state word: the newest generation whose subfilter is cleared and ready. */
    static final int READY = 1;

    private final FilterCore[] subfilters;
    private final MappedWords state;
    private final long perSubfilter;
    private final int count;
    private final boolean newOnly;
    /** Single-writer mode: finish a missing rotation instead of waiting for another thread to (see class comment). */
    private final boolean owned;

    /**
     * @param subfilters   the L subfilters, over disjoint regions.
     * @param perSubfilter c, insertions per subfilter.
     * @param state        the header's state words.
     */
    QueueCore(final FilterCore[] subfilters, final long perSubfilter, final MappedWords state)
    {
        this(subfilters, perSubfilter, state, false);
    }

    /**
     * @param subfilters   the L subfilters, over disjoint regions.
     * @param perSubfilter c, insertions per subfilter.
     * @param state        the header's state words.
     * @param newOnly      true to insert (and count) only the elements judged UNSEEN, so that a generation is c
     *                     distinct new elements and the filter forgets the oldest by first insertion (the capacity
     *                     filter, the fifo-bloom kind); false for the sliding window, where every element
     *                     counts.
     */
    public QueueCore(final FilterCore[] subfilters, final long perSubfilter, final MappedWords state,
        final boolean newOnly)
    {
        this.subfilters = subfilters.clone();
        this.count = subfilters.length;
        this.perSubfilter = perSubfilter;
        this.state = state;
        this.newOnly = newOnly;
        this.owned = state.owned();
    }

    @Override
    public boolean stream(final long hash)
    {
        return newOnly ? streamNew(hash) : streamEvery(hash);
    }

    /**
     * Counts and inserts only an element no subfilter holds: a duplicate changes nothing (as RedisBloom's BF.ADD of
     * an item already there). Two threads adding the same new element at once may both insert it and both count.
     */
    private boolean streamNew(final long hash)
    {
        if (anyContains(hash))
        {
            return true;
        }
        final long ticket = state.getAndAddLong(INSERTIONS, 1);
        final long generation = ticket / perSubfilter;
        final int newest = (int)(generation % count);
        if (generation > 0 && ticket == generation * perSubfilter)
        {
            awaitReady(generation - 1);
            subfilters[newest].clear();
            state.putLongRelease(READY, generation);
        }
        else
        {
            awaitReady(generation);
        }
        subfilters[newest].stream(hash);
        return false;
    }

    private boolean streamEvery(final long hash)
    {
        final long ticket = state.getAndAddLong(INSERTIONS, 1);
        final long generation = ticket / perSubfilter;
        final int newest = (int)(generation % count);
        if (generation > 0 && ticket == generation * perSubfilter)
        {
            awaitReady(generation - 1);
            final boolean duplicate = anyContains(hash);
            subfilters[newest].clear();
            state.putLongRelease(READY, generation);
            subfilters[newest].stream(hash);
            return duplicate;
        }
        awaitReady(generation);
        if (subfilters[newest].stream(hash))
        {
            return true;
        }
        for (int i = 0; i < count; i++)
        {
            if (i != newest && subfilters[i].contains(hash))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean contains(final long hash)
    {
        return anyContains(hash);
    }

    private boolean anyContains(final long hash)
    {
        for (int i = 0; i < count; i++)
        {
            if (subfilters[i].contains(hash))
            {
                return true;
            }
        }
        return false;
    }

    /** Shared: waits until the given generation is published. Owned: publishes it (a damaged header) instead. */
    private void awaitReady(final long generation)
    {
        if (owned)
        {
            finishRotations(generation);
            return;
        }
        while (state.getLongVolatile(READY) < generation)
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Clears the subfilters of the generations after the published one up to {@code current} (the last L of them at
     * most) and publishes {@code current}; nothing when it is published already.
     */
    private void finishRotations(final long current)
    {
        final long ready = state.getLongVolatile(READY);
        if (ready < current)
        {
            for (long g = Math.max(ready + 1, current - count + 1); g <= current; g++)
            {
                subfilters[(int)(g % count)].clear();
            }
            state.putLongRelease(READY, current);
        }
    }

    @Override
    public void clear()
    {
        for (final FilterCore subfilter : subfilters)
        {
            subfilter.clear();
        }
        state.putLongRelease(INSERTIONS, 0);
        state.putLongRelease(READY, 0);
    }

    /**
     * Repairs every subfilter, then finishes a rotation a killed process left half done: the subfilters of the
     * generations claimed but not published are cleared.
     */
    @Override
    public void recover()
    {
        for (final FilterCore subfilter : subfilters)
        {
            subfilter.recover();
        }
        final long claimed = state.getLongVolatile(INSERTIONS);
        if (claimed == 0)
        {
            return;
        }
        finishRotations((claimed - 1) / perSubfilter);
    }
}
