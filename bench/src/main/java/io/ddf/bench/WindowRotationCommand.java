package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.TimeWindow;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ddf bench window-rotation}: the largest single {@code stream} latency across turns by time of a fifo-bloom
 * with a window of time (layout 2.1), as {@code ddf bench rotation} measures the turn by count. The filter's clock is
 * injected, so that a turn comes when the run says, not after a slice of real time: each generation gets
 * {@code --per-generation} new items, then the clock moves past the newest generation's turn and the next call turns.
 *
 * <ul>
 *   <li>{@code --per-generation} at least the sweep's tickets (B / 64, about 200,000 at 10^9): every generation is
 *       swept whole by its own items, so a turn reuses a live slot: the steady case.</li>
 *   <li>few (the default, 10): no generation is swept, every slot is left stale, and from the 2L-th turn on each turn
 *       reuses a stale slot and seals its map in the turning call: the worst case of a turn by time.</li>
 *   <li>{@code --jump} moves the clock a whole day per turn (every generation expired at each turn).</li>
 *   <li>{@code --gap-ms} sleeps that long before each turn: the rest of the slice in real time, in which the filter's
 *       own threads (its sealing thread) work; without it time runs as fast as the calls (event time in a
 *       backfill), and a seal the thread has not finished falls to the turning call.</li>
 * </ul>
 * Prints, per turn, the turning call's wall and CPU time, page faults and the time its thread was runnable but not
 * running (the kernel's run-queue wait: on two cores, another thread or process had them), the percentiles of every
 * other call, the p99.9 and maximum of every call, wall and CPU, and the largest wall time less that wait.
 * {@code --kind aged-cuckoo} measures the aged cuckoo table's window instead (its turn stores a stamp's end time; its sweep is deferred work), with its own default slices.
 */
@Command(name = "window-rotation", mixinStandardHelpOptions = true,
    description = "Largest stream() latency across turns by time of a fifo-bloom with a window of time.")
final class WindowRotationCommand implements java.util.concurrent.Callable<Integer>
{
    @Option(names = "--capacity", defaultValue = "1000000000", description = "Capacity n (default: ${DEFAULT-VALUE}).")
    private long capacity;

    @Option(names = "--error-rate", defaultValue = "0.01", description = "Error rate (default: ${DEFAULT-VALUE}).")
    private double errorRate;

    @Option(names = "--slices", description = "Slices L (default: the kind's, 2 for fifo-bloom).")
    private Integer slices;

    @Option(names = "--kind", defaultValue = "fifo-bloom", description = "fifo-bloom (default) or aged-cuckoo.")
    private String kind;

    @Option(names = "--turns", defaultValue = "12", description = "Turns by time to time (default: ${DEFAULT-VALUE}).")
    private int turns;

    @Option(names = "--per-generation", defaultValue = "10",
        description = "New items each generation gets before its turn (default: ${DEFAULT-VALUE}).")
    private long perGeneration;

    @Option(names = "--jump", description = "Move the clock a day per turn instead of one slice.")
    private boolean jump;

    @Option(names = "--gap-ms", defaultValue = "0", description = "Real milliseconds between a slice's last call and "
        + "the turn: the rest of the slice, in which the filter's own threads work (default: ${DEFAULT-VALUE}, "
        + "time running as fast as the calls, as event time in a backfill).")
    private long gapMillis;

    @Option(names = "--trace-turns", description = "Print each turning call's span on System.nanoTime's clock (Linux: "
        + "CLOCK_MONOTONIC, as `perf record -k CLOCK_MONOTONIC` stamps events) and the filter file's mappings, to "
        + "match a trace of the process's page faults to the turns.")
    private boolean traceTurns;

    @Option(names = "--await-realtime", defaultValue = "0", description = "Print the measuring thread's id, then wait "
        + "up to this many seconds for it to be given a real-time policy (bench/window-rotation-rt.sh: chrt), so that "
        + "no other thread takes its core; 0 (default): measure at the policy it has.")
    private int awaitRealtimeSeconds;

    @Option(names = "--single-writer", description = "Owned mode (no locked instruction).")
    private boolean singleWriter;

    @Option(names = "--sync", defaultValue = "everysec", description = "The file's sync policy: always, everysec or "
        + "no (default: ${DEFAULT-VALUE}); with no, no background msync write-protects the pages the calls write.")
    private String sync;

    @Option(names = "--dir", required = true, description = "Directory for the filter file (deleted after).")
    private Path dir;

