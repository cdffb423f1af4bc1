package io.ddf.bench.latency;

import java.util.Locale;

/**
 * The machine's own pauses, the floor under every tail latency measured on it: one thread does nothing but read
 * {@code System.nanoTime()} in a loop, and every gap between two reads longer than a microsecond is a time the
 * thread did not run (an interrupt, the kernel, another task, the hypervisor taking the vCPU). No code, ddf's or
 * anyone's, answers faster than its thread runs: if 0.1 % of the time is spent in pauses longer than 100 µs, a
 * p99.9 below 100 µs cannot be measured here whatever is under test. The same idea as jHiccup's, without a
 * dependency.
 */
final class PlatformPauses
{
    private static final long[] THRESHOLDS = {10_000, 100_000, 1_000_000};

    private final long spinNanos;
    private final long[] counts = new long[THRESHOLDS.length];
    private final long[] pausedNanos = new long[THRESHOLDS.length];
    private long longest;

    private PlatformPauses(final long spinNanos)
    {
        this.spinNanos = spinNanos;
    }

    /**
     * @param spinNanos how long to spin, on the calling thread.
     * @return what it saw.
     */
    static PlatformPauses measure(final long spinNanos)
    {
        final PlatformPauses pauses = new PlatformPauses(spinNanos);
        final long start = System.nanoTime();
        long last = start;
        while (last - start < spinNanos)
        {
            final long now = System.nanoTime();
            final long gap = now - last;
            last = now;
            if (gap > THRESHOLDS[0])
            {
                pauses.record(gap);
            }
        }
        return pauses;
    }

    private void record(final long gap)
    {
        longest = Math.max(longest, gap);
        for (int i = 0; i < THRESHOLDS.length; i++)
        {
            if (gap > THRESHOLDS[i])
            {
                counts[i]++;
                pausedNanos[i] += gap;
            }
        }
    }

    /** @return one line: pauses per second over each threshold, and the share of time they took. */
    String summary()
    {
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "a lone thread spinning on System.nanoTime() for %.0f s lost the core", spinNanos / 1e9));
        for (int i = 0; i < THRESHOLDS.length; i++)
        {
            line.append(String.format(Locale.ROOT, "%s %.1f/s for > %d µs (%.3f%% of the time)", i == 0 ? "" : ",",
                counts[i] * 1e9 / spinNanos, THRESHOLDS[i] / 1000, 100.0 * pausedNanos[i] / spinNanos));
        }
        return line.append(String.format(Locale.ROOT, "; longest %d µs", longest / 1000)).toString();
    }
}
