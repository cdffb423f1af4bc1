package io.ddf.engine.changelog;

import io.ddf.persistence.log.LogFormat;
import io.ddf.persistence.log.LogReader;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * The replay of a target that has {@link ReplayLanes}: one reader reads and checks each frame once and decodes a
 * batch of the filter's local records into arrays; the lanes (this thread and {@code threads - 1} others) each scan
 * the whole batch, touch their share of a window of records ahead, then apply it, in log order; a barrier record ends
 * the batch, and is applied alone once the lanes have finished and merged. The next batch is decoded once every lane
 * has finished the last. Each lane is the single writer of its part of the table, so the result is exactly the
 * sequential replay's (see {@link ReplayLanes}).
 */
final class BatchReplay
{
    /**
     * Records decoded per batch: few enough that the batch's arrays stay in L2, many enough that the lanes' meetings,
     * two a batch, are rare. (Measured: batches of 2^15 and 2^17 records applied in order of the page they write, for
     * fewer TLB misses, replayed 8-14 % slower than 4096 in log order: bench/results/changelog/
     * replay-2026-11-29T1730.md.)
     */
    static final int BATCH = 4096;
    /**
     * Overrides the lane count (1: one lane, the replaying thread; 0: no lanes, every record by
     * {@link ReplayTarget#apply} as for a target without lanes); see {@link #threads}.
     */
    static final String THREADS_PROPERTY = "ddf.replay.threads";

    private final int[] ops = new int[BATCH];
    private final int[] auxes = new int[BATCH];
    private final long[] hashes = new long[BATCH];
    private final long[] args = new long[BATCH];
    private final long[] args3 = new long[BATCH];
    private final ReplayLanes.ReplayLane[] lanes;
    private int size;
    private long touched;

    private BatchReplay(final ReplayLanes target, final int count)
    {
        lanes = new ReplayLanes.ReplayLane[count];
        for (int i = 0; i < count; i++)
        {
            lanes[i] = target.lane(i, count);
        }
    }

    /**
     * The lanes of a replay: the property {@value #THREADS_PROPERTY} when set (at most 64), else 1. Measured on the
     * 2-core machine of issue 31 at load 3 (bench/results/changelog/replay-2026-11-29T1730.md): 2 lanes replayed the
     * default chain at 0.70x the records/s of 1 lane and cost about twice the CPU per record: the second core was
     * busy with other work, and a lane waits at each batch for the slower one. Where a restart has a core to itself
     * 2 lanes may pay; it is not measured here, so not the default.
     *
     * @return the lanes (0: none, the record-by-record replay).
     */
    static int threads()
    {
        return Math.max(0, Math.min(Integer.getInteger(THREADS_PROPERTY, 1), 64));
    }

    /**
     * Replays by one lane or {@code count}; one lane of a target whose lanes have {@link ReplayLanes#lines() lines}
     * goes through {@link SortedReplay} instead when {@link SortedReplay#chunk} says so: the default for the ddf
     * chain since 2026-11-30 (about twice the records per CPU-second of one lane in log order at the log's bound: see
     * {@link SortedReplay#DEFAULT_CHUNK}), not for the quotient kinds (no gain measured), unless
     * {@value SortedReplay#CHUNK_PROPERTY} asks.
     *
     * @param reader the reader, before the first frame to replay.
     * @param number the filter's number.
     * @param target applies the barrier records.
     * @param local  the target's lanes.
     * @param count  the lanes.
     * @return the records applied (the filter's, up to the end or the first frame that does not validate).
     */
    static long replay(final LogReader reader, final int number, final ReplayTarget target, final ReplayLanes local,
        final int count)
    {
        final ReplayLines lines = count == 1 ? local.lines() : null;
        final int chunk = lines == null ? 0 : SortedReplay.chunk(lines);
        if (chunk > 0)
        {
            return SortedReplay.replay(reader, number, target, local, lines, chunk);
        }
        final BatchReplay replay = new BatchReplay(local, count);
        return count == 1 ? replay.alone(reader, number, target, local) : replay.inParallel(reader, number, target,
            local);
    }

    private long alone(final LogReader reader, final int number, final ReplayTarget target, final ReplayLanes local)
    {
        long records = 0;
        boolean more = true;
        while (more)
        {
            final boolean barrier = decode(reader, number, local);
            more = barrier || size == BATCH;
            touched += run(lanes[0], 1);
            records += size;
            if (barrier)
            {
                lanes[0].merge();
                target.apply(reader);
                records++;
            }
        }
        lanes[0].merge();
        FilterLog.sink(touched);
        return records;
    }