    @Option(names = "--warm", description = "First run a filter of 10^7 with a window through 40 turns of 10 items "
        + "(compiled code for the turn, its seal and the sweep).")
    private boolean warm;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The CPU time of each call but the turns, of the measured filter's thread. */
    private final Histogram othersCpu = new Histogram(3);
    /** The same, of the calls that took no page fault, and of those that took one or more. */
    private final Histogram noFaultCpu = new Histogram(3);
    private final Histogram faultCpu = new Histogram(3);
    private static final Duration WINDOW = Duration.ofHours(24);
    /** Other calls over this much CPU are listed one by one, with where their CPU went (user or system). */
    private static final long SLOW_CPU_NANOS = 2_000_000;
    /** At most this many of them. */
    private static final int SLOW_LISTED = 20;
    /** {@code /proc/thread-self/stat}'s fields 41 (policy) and 40 (real-time priority), counted after the name. */
    private static final int POLICY = 38;
    private static final int RT_PRIORITY = 37;
    /** Linux's scheduling policies by number ({@code sched.h}). */
    private static final String[] POLICY_NAMES = {"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "SCHED_ISO",
        "SCHED_IDLE", "SCHED_DEADLINE"};
    private static final int SCHED_FIFO = 1;
    private static final int SCHED_RR = 2;
    private static final int SCHED_DEADLINE = 6;
    private final List<String> slow = new ArrayList<>();
    /** The largest wall time of a call but the turns less its run-queue wait. */
    private long othersRunning;

    @Override
    public Integer call() throws Exception
    {
        final AtomicLong now = new AtomicLong(1_700_000_000_000L);
        final InstantSource clock = new InstantSource()
        {
            @Override
            public Instant instant()
            {
                return Instant.ofEpochMilli(now.get());
            }

            @Override
            public long millis()
            {
                return now.get();
            }
        };
        final SplittableRandom random = new SplittableRandom(42);
        if (warm)
        {
            try (DuplicateFilter small = mode(sliced(Filters.builder(FilterKind.fromName(kind))
                .param("capacity", 10_000_000L).window(WINDOW)).clock(clock)).create())
            {
                run(small, now, 40, 10, random, null, null);
            }
        }
        if (awaitRealtimeSeconds > 0)
        {
            awaitRealtime();
        }
        final Path file = dir.resolve("window-rotation-" + System.nanoTime() + ".ddf");
        try (DuplicateFilter filter = mode(sliced(Filters.builder(FilterKind.fromName(kind)).param("capacity", capacity)
            .param("target-fpr", errorRate).window(WINDOW)).clock(clock).seed(1).file(file))
            .create())
        {
            System.out.printf(Locale.ROOT, "%s window %s in %d slices, capacity %d, error %s, %s, table %d " +
                "bytes, %s%n", kind, TimeWindow.format(WINDOW), filter.timeWindow().orElseThrow().slices(), capacity,
                errorRate, singleWriter ? "single-writer" : "shared", filter.parameters().tableBytes(),
                filter.parameters().toMap().get("layout"));
            System.out.printf(Locale.ROOT, "%d new items a generation, the clock moved %s a turn, %d ms of real time "
                + "before each turn, sync %s%n", perGeneration, jump ? "a day" : "one slice", gapMillis, sync);
            System.out.printf(Locale.ROOT, "measuring thread's scheduling policy: %s%n", policy());
            final Histogram others = new Histogram(3);
            final long[] turnWall = new long[turns];
            final long[] turnCpu = new long[turns];
            final long[] turnFaults = new long[turns];
            final long[] turnStart = new long[turns];
            final long[] turnWaited = new long[turns];
            if (traceTurns)
            {
                try (java.util.stream.Stream<String> maps = Files.lines(Path.of("/proc/self/maps")))
                {
                    maps.filter(line -> line.contains(file.getFileName().toString()))
                        .forEach(line -> System.out.println("mapping: " + line));
                }
            }
            run(filter, now, turns, perGeneration, random, others,
                new long[][] {turnWall, turnCpu, turnFaults, turnStart, turnWaited});
            long runnable = 0;
            for (int t = 0; t < turns; t++)
            {
                System.out.printf(Locale.ROOT, "turn %2d: %.3f ms wall, %.3f ms CPU of its thread, %d page faults, "
                    + "%.3f ms runnable but not running%s%n", t + 1, turnWall[t] / 1e6, turnCpu[t] / 1e6, turnFaults[t],
                    turnWaited[t] / 1e6, traceTurns ? String.format(Locale.ROOT, " (span %d..%d ns)", turnStart[t],
                    turnStart[t] + turnWall[t]) : "");
                runnable = Math.max(runnable, turnWall[t] - Math.max(0, turnWaited[t]));
            }
            System.out.printf(Locale.ROOT, "other calls  n=%d p50 %d ns, p99 %d ns, p99.9 %d ns, max %.3f ms%n",
                others.getTotalCount(), others.getValueAtPercentile(50), others.getValueAtPercentile(99),
                others.getValueAtPercentile(99.9), others.getMaxValue() / 1e6);
            final Histogram all = others.copy();
            for (final long wall : turnWall)
            {
                all.recordValue(wall);
            }
            final Histogram cpu = new Histogram(3);
            for (final long c : turnCpu)
            {
                cpu.recordValue(c);
            }
            final Histogram allCpu = othersCpu.copy();
            allCpu.add(cpu);
            System.out.printf(Locale.ROOT, "all calls    n=%d wall p99.9 %.3f ms, max %.3f ms; CPU p99.9 %.3f ms, "
                + "max %.3f ms; turns' CPU median %.3f ms, max %.3f ms%n", all.getTotalCount(),
                all.getValueAtPercentile(99.9) / 1e6, all.getMaxValue() / 1e6, allCpu.getValueAtPercentile(99.9) / 1e6, allCpu.getMaxValue() / 1e6,
                cpu.getValueAtPercentile(50) / 1e6, cpu.getMaxValue() / 1e6);
            System.out.printf(Locale.ROOT, "other calls' CPU: %d without a page fault, max %.3f ms; %d with, max %.3f "
                + "ms%n", noFaultCpu.getTotalCount(), noFaultCpu.getMaxValue() / 1e6, faultCpu.getTotalCount(),
                faultCpu.getMaxValue() / 1e6);
            System.out.printf(Locale.ROOT, "other calls' CPU percentiles: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms (a " +
                "turning call is one of them plus the turn)%n", othersCpu.getValueAtPercentile(50) / 1e6,
                othersCpu.getValueAtPercentile(90) / 1e6, othersCpu.getValueAtPercentile(99) / 1e6);
            slow.forEach(System.out::println);
            System.out.printf(Locale.ROOT, "wall less the time runnable but not running (%s): turns' max %.3f ms, other "
                + "calls' max %.3f ms%n", "the kernel's run-queue wait, /proc/thread-self/schedstat: another thread or "
                + "process had the core; a hypervisor's steal is not in it", runnable / 1e6, othersRunning / 1e6);
            final TimeWindow window = filter.timeWindow().orElseThrow();
            System.out.printf(Locale.ROOT, "turns by time %d, by count %d, expired %d, recycled early %d%n",
                window.turnsByTime(), window.turnsByCount(), window.expired(), window.recycledEarly());
        }
        finally
        {
            Files.deleteIfExists(file);
        }
        return 0;
    }

