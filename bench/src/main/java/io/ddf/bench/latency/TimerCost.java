package io.ddf.bench.latency;

import org.HdrHistogram.Histogram;

/**
 * The cost of the timer itself: every latency sample is {@code nanoTime()} after minus {@code nanoTime()} before,
 * so it includes one timer call and the timer's granularity. Measures both the mean cost of a call (a long run of
 * back-to-back calls) and the distribution of an empty timed region (what a sample reads when the call timed takes
 * no time at all).
 */
public final class TimerCost
{
    private final double meanCallNanos;
    private final Histogram emptyRegion;

    private TimerCost(final double meanCallNanos, final Histogram emptyRegion)
    {
        this.meanCallNanos = meanCallNanos;
        this.emptyRegion = emptyRegion;
    }

    /**
     * @param samples number of calls and of empty regions.
     * @return the measured cost.
     */
    public static TimerCost measure(final int samples)
    {
        long sink = 0;
        final long start = System.nanoTime();
        for (int i = 0; i < samples; i++)
        {
            sink += System.nanoTime();
        }
        final double mean = (double)(System.nanoTime() - start) / samples;
        final Histogram histogram = new Histogram(3);
        for (int i = 0; i < samples; i++)
        {
            final long before = System.nanoTime();
            final long after = System.nanoTime();
            histogram.recordValue(after - before);
        }
        // Keeps the first loop's calls from being dropped as dead code.
        if (sink == 42)
        {
            System.out.print("");
        }
        return new TimerCost(mean, histogram);
    }

    /** @return mean ns per {@code System.nanoTime()} call. */
    public double meanCallNanos()
    {
        return meanCallNanos;
    }

    /** @return distribution of {@code nanoTime() - nanoTime()} back to back, in ns. */
    public Histogram emptyRegion()
    {
        return emptyRegion;
    }
}
