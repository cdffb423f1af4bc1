package io.ddf.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.ddf.bench.jmh.GuavaSizing;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import org.agrona.collections.LongHashSet;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;

/**
 * The hot path side by side (issue 11), in one JVM and interleaved rounds: QHT (k = 4, s = 16) {@code stream(long)}
 * in single-writer and shared mode, two threads sharing one shared-mode filter, Agrona's {@code LongHashSet} of the
 * same memory (cleared when full) and Guava's {@code BloomFilter<Long>.put} at the same bits, at 1 Mbit and 1 Gbit.
 * Every round runs every contender for the same time, one after the other, so that a load spike on the (shared)
 * machine hits all of them; the table gives the median and the range over the rounds, and the bytes allocated per
 * operation (ThreadMXBean's per-thread allocation counter, over the same rounds).
 *
 * <p>Keys: a fixed pool of 2^22 random longs, xor-ed with a salt that changes at every pass over the pool, so that
 * no contender sees the same key twice in a row of passes (a 1 Gbit filter would otherwise answer the second pass
 * from its rows without writing). Every contender pays the same key cost.
 *
 * <p>Usage: {@code HotPathBench OUTPUT.md [ROUNDS] [ROUND_MS] [DIR]}: defaults 7 rounds (the first two are warm-up
 * and not recorded), 400 ms per contender per round, files in a temporary directory. Built against a revision
 * without single-writer mode (before issue 11) it still runs and marks those rows absent.
 */
public final class HotPathBench
{
    private static final int POOL_BITS = 22;
    private static final int POOL_MASK = (1 << POOL_BITS) - 1;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final int CHUNK = 1 << 14;
    private static final int WARMUP_ROUNDS = 2;
    private static final long[] SIZES = {1L << 20, 1L << 30};

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    /** Keys per call of the batch API. */
    private static final int BATCH = 256;
    private static final java.lang.invoke.MethodHandle STREAM_BATCH = streamBatchHandle();
    /** io.ddf.engine.SyncPolicy, or null in a revision from before the sync policies. */
    private static final Class<?> SYNC_POLICY = syncPolicyClass();
    /** The rows of filters whose stores mark their pages (sync policy everysec) start so. */
    private static final String EVERYSEC = "sync everysec (pages marked): ";
    /** The rows of the same, their background syncs paused while they run: what the marks alone cost. */
    private static final String MARKS_ONLY = "sync everysec, syncs paused (marks only): ";
    private static long[] pool;
    private static long sink;

    private HotPathBench()
    {
    }

    /** One thing measured: runs its operation on keys from a cursor until a deadline. */
    private abstract static class Contender
    {
        final String name;
        final long memoryBits;
        final int threads;
        final List<double[]> rounds = new ArrayList<>(); // ns per op (total time / total ops), bytes per op

        Contender(final String name, final long memoryBits, final int threads)
        {
            this.name = name;
            this.memoryBits = memoryBits;
            this.threads = threads;
        }

        /**
         * @param cursor   where in the key sequence to start.
         * @param deadline System.nanoTime() to stop at (checked every chunk).
         * @return operations done.
         */
        abstract long run(long cursor, long deadline);

        void close()
        {
        }
    }

    private static class FilterContender extends Contender
    {
        final DuplicateFilter filter;

        FilterContender(final String name, final long memoryBits, final int threads, final DuplicateFilter filter)
        {
            super(name, memoryBits, threads);
            this.filter = filter;
        }

        @Override
        long run(final long cursor, final long deadline)
        {
            return streamLoop(filter, cursor, deadline);
        }

        @Override
        void close()
        {
            filter.close();
        }
    }

    /**
     * A filter contender whose background syncs (issue 24) are paused while it runs: the page marks' cost alone, without
     * the page faults each sync causes (the kernel write-protects the pages it writes back).
     */
    private static final class PausedSyncContender extends FilterContender
    {
        PausedSyncContender(final String name, final long memoryBits, final int threads, final DuplicateFilter filter)
        {
            super(name, memoryBits, threads, filter);
        }