    /**
     * Prints the calling thread's id and waits until it runs under a real-time policy (another process gives it one:
     * a thread cannot ask for it from Java), or fails after {@code --await-realtime} seconds, or at once where the
     * policy cannot be read.
     */
    private void awaitRealtime() throws java.io.IOException, InterruptedException
    {
        final String tid = Path.of("/proc/thread-self").toRealPath().getFileName().toString();
        System.out.printf(Locale.ROOT, "measuring thread: tid %s (waiting up to %d s for a real-time policy, e.g. "
            + "chrt -f -p 10 %s)%n", tid, awaitRealtimeSeconds, tid);
        System.out.flush();
        final long until = System.nanoTime() + awaitRealtimeSeconds * 1_000_000_000L;
        while (true)
        {
            final String[] fields = threadStatFields();
            if (fields == null)
            {
                throw new IllegalStateException("the measuring thread's policy cannot be read (/proc/thread-self/stat)");
            }
            final int policy = Integer.parseInt(fields[POLICY]);
            if (policy == SCHED_FIFO || policy == SCHED_RR || policy == SCHED_DEADLINE)
            {
                return;
            }
            if (System.nanoTime() > until)
            {
                throw new IllegalStateException("the measuring thread (tid " + tid + ") was given no real-time policy "
                    + "within " + awaitRealtimeSeconds + " s");
            }
            Thread.sleep(10);
        }
    }

    /**
     * @return the calling thread's scheduling policy and real-time priority (fields 41 and 40 of
     *     {@code /proc/thread-self/stat}), or "unknown" where that file is not there.
     */
    private static String policy()
    {
        final String[] fields = threadStatFields();
        if (fields == null)
        {
            return "unknown";
        }
        final int policy = Integer.parseInt(fields[POLICY]);
        return (policy >= 0 && policy < POLICY_NAMES.length ? POLICY_NAMES[policy] : "policy " + policy) +
            ", real-time priority " + fields[RT_PRIORITY];
    }

