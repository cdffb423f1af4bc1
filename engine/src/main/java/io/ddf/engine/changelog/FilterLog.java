package io.ddf.engine.changelog;

import io.ddf.engine.spi.ChangeRecorder;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.LogBinding;
import io.ddf.persistence.log.LogFormat;
import io.ddf.persistence.log.LogReader;
import io.ddf.persistence.log.Recovery;

import java.util.UUID;

/**
 * One filter's binding to its change log (FORMAT-LOG.md): its number, its records ({@link ChangeRecorder}), the open
 * path's decision and replay ({@link #attach}), and its checkpoints ({@link #checkpoint()}). The same for a fixed-size
 * filter file and a scaling file: they differ in where the header fields are ({@link LogBinding}) and how their pages
 * are forced.
 */
public final class FilterLog implements ChangeRecorder
{
    /**
     * Records replayed per group touched ahead: as a batch's stream (internal BatchStream's 16), enough misses in
     * flight to cover a memory latency, few enough that the group's lines stay in L1.
     */
    static final int GROUP = 16;
    /** An impossible sum of touched words, so that the reads feeding it cannot be optimised away. */
    private static final long TOUCH_SENTINEL = 0x7DDF_7DDF_7DDF_7DDFL;
    @SuppressWarnings("unused")
    private static volatile long touchSink;

    private final ChangeLog log;
    private final int number;
    private final LogBinding binding;
    private final Runnable forcePages;
    private final Recovery recovery;
    private final Object checkpointLock = new Object();

    private FilterLog(final ChangeLog log, final int number, final LogBinding binding, final Runnable forcePages,
        final Recovery recovery)
    {
        this.log = log;
        this.number = number;
        this.binding = binding;
        this.forcePages = forcePages;
        this.recovery = recovery;
    }

    /** How the file was found at open. */
    public enum Found
    {
        /** Made by this open. */
        CREATED,
        /** Closed cleanly (its seal matched). */
        SEALED,
        /** Not closed cleanly. */
        NOT_SEALED
    }

    /**
     * The open path (FORMAT-LOG.md, "Opening a filter written through a log"): decides from the seal, the header's log
     * id and boot id whether to replay, replays the filter's records from its checkpoint when the machine restarted
     * since, then ties the file to the log (number, boot id now) and forces its header. After a replay the filter is
     * checkpointed.
     *
     * @param log        the log.
     * @param binding    the file's header fields.
     * @param found      how the file was found.
     * @param target     replays one record onto the table.
     * @param forcePages forces the file's pages (msync, fsync).
     * @return the binding, {@link #recovery()} saying what was done.
     */
    public static FilterLog attach(final ChangeLog log, final LogBinding binding, final Found found,
        final ReplayTarget target, final Runnable forcePages)
    {
        final UUID boot = BootId.current();
        final long end = log.appended();
        final boolean ours = binding.logId() == log.logId() && binding.number() != 0;
        final long checkpoint = binding.checkpoint();
        Recovery recovery;
        int number = ours ? binding.number() : 0;
        if (found == Found.CREATED)
        {
            recovery = Recovery.of(Recovery.Outcome.CREATED, end, end);
        }
        else if (binding.logId() == 0)
        {
            recovery = Recovery.of(Recovery.Outcome.ATTACHED, end, end);
        }
        else if (found == Found.SEALED)
        {
            recovery = Recovery.of(Recovery.Outcome.SEALED, checkpoint, end);
        }
        else if (!ours || checkpoint < log.start())
        {
            recovery = Recovery.of(Recovery.Outcome.NO_LOG, checkpoint, end);
        }
        else if (binding.bootId().equals(boot) && !BootId.unknown(boot))
        {
            recovery = Recovery.of(Recovery.Outcome.SAME_BOOT, checkpoint, end);
        }
        else
        {
            recovery = replay(log, number, Math.min(checkpoint, end), end, target);
        }
        if (number == 0)
        {
            number = log.newFilterNumber();
        }
        final long from = ours && recovery.outcome() != Recovery.Outcome.REPLAYED ? Math.min(checkpoint, end) :
            log.appended();
        binding.attach(log.logId(), number, from, ours ? binding.checkpointMillis() : System.currentTimeMillis());
        binding.bootId(boot);
        if (recovery.outcome() == Recovery.Outcome.REPLAYED)
        {
            forcePages.run();
        }
        binding.force();
        return new FilterLog(log, number, binding, forcePages, recovery);
    }