        @Override
        long run(final long cursor, final long deadline)
        {
            pauseSyncs(true);
            try
            {
                return super.run(cursor, deadline);
            }
            finally
            {
                pauseSyncs(false);
            }
        }
    }

    /** BackgroundSync.pause, by reflection so that this source builds against revisions without it. */
    private static void pauseSyncs(final boolean pause)
    {
        try
        {
            Class.forName("io.ddf.engine.internal.BackgroundSync").getMethod("pause", boolean.class).invoke(null, pause);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new IllegalStateException("this revision cannot pause its syncs", e);
        }
    }

    /**
     * {@code stream(long[], int, int, boolean[])} on batches of {@link #BATCH} keys, called through a method handle
     * so that this same source still builds against a revision from before the batch API (its rows are absent).
     */
    private static final class BatchContender extends Contender
    {
        final DuplicateFilter filter;
        final long[] keys = new long[BATCH];
        final boolean[] verdicts = new boolean[BATCH];

        BatchContender(final String name, final long memoryBits, final int threads, final DuplicateFilter filter)
        {
            super(name, memoryBits, threads);
            this.filter = filter;
        }

        @Override
        long run(final long from, final long deadline)
        {
            long cursor = from;
            long duplicates = 0;
            final long[] batch = threads == 1 ? keys : new long[BATCH];
            final boolean[] out = threads == 1 ? verdicts : new boolean[BATCH];
            try
            {
                do
                {
                    for (int i = 0; i < CHUNK; i += BATCH)
                    {
                        for (int j = 0; j < BATCH; j++, cursor++)
                        {
                            batch[j] = key(cursor);
                        }
                        duplicates += (int)STREAM_BATCH.invokeExact(filter, batch, 0, BATCH, out);
                    }
                }
                while (System.nanoTime() < deadline);
            }
            catch (final Throwable t)
            {
                throw new IllegalStateException(t);
            }
            sink += duplicates;
            return cursor - from;
        }
    }

    /** {@link QhtReplica}: QHT's algorithm alone, on the heap, for the floor under {@code stream}. */
    private static final class ReplicaContender extends Contender
    {
        final QhtReplica replica;

        ReplicaContender(final String name, final long memoryBits, final boolean oneHash)
        {
            super(name, memoryBits, 1);
            replica = new QhtReplica(memoryBits, 1, oneHash);
        }

        @Override
        long run(final long from, final long deadline)
        {
            long cursor = from;
            long duplicates = 0;
            do
            {
                for (int i = 0; i < CHUNK; i++, cursor++)
                {
                    duplicates += replica.stream(key(cursor)) ? 1 : 0;
                }
            }
            while (System.nanoTime() < deadline);
            sink += duplicates;
            return cursor - from;
        }
    }

    private static final class HashSetContender extends Contender
    {
        final LongHashSet set;
        final int threshold;

        HashSetContender(final long memoryBits)
        {
            super("Agrona LongHashSet.add (same memory, cleared when full)", memoryBits, 1);
            set = new LongHashSet(Math.toIntExact(memoryBits / Long.SIZE), 0.65f);
            threshold = set.resizeThreshold();
        }

        @Override
        long run(final long cursor, final long deadline)
        {
            return hashSetLoop(set, threshold, cursor, deadline);
        }
    }

    private static final class GuavaContender extends Contender
    {
        final BloomFilter<Long> bloom;

        GuavaContender(final long memoryBits)
        {
            super("Guava BloomFilter<Long>.put (fpp 0.01, same bits)", memoryBits, 1);
            bloom = BloomFilter.create(Funnels.longFunnel(), GuavaSizing.expectedInsertions(memoryBits),
                GuavaSizing.FPP);
        }

        @Override
        long run(final long cursor, final long deadline)
        {
            return guavaLoop(bloom, cursor, deadline);
        }
    }

    private static long key(final long cursor)
    {
        return pool[(int)cursor & POOL_MASK] ^ ((cursor >>> POOL_BITS) * GOLDEN);
    }

