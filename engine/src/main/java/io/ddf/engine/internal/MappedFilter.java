package io.ddf.engine.internal;

import io.ddf.engine.changelog.FilterLog;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CountingCore;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.TimedCore;
import io.ddf.engine.spi.WindowSnapshot;
import io.ddf.persistence.platform.AsymmetricFence;
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.Recovery;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The machinery of a filter on a mapped file: hashes the element in whichever form it comes, lets the kind's
 * {@link FilterCore} decide and update, and counts the verdicts in the file's state region. It answers in
 * booleans; the embedder API adapts it to its {@code DuplicateFilter} and {@code Verdict}, so that nothing here
 * depends on the API.
 */
public final class MappedFilter
{
    private final FilterFile file;
    private final KindDefinition definition;
    private final long[] slots;
    private final ElementHasher hasher;
    private final FilterCore core;
    private final FilterCounters counters;
    /** The file from the state region to the end of the table: the words streaming changes (replication). */
    private final MappedWords mutableWords;
    private final boolean singleWriter;
    /** Whether a batch touches its rows before updating them: only for a table larger than a core's cache. */
    private final boolean touchAhead;
    private final SyncMode syncMode;
    /** The filter's change log binding (null when its changes are not logged) and what a call appends to it. */
    private final FilterLog log;
    private final FilterChanges changes;
    /**
     * The calls in flight, which a close waits for, and whether the filter is closing (new calls refused); its
     * stripe for the calling thread is that thread's stripe of the counters too.
     */
    private final CallGuard guard;
    /** The counts when the filter closed, which elements() and duplicates() answer once the file is unmapped. */
    private volatile long finalElements;
    private volatile long finalDuplicates;

    MappedFilter(final FilterFile file, final KindDefinition definition, final long[] slots, final FilterCore core,
        final boolean singleWriter, final SyncMode syncMode, final FilterLog log, final boolean ownsLog)
    {
        this.syncMode = syncMode;
        this.log = log;
        this.changes = new FilterChanges(log, core, syncMode, ownsLog);
        this.singleWriter = singleWriter;
        this.file = file;
        this.definition = definition;
        this.slots = slots.clone();
        this.core = core;
        this.hasher = ElementHasher.of(file.spec().hashAlgorithm(), file.spec().seed(), file.spec().key());
        this.counters = new FilterCounters(file.stateAddress(), file.stateLength());
        this.mutableWords = new MappedWords(file.stateAddress(),
            (file.tableAddress() + file.tableLength() - file.stateAddress()) / Long.BYTES, false);
        this.touchAhead = file.tableLength() > BatchStream.TOUCH_AHEAD_MIN_BYTES;
        this.guard = new CallGuard(file.path());
        if (core instanceof TimedCore timed && timed.windowed())
        {
            BackgroundSeals.attach(timed, guard); // a turn's seal done off the calling threads
        }
    }

    /**
     * @return whether the filter runs in single-writer mode: the caller promises that one thread at a time updates
     *         each partition (each row of a quotient filter; the whole filter for kinds that are not
     *         {@link #partitioned()}), so updates need no locked instruction.
     */
    public boolean singleWriter()
    {
        return singleWriter;
    }

    /**
     * @return the mutable words, from the state region to the end of the table (what streaming changes), for code
     *         that replicates a filter word by word.
     * @throws IllegalStateException when the filter is closed.
     */
    public GuardedWords mutableWords()
    {
        guard.checkOpen();
        return new GuardedWords(mutableWords, guard);
    }

    /** @return the kind's definition, as the header names it. */
    public KindDefinition definition()
    {
        return definition;
    }

    /** @return the header's parameter slots, one per parameter of the definition. */
    public long[] slots()
    {
        return slots.clone();
    }

    /** @return the header's hash algorithm code. */
    public int hashAlgorithm()
    {
        return file.spec().hashAlgorithm();
    }

    /** @return the header's hash seed. */
    public long seed()
    {
        return file.spec().seed();
    }

    /** @return the element hasher: the filter's seed or key, its algorithm. */
    public ElementHasher hasher()
    {
        return hasher;
    }

    /** @return whether the core's partitions are disjoint state (see {@link FilterCore#partitioned()}). */
    public boolean partitioned()
    {
        return core.partitioned();
    }

    /**
     * @param hash an element's hash.
     * @return its partition.
     */
    public long partition(final long hash)
    {
        return core.partition(hash);
    }