    /**
     * Replays the filter's records. A target with {@link ReplayTarget#lanes() lanes}: {@link BatchReplay} (each frame
     * read and checked once, batches decoded, applied by one lane, or more on request). Else in groups of {@link #GROUP}: a reader
     * ahead finds the group's records, then their table lines are touched in one tight loop
     * ({@link ReplayTarget#touch}: the misses overlap), then the replaying reader reads the same frames, checks each
     * again itself and applies the filter's. A record is applied only when a reader found it valid (FORMAT-LOG.md).
     */
    private static Recovery replay(final ChangeLog log, final int number, final long from, final long end,
        final ReplayTarget target)
    {
        final long started = System.nanoTime();
        final ReplayLanes lanes = target.lanes();
        final int threads = BatchReplay.threads();
        if (lanes != null && threads > 0)
        {
            final long applied = BatchReplay.replay(log.reader(from), number, target, lanes, threads);
            return new Recovery(Recovery.Outcome.REPLAYED, applied, System.nanoTime() - started, from, end);
        }
        long records = 0;
        long touched = 0;
        final LogReader ahead = log.reader(from);
        final LogReader reader = log.reader(from);
        final long[] word0 = new long[GROUP];
        final long[] hashes = new long[GROUP];
        int group;
        do
        {
            group = 0;
            while (group < GROUP && ahead.next())
            {
                if (ahead.filter() == number)
                {
                    word0[group] = ahead.word0();
                    hashes[group] = ahead.hash();
                    group++;
                }
            }
            for (int i = 0; i < group; i++)
            {
                touched += target.touch(LogFormat.op(word0[i]), LogFormat.aux(word0[i]), hashes[i]);
            }
            int applied = 0;
            while (applied < group && reader.next())
            {
                if (reader.filter() == number)
                {
                    target.apply(reader);
                    applied++;
                }
            }
            records += applied;
        }
        while (group == GROUP);
        sink(touched);
        return new Recovery(Recovery.Outcome.REPLAYED, records, System.nanoTime() - started, from, end);
    }

    /** Keeps a sum of touched words alive (so that the reads feeding it are not optimised away). */
    static void sink(final long touched)
    {
        if (touched == TOUCH_SENTINEL)
        {
            touchSink = touched;
        }
    }

    /** @return what the open did. */
    public Recovery recovery()
    {
        return recovery;
    }

    /** @return the log. */
    public ChangeLog log()
    {
        return log;
    }

    /** @return the filter's number in the log. */
    public int number()
    {
        return number;
    }

    @Override
    public long record(final int op, final int aux, final long hash, final long arg)
    {
        return log.append(number, op, aux, hash, arg);
    }

    @Override
    public long record2(final int op, final int aux, final long hash, final long arg, final long arg3,
        final long arg4, final long arg5, final long arg6)
    {
        return log.append2(number, op, aux, hash, arg, arg3, arg4, arg5, arg6);
    }

    /** @return the checkpoint position the header holds now. */
    public long checkpointPosition()
    {
        return binding.checkpoint();
    }

    /**
     * A checkpoint (FORMAT-LOG.md, "Checkpoints"): P := the log's appended position, forced in the log; the pages
     * forced; P recorded in the header and forced. Writers never wait; checkpoints of one filter run one at a time.
     *
     * @return what it did.
     */
    public Checkpoint checkpoint()
    {
        synchronized (checkpointLock)
        {
            final long started = System.nanoTime();
            final long millis = System.currentTimeMillis();
            final long p = log.appended();
            log.force(p);
            forcePages.run();
            binding.checkpoint(p, millis);
            binding.force();
            return new Checkpoint(p, millis, System.nanoTime() - started, true);
        }
    }

    /**
     * Before a clean close: records P = the appended position (forced in the log), so that an older build that later
     * opens the file, writes and crashes finds nothing of this filter to replay after it. The close forces the file.
     */
    public void closing()
    {
        final long p = log.appended();
        log.force(p);
        binding.checkpoint(p, System.currentTimeMillis());
    }
}