    private static long streamLoop(final DuplicateFilter filter, final long from, final long deadline)
    {
        long cursor = from;
        long duplicates = 0;
        do
        {
            for (int i = 0; i < CHUNK; i++, cursor++)
            {
                duplicates += filter.stream(key(cursor)) == Verdict.DUPLICATE ? 1 : 0;
            }
        }
        while (System.nanoTime() < deadline);
        sink += duplicates;
        return cursor - from;
    }

    private static long hashSetLoop(final LongHashSet set, final int threshold, final long from, final long deadline)
    {
        long cursor = from;
        long duplicates = 0;
        do
        {
            for (int i = 0; i < CHUNK; i++, cursor++)
            {
                if (set.size() >= threshold)
                {
                    set.clear();
                }
                duplicates += set.add(key(cursor)) ? 0 : 1;
            }
        }
        while (System.nanoTime() < deadline);
        sink += duplicates;
        return cursor - from;
    }

    private static long guavaLoop(final BloomFilter<Long> bloom, final long from, final long deadline)
    {
        long cursor = from;
        long duplicates = 0;
        do
        {
            for (int i = 0; i < CHUNK; i++, cursor++)
            {
                duplicates += bloom.put(key(cursor)) ? 0 : 1;
            }
        }
        while (System.nanoTime() < deadline);
        sink += duplicates;
        return cursor - from;
    }