    private long inParallel(final LogReader reader, final int number, final ReplayTarget target,
        final ReplayLanes local)
    {
        final CyclicBarrier meet = new CyclicBarrier(lanes.length);
        final Worker[] workers = new Worker[lanes.length - 1];
        for (int i = 0; i < workers.length; i++)
        {
            workers[i] = new Worker(lanes[i + 1], meet);
            workers[i].start();
        }
        boolean finished = false;
        try
        {
            long records = 0;
            boolean more = true;
            while (more)
            {
                final boolean barrier = decode(reader, number, local);
                more = barrier || size == BATCH;
                if (size > 0)
                {
                    await(meet); // the batch is there: every lane runs it
                    touched += run(lanes[0], lanes.length);
                    await(meet); // every lane has finished it
                    failed(workers);
                    records += size;
                }
                if (barrier)
                {
                    merge();
                    target.apply(reader);
                    records++;
                }
            }
            merge();
            FilterLog.sink(touched);
            size = -1;
            await(meet); // the workers see the end
            finished = true;
            return records;
        }
        finally
        {
            for (final Worker worker : workers)
            {
                if (!finished)
                {
                    worker.interrupt();
                }
                joinUninterruptibly(worker);
            }
        }
    }

    private void merge()
    {
        for (final ReplayLanes.ReplayLane lane : lanes)
        {
            lane.merge();
        }
    }

    /** Decodes the filter's next local records; @return whether it stopped at a barrier (the reader at it). */
    private boolean decode(final LogReader reader, final int number, final ReplayLanes local)
    {
        size = 0;
        while (size < BATCH && reader.next())
        {
            if (reader.filter() != number)
            {
                continue;
            }
            final long w0 = reader.word0();
            final int op = LogFormat.op(w0);
            final int aux = LogFormat.aux(w0);
            final int units = LogFormat.units(w0);
            if (!local.local(op, aux, units))
            {
                return true;
            }
            ops[size] = op;
            auxes[size] = aux;
            hashes[size] = reader.hash();
            args[size] = reader.arg();
            args3[size] = units == 2 ? reader.arg(3) : 0;
            size++;
        }
        return false;
    }

    /** One lane over the batch: touches a window of records (its share of them), then applies them. */
    private long run(final ReplayLanes.ReplayLane lane, final int count)
    {
        final int window = FilterLog.GROUP * count;
        long sum = 0;
        for (int from = 0; from < size; from += window)
        {
            final int to = Math.min(size, from + window);
            for (int i = from; i < to; i++)
            {
                sum += lane.touch(ops[i], auxes[i], hashes[i]);
            }
            for (int i = from; i < to; i++)
            {
                lane.apply(ops[i], auxes[i], hashes[i], args[i], args3[i]);
            }
        }
        return sum;
    }

    private static void failed(final Worker[] workers)
    {
        for (final Worker worker : workers)
        {
            if (worker.failure != null)
            {
                throw new IllegalStateException("a replay lane failed: " + worker.failure, worker.failure);
            }
        }
    }

    private static void await(final CyclicBarrier meet)
    {
        try
        {
            meet.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("replay interrupted", e);
        }
        catch (final BrokenBarrierException e)
        {
            throw new IllegalStateException("a replay lane stopped", e);
        }
    }

    private static void joinUninterruptibly(final Thread thread)
    {
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A lane on its own thread: runs each batch between the two meetings, until the batch of size -1. */
    private final class Worker extends Thread
    {
        private final ReplayLanes.ReplayLane lane;
        private final CyclicBarrier meet;
        private volatile Throwable failure;
        private long sum;

        Worker(final ReplayLanes.ReplayLane lane, final CyclicBarrier meet)
        {
            super("ddf-replay-lane");
            setDaemon(true);
            this.lane = lane;
            this.meet = meet;
        }

        @Override
        public void run()
        {
            try
            {
                while (true)
                {
                    meet.await();
                    if (size < 0)
                    {
                        FilterLog.sink(sum);
                        return;
                    }
                    if (failure == null)
                    {
                        try
                        {
                            sum += BatchReplay.this.run(lane, lanes.length);
                        }
                        catch (final RuntimeException | Error e)
                        {
                            failure = e;
                        }
                    }
                    meet.await();
                }
            }
            catch (final InterruptedException | BrokenBarrierException e)
            {
                // the replaying thread gave up (it failed itself): nothing more to do
            }
        }
    }
}