    /**
     * @return the fields of {@code /proc/thread-self/stat} after the thread's name (index 0 is field 3, the state), or
     *     null where that file is not there or does not parse.
     */
    private static String[] threadStatFields()
    {
        try
        {
            final String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return fields.length > POLICY ? fields : null;
        }
        catch (final java.io.IOException | RuntimeException e)
        {
            return null;
        }
    }

    /**
     * @return the calling thread's page faults so far, minor and major (Linux {@code /proc/thread-self/stat} fields
     *     10 and 12), or −1 where that file is not there: what a turn's CPU time spent on the kernel's side.
     */
    private static long pageFaults()
    {
        return threadStat()[0];
    }

    /**
     * @return the calling thread's page faults (minor and major), user and system CPU time in clock ticks (fields 10 +
     *     12, 14 and 15 of {@code /proc/thread-self/stat}), or −1s where that file is not there.
     */
    private static long[] threadStat()
    {
        final String[] fields = threadStatFields();
        if (fields == null)
        {
            return new long[] {-1, -1, -1};
        }
        return new long[] {Long.parseLong(fields[7]) + Long.parseLong(fields[9]), Long.parseLong(fields[11]),
            Long.parseLong(fields[12])}; // counted from 1: fields 10, 12, 14, 15
    }

    /**
     * @return the nanoseconds the calling thread has spent runnable but waiting for a core (field 2 of
     *     {@code /proc/thread-self/schedstat}), or 0 where that file is not there: what of a call's wall time another
     *     thread or process took.
     */
    private static long runQueueWait()
    {
        try
        {
            return Long.parseLong(Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ")[1]);
        }
        catch (final java.io.IOException | RuntimeException e)
        {
            return 0;
        }
    }

    private FilterBuilder sliced(final FilterBuilder builder)
    {
        return slices == null ? builder : builder.subfilters(slices);
    }

    private FilterBuilder mode(final FilterBuilder builder)
    {
        final FilterBuilder synced = builder.sync(io.ddf.engine.SyncPolicy.valueOf(sync.toUpperCase(Locale.ROOT)));
        return singleWriter ? synced.singleWriter() : synced;
    }

    /**
     * Streams {@code items} new items a generation, then moves the clock past the turn and times the call that
     * turns ({@code times[0]} wall, {@code times[1]} CPU), {@code turns} times; every other call into {@code others}.
     */
    private void run(final DuplicateFilter filter, final AtomicLong now, final int turns, final long items,
        final SplittableRandom random, final Histogram others, final long[][] times) throws InterruptedException
    {
        final long slice = filter.timeWindow().orElseThrow().slice().toMillis();
        filter.stream(random.nextLong()); // starts the filter's time
        for (int t = 0; t < turns; t++)
        {
            for (long i = 0; i < items; i++)
            {
                final long key = random.nextLong();
                final long[] stat = others == null ? null : threadStat();
                final long waited = others == null ? 0 : runQueueWait();
                final long cpu = others == null ? 0 : THREADS.getCurrentThreadCpuTime();
                final long start = System.nanoTime();
                filter.stream(key);
                if (others != null)
                {
                    final long wall = System.nanoTime() - start;
                    othersRunning = Math.max(othersRunning, wall - Math.max(0, runQueueWait() - waited));
                    final long used = THREADS.getCurrentThreadCpuTime() - cpu;
                    others.recordValue(wall);
                    othersCpu.recordValue(used);
                    final long[] after = threadStat();
                    (after[0] == stat[0] ? noFaultCpu : faultCpu).recordValue(used);
                    if (used > SLOW_CPU_NANOS && slow.size() < SLOW_LISTED)
                    {
                        slow.add(String.format(Locale.ROOT, "slow call: slice %d, call %d: %.3f ms CPU, %.3f ms wall, "
                            + "%d page faults, %d user and %d system clock ticks", t + 1, i + 1, used / 1e6, wall / 1e6,
                            after[0] - stat[0], after[1] - stat[1], after[2] - stat[2]));
                    }
                }
            }
            if (gapMillis > 0)
            {
                Thread.sleep(gapMillis);
            }
            now.addAndGet(jump ? WINDOW.toMillis() : slice);
            final long key = random.nextLong();
            final long faults = pageFaults();
            final long waited = runQueueWait();
            final long cpu = THREADS.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            filter.stream(key);
            final long took = System.nanoTime() - start;
            if (times != null)
            {
                times[4][t] = runQueueWait() - waited;
                times[0][t] = took;
                times[1][t] = THREADS.getCurrentThreadCpuTime() - cpu;
                times[2][t] = pageFaults() - faults;
                times[3][t] = start;
            }
        }
    }
}