    /**
     * @param args output file, rounds, ms per contender per round, directory for the filter files.
     * @throws Exception on I/O failure or interruption.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path output = Path.of(args[0]);
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        final long roundNs = (args.length > 2 ? Long.parseLong(args[2]) : 400) * 1_000_000L;
        final Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("ddf-hotpath");
        pool = new SplittableRandom(42).longs(1 << POOL_BITS).toArray();
        final String uptimeBefore = uptime();
        final boolean hasSingleWriter = hasSingleWriter();
        final List<Contender> contenders = new ArrayList<>();
        try
        {
            for (final long bits : SIZES)
            {
                if (hasSingleWriter)
                {
                    contenders.add(new FilterContender("QHT k=4 s=16 stream(long), single-writer", bits, 1,
                        qht(bits, dir, "sw", true)));
                }
                final DuplicateFilter shared = qht(bits, dir, "shared", false);
                contenders.add(new FilterContender("QHT k=4 s=16 stream(long), shared", bits, 1, shared));
                contenders.add(new FilterContender("QHT shared, 2 threads on one filter (total)", bits, 2, shared));
                if (STREAM_BATCH != null)
                {
                    contenders.add(new BatchContender("QHT k=4 s=16 stream(long[" + BATCH + "]) batch, single-writer",
                        bits, 1, qht(bits, dir, "batch-sw", true)));
                    final DuplicateFilter batchShared = qht(bits, dir, "batch-shared", false);
                    contenders.add(new BatchContender("QHT k=4 s=16 stream(long[" + BATCH + "]) batch, shared", bits, 1,
                        batchShared));
                    contenders.add(new BatchContender("QHT batch shared, 2 threads on one filter (total)", bits, 2,
                        batchShared));
                }
                if (hasSyncPolicy() && hasSingleWriter && STREAM_BATCH != null)
                {
                    // issue 24: the same filters with sync policy everysec, whose stores mark their pages (the rows
                    // above are built with policy no: nothing marked, as before the policies existed)
                    contenders.add(new FilterContender(EVERYSEC + "QHT stream(long), single-writer", bits, 1,
                        qht(bits, dir, "sw-everysec", true, "EVERYSEC")));
                    final DuplicateFilter sharedSynced = qht(bits, dir, "shared-everysec", false, "EVERYSEC");
                    contenders.add(new FilterContender(EVERYSEC + "QHT stream(long), shared", bits, 1, sharedSynced));
                    contenders.add(new FilterContender(EVERYSEC + "QHT shared, 2 threads on one filter (total)", bits,
                        2, sharedSynced));
                    contenders.add(new BatchContender(EVERYSEC + "QHT stream(long[" + BATCH + "]) batch, single-writer",
                        bits, 1, qht(bits, dir, "batch-sw-everysec", true, "EVERYSEC")));
                    // the marks alone: the background syncs paused while these run, so no page faults after a sync
                    contenders.add(new PausedSyncContender(MARKS_ONLY + "QHT stream(long), single-writer", bits, 1,
                        qht(bits, dir, "sw-marks", true, "EVERYSEC")));
                    contenders.add(new PausedSyncContender(MARKS_ONLY + "QHT shared, 2 threads on one filter (total)",
                        bits, 2, qht(bits, dir, "shared-marks", false, "EVERYSEC")));
                }
                contenders.add(new ReplicaContender("floor: QHT's algorithm on a heap long[], ddf's derivation (no file, "
                    + "no counters)", bits, false));
                contenders.add(new ReplicaContender("floor: the same, fingerprint and victim from the hash's own bits "
                    + "(a format change)", bits, true));
                contenders.add(new HashSetContender(bits));
                contenders.add(new GuavaContender(bits));
            }
            // -Dhotpath.only=REGEX keeps the contenders whose "size name" matches (for profiling one of them)
            final String only = System.getProperty("hotpath.only");
            // the finally block closes every filter made (all of "contenders"), measured or not
            final List<Contender> measured = new ArrayList<>(contenders);
            if (only != null)
            {
                measured.removeIf(c -> !(HotPathReport.size(c.memoryBits) + " " + c.name).matches(only));
            }
            long cursor = 0;
            for (int round = 0; round < rounds; round++)
            {
                for (final Contender contender : measured)
                {
                    final double[] result = contender.threads == 1 ? timeOne(contender, cursor, roundNs) :
                        timeMany(contender, cursor, roundNs);
                    cursor += 1L << 40; // disjoint keys for every run
                    if (round >= WARMUP_ROUNDS)
                    {
                        contender.rounds.add(result);
                    }
                    System.out.printf(Locale.ROOT, "round %d %s %s: %.1f ns/op, %.1f CPU ns/op, %.2f B/op%n",
                        round, HotPathReport.size(contender.memoryBits), contender.name, result[0], result[2], result[1]);
                }
            }
            if (only == null)
            {
                HotPathReport.write(output, contenders.stream().map(c -> new HotPathReport.Row(c.name, c.memoryBits, c.rounds))
                    .toList(), SIZES, hasSingleWriter, rounds, roundNs, WARMUP_ROUNDS, uptimeBefore, uptime());
            }
            System.out.println("sink " + sink + "; wrote " + (only == null ? output : "nothing (hotpath.only)"));
        }
        finally
        {
            final java.util.Set<DuplicateFilter> closed = new java.util.HashSet<>();
            for (final Contender contender : contenders)
            {
                final DuplicateFilter filter = contender instanceof FilterContender f ? f.filter :
                    contender instanceof BatchContender b ? b.filter : null;
                if (filter == null || closed.add(filter))
                {
                    contender.close();
                }
            }
            try (var files = Files.list(dir))
            {
                for (final Path file : files.toList())
                {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static DuplicateFilter qht(final long bits, final Path dir, final String tag, final boolean singleWriter)
        throws ReflectiveOperationException
    {
        return qht(bits, dir, tag, singleWriter, "NO");
    }

    /**
     * @param policy the sync policy's name (issue 24), given where the revision has policies: NO for the rows that
     *               measured the hot path before them, EVERYSEC for those that measure the page marks.
     */
    private static DuplicateFilter qht(final long bits, final Path dir, final String tag, final boolean singleWriter,
        final String policy) throws ReflectiveOperationException
    {
        FilterBuilder builder = Filters.builder(FilterKind.QHT).memoryBits(bits).buckets(4).fingerprintBits(16)
            .seed(1).file(dir.resolve("qht-" + tag + "-" + bits + ".ddf"));
        if (singleWriter)
        {
            // by reflection, so that the same source measures a revision from before single-writer mode
            builder = (FilterBuilder)FilterBuilder.class.getMethod("singleWriter").invoke(builder);
        }
        if (hasSyncPolicy())
        {
            @SuppressWarnings({"unchecked", "rawtypes"})
            final Object value = Enum.valueOf((Class)SYNC_POLICY, policy);
            builder = (FilterBuilder)FilterBuilder.class.getMethod("sync", SYNC_POLICY).invoke(builder, value);
        }
        return builder.create();
    }