    /**
     * @param hash an element's hash.
     * @return whether it is a duplicate; the state now records it and the counters count it.
     */
    public boolean streamHash(final long hash)
    {
        final Stripe stripe = guard.enter();
        try
        {
            final boolean duplicate = core.stream(hash);
            counters.record(stripe.index, 1, duplicate ? 1 : 0);
            changes.afterStream(hash, duplicate);
            return duplicate;
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param hash an element's hash.
     * @param time epoch milliseconds, at least 0 (see {@link TimedCore#stream(long, long)}).
     * @return whether it is a duplicate; the state now records it and the counters count it.
     * @throws UnsupportedOperationException when the filter has no window of time.
     */
    public boolean streamHash(final long hash, final long time)
    {
        final TimedCore timed = TimedCalls.core(core, definition, time);
        final Stripe stripe = guard.enter();
        try
        {
            final boolean duplicate = timed.stream(hash, time);
            counters.record(stripe.index, 1, duplicate ? 1 : 0);
            changes.afterStream(hash, duplicate);
            return duplicate;
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @return the window of time's state and counters, or null for a filter without one.
     * @throws IllegalStateException once the filter is closed (its state is unmapped).
     */
    public WindowSnapshot window()
    {
        if (!(core instanceof TimedCore timed))
        {
            return null;
        }
        final Stripe stripe = guard.enter();
        try
        {
            return timed.window();
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param hash an element's hash.
     * @return a plain read of the state its stream will touch (0 for kinds that do not say); nothing changes.
     */
    public long touchHash(final long hash)
    {
        final Stripe stripe = guard.enter();
        try
        {
            return core.touch(hash);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * Streams {@code elements[offset, offset + length)} in order, as that many {@link #streamHash}{@code (hash(e))}
     * calls would: the same verdicts, state and counts. Each element is still one atomic step (another thread's
     * elements may fall between two of the batch's). Cheaper per element: the batch is checked and counted once,
     * and in groups of {@link BatchStream#GROUP} its hashing overlaps and, for a table larger than the cache, the rows are read
     * before the first is updated so that their misses overlap instead of queueing.
     *
     * @param elements   the elements, each as its 8 little-endian bytes.
     * @param offset     of the first.
     * @param length     how many.
     * @param duplicates {@code duplicates[i]} is set to whether {@code elements[i]} was judged DUPLICATE.
     * @return how many were judged DUPLICATE.
     */
    public int streamLongs(final long[] elements, final int offset, final int length, final boolean[] duplicates)
    {
        Objects.checkFromIndexSize(offset, length, elements.length);
        Objects.checkFromIndexSize(offset, length, duplicates.length);
        final Stripe stripe = guard.enter();
        try
        {
            return BatchStream.stream(this, stripe, elements, offset, length, duplicates);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param hash an element's hash.
     * @return whether it would be judged a duplicate now; nothing changes.
     */
    public boolean containsHash(final long hash)
    {
        final Stripe stripe = guard.enter();
        try
        {
            return core.contains(hash);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /** @return whether the core keeps entries it can count and delete ({@link CountingCore}: the cuckoo filter). */
    public boolean counting()
    {
        return core instanceof CountingCore;
    }

    /**
     * Inserts one more copy of the element, present or not (CF.ADD); counted as an unseen element.
     *
     * @param hash an element's hash.
     */
    public void addHash(final long hash)
    {
        final CountingCore counting = countingCore();
        final Stripe stripe = guard.enter();
        try
        {
            counting.add(hash);
            counters.record(stripe.index, 1, 0);
            changes.logged(KindOps.ADD, hash);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param hash an element's hash.
     * @return whether one copy was found and deleted.
     */
    public boolean deleteHash(final long hash)
    {
        final CountingCore counting = countingCore();
        final Stripe stripe = guard.enter();
        try
        {
            final boolean deleted = counting.delete(hash);
            if (deleted)
            {
                changes.logged(KindOps.DELETE, hash);
            }
            return deleted;
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param hash an element's hash.
     * @return the entries matching it (an upper bound on its copies).
     */
    public int countHash(final long hash)
    {
        final CountingCore counting = countingCore();
        final Stripe stripe = guard.enter();
        try
        {
            return counting.count(hash);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /** @return copies deleted over the file's lifetime; 0 for a kind that cannot delete. */
    public long deletions()
    {
        if (!(core instanceof CountingCore counting))
        {
            return 0;
        }
        final Stripe stripe = guard.enter();
        try
        {
            return counting.deletions();
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    private CountingCore countingCore()
    {
        if (core instanceof CountingCore counting)
        {
            return counting;
        }
        throw new UnsupportedOperationException(definition.name() + " keeps no entries to count or delete; " +
            "only the cuckoo filter does");
    }

    /** @return elements streamed over the file's lifetime (once closed: as the close found them). */
    public long elements()
    {
        return count(false);
    }

    /** @return those judged duplicates (once closed: as the close found them). */
    public long duplicates()
    {
        return count(true);
    }

    private long count(final boolean duplicates)
    {
        final Stripe stripe = guard.tryEnter();
        if (stripe == null)
        {
            guard.awaitClosed();
            return duplicates ? finalDuplicates : finalElements;
        }
        try
        {
            return duplicates ? counters.duplicates() : counters.elements();
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /** @return the file, or null when anonymous. */
    public Path path()
    {
        return file.path();
    }

    /** Forces the state to the storage device; a close waits for it. */
    public void flush()
    {
        final Stripe stripe = guard.enter();
        try
        {
            file.flush();
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /** @return how this filter's changes reach the device. */
    public SyncMode syncMode()
    {
        return syncMode;
    }

    /**
     * Forces what changed so far to the device: the log through its last record, when the filter is written through
     * one; otherwise (policy no) the whole file ({@link #flush()}). Safe from any thread, concurrently with streaming.
     *
     * @return 0, or -1 when the log was already forced that far.
     * @throws io.ddf.persistence.log.LogUnavailableException when the log cannot be forced.
     */
    public long sync()
    {
        final long forced = changes.force();
        if (forced == -2)
        {
            flush();
            return 0;
        }
        return forced;
    }

    /** @return the filter's change log binding, or null when its changes are not logged. */
    public FilterLog log()
    {
        return log;
    }

    /** @return what the open did with the change log (NOT_LOGGED without one). */
    public Recovery recovery()
    {
        return changes.recovery();
    }

    /**
     * A checkpoint: see {@link FilterLog#checkpoint()}; a close waits for it.
     *
     * @return what it did.
     * @throws UnsupportedOperationException when the filter is not written through a log.
     */
    public Checkpoint checkpoint()
    {
        if (log == null)
        {
            throw new UnsupportedOperationException((path() == null ? "an anonymous filter" : path().toString()) +
                " is not written through a change log (sync policy no)");
        }
        final Stripe stripe = guard.enter();
        try
        {
            return log.checkpoint();
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @return the time, epoch milliseconds, before which every change acknowledged was on the device at the last
     *         completed sync (0 when unknown).
     */
    public long durableSince()
    {
        return log == null ? file.sync().durableSince() : log.log().stats().lastForceStartMillis();
    }

    /** @return what opening found of the file's last close: see {@link FilterFile#tableCheck()}. */
    public FilterFile.TableCheck foundAtOpen()
    {
        return file.tableCheck();
    }

    /** @return why the file's seal did not match its contents at open ({@link #foundAtOpen()} SEAL_MISMATCH), or null. */
    public String sealMismatch()
    {
        return file.sealMismatch();
    }

    /**
     * @return the header's last sync time as opening found it (see
     *         {@link io.ddf.persistence.FileSync#lastSyncAtOpen()}).
     */
    public long lastSyncAtOpen()
    {
        return file.sync().lastSyncAtOpen();
    }

    /**
     * Refuses new calls, waits for those in flight, then seals and unmaps the file. Safe while other threads call:
     * they get {@link IllegalStateException} from now on. A second close, from any thread, waits for the first.
     */
    public void close()
    {
        if (!guard.beginClose())
        {
            guard.awaitClosed();
            return;
        }
        try
        {
            AsymmetricFence.heavy();
            quiesce();
            try
            {
                file.close();
            }
            finally
            {
                changes.closeOwnLog();
            }
        }
        finally
        {
            guard.closed();
        }
    }

    /**
     * Closes many filters as one: see {@link FilterClosing#closeAll}.
     *
     * @param filters filters; closed ones are skipped (one another thread is closing is waited for).
     */
    public static void closeAll(final java.util.Collection<MappedFilter> filters)
    {
        FilterClosing.closeAll(filters);
    }

    /** @return the calls in flight and the closing state. */
    CallGuard guard()
    {
        return guard;
    }

    /** @return the file. */
    FilterFile file()
    {
        return file;
    }

    /**
     * After the heavy fence: waits for the calls in flight, stops the background forces and checkpoints, records the
     * log's position in the header (the close forces it with the seal), keeps the counts.
     */
    void quiesce()
    {
        guard.awaitIdle();
        changes.closing();
        finalElements = counters.elements();
        finalDuplicates = counters.duplicates();
    }

    /** @return whether a batch touches its rows before updating them. */
    boolean touchAhead()
    {
        return touchAhead;
    }

    /** @return how its calls append to its change log. */
    FilterChanges changes()
    {
        return changes;
    }

    /** @return the kind's core. */
    FilterCore core()
    {
        return core;
    }

    /** @return the counters in the state region. */
    FilterCounters counters()
    {
        return counters;
    }
}