    /** @return whether the revision measured has sync policies (issue 24). */
    private static boolean hasSyncPolicy()
    {
        return SYNC_POLICY != null;
    }

    private static Class<?> syncPolicyClass()
    {
        try
        {
            return Class.forName("io.ddf.engine.SyncPolicy");
        }
        catch (final ClassNotFoundException e)
        {
            return null;
        }
    }

    /** @return DuplicateFilter.stream(long[], int, int, boolean[]), or null in a revision without it. */
    private static java.lang.invoke.MethodHandle streamBatchHandle()
    {
        try
        {
            return java.lang.invoke.MethodHandles.publicLookup().findVirtual(DuplicateFilter.class, "stream",
                java.lang.invoke.MethodType.methodType(int.class, long[].class, int.class, int.class,
                    boolean[].class));
        }
        catch (final ReflectiveOperationException e)
        {
            return null;
        }
    }

    private static boolean hasSingleWriter()
    {
        try
        {
            FilterBuilder.class.getMethod("singleWriter");
            return true;
        }
        catch (final NoSuchMethodException e)
        {
            return false;
        }
    }

    private static double[] timeOne(final Contender contender, final long cursor, final long roundNs)
    {
        final long thread = Thread.currentThread().getId();
        final long allocated = THREADS.getThreadAllocatedBytes(thread);
        final long cpu = THREADS.getCurrentThreadCpuTime();
        final long start = System.nanoTime();
        final long ops = contender.run(cursor, start + roundNs);
        final long ns = System.nanoTime() - start;
        final long cpuNs = THREADS.getCurrentThreadCpuTime() - cpu;
        final long bytes = THREADS.getThreadAllocatedBytes(thread) - allocated;
        return new double[] {(double)ns / ops, (double)bytes / ops, (double)cpuNs / ops};
    }

    private static double[] timeMany(final Contender contender, final long cursor, final long roundNs)
        throws InterruptedException
    {
        final int n = contender.threads;
        final long[] ops = new long[n];
        final long[] bytes = new long[n];
        final long[] starts = new long[n];
        final long[] ends = new long[n];
        final long[] cpu = new long[n];
        final CyclicBarrier barrier = new CyclicBarrier(n);
        final Thread[] workers = new Thread[n];
        for (int t = 0; t < n; t++)
        {
            final int index = t;
            workers[t] = new Thread(() ->
            {
                try
                {
                    barrier.await();
                }
                catch (final Exception e)
                {
                    throw new IllegalStateException(e);
                }
                final long id = Thread.currentThread().getId();
                final long allocated = THREADS.getThreadAllocatedBytes(id);
                final long cpuStart = THREADS.getCurrentThreadCpuTime();
                starts[index] = System.nanoTime();
                ops[index] = contender.run(cursor + ((long)index << 36), starts[index] + roundNs);
                ends[index] = System.nanoTime();
                cpu[index] = THREADS.getCurrentThreadCpuTime() - cpuStart;
                bytes[index] = THREADS.getThreadAllocatedBytes(id) - allocated;
            }, "hotpath-" + t);
            workers[t].start();
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
        final long wall = Arrays.stream(ends).max().orElseThrow() - Arrays.stream(starts).min().orElseThrow();
        final long total = Arrays.stream(ops).sum();
        // CPU per op of two threads is summed over both: the cost of an element, not the throughput
        return new double[] {(double)wall / total, (double)Arrays.stream(bytes).sum() / total,
            (double)Arrays.stream(cpu).sum() / total};
    }

    private static String uptime()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).trim() + " (/proc/loadavg: 1, 5, 15 min load)";
        }
        catch (final IOException e)
        {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
