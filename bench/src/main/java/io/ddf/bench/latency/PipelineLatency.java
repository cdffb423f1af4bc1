package io.ddf.bench.latency;

import io.ddf.bench.jmh.KeySource;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import io.ddf.engine.Operation;
import io.ddf.engine.pipeline.VerdictListener;
import org.HdrHistogram.Histogram;

import java.util.concurrent.locks.LockSupport;
/**
 * The Disruptor pipeline's publish-to-verdict time: the producer keeps each element's publication time in a
 * preallocated {@code long[]} indexed by its tag, and the listener records {@code nanoTime()} minus that time
 * (the ring's sequence barrier orders the producer's write before the listener's read). Unpaced, the producer
 * publishes as fast as it can, so the values include waiting for ring space and queueing (latency at saturation).
 *
 * <p>Paced at a rate, two times are kept per element, and two histograms recorded: from the moment the producer
 * calls {@code publish} (the pipeline's own time: {@link #histogram()}), and from the element's scheduled send
 * time ({@link #fromSchedule()}), which adds the producer's own lateness, so that a stall that holds the producer
 * back delays the later elements visibly instead of being hidden (coordinated omission). At 10^4/s the ring never
 * fills, so what separates the two is the producer waking late from its sleep between elements (a parked thread
 * on this VM wakes tens of µs late now and then), not the pipeline.
 */
public final class PipelineLatency
{
    /** Gaps longer than this the paced producer sleeps through (parkNanos overshoots by tens of µs). */
    private static final long PARK_THRESHOLD_NANOS = 80_000;
    /** A park ends this much before the scheduled time: Linux's default timer slack is 50 µs. */
    private static final long PARK_SLACK_NANOS = 70_000;

    private final long[] publishedAt;
    private final long[] scheduledAt;
    private final int warmup;
    private final Histogram histogram = new Histogram(3);
    private final Histogram fromSchedule = new Histogram(3);
    private long duplicates;
    private long maxLagNanos;

    /**
     * @param warmup elements published first, not recorded.
     * @param count  elements recorded.
     */
    public PipelineLatency(final int warmup, final int count)
    {
        this.warmup = warmup;
        this.publishedAt = new long[Math.addExact(warmup, count)];
        this.scheduledAt = new long[publishedAt.length];
    }

    /** Records on the pipeline's verdict thread. */
    private final class Recorder implements VerdictListener
    {
        @Override
        public void onVerdict(final long tag, final Verdict verdict)
        {
            final long now = System.nanoTime();
            if (tag >= warmup)
            {
                histogram.recordValue(Math.max(0, now - publishedAt[(int)tag]));
                fromSchedule.recordValue(Math.max(0, now - scheduledAt[(int)tag]));
                duplicates += verdict.ordinal();
            }
        }
    }

    /**
     * @param filter        the filter (its state changes).
     * @param keys          the keys.
     * @param ratePerSecond elements per second to publish at, or 0 for as fast as possible.
     * @param waitStrategy  the pipeline's wait strategy ({@code FilterPipelineBuilder#waitStrategy}).
     * @param single        build it with {@code singleProducer()} (this thread is its only publisher).
     * @return the publish-to-verdict histogram, in ns; complete, since the pipeline is closed (drained) before this
     *         returns.
     */
    public Histogram measure(final DuplicateFilter filter, final KeySource keys, final long ratePerSecond,
        final String waitStrategy, final boolean single)
    {
        final double interval = ratePerSecond > 0 ? 1e9 / ratePerSecond : 0;
        final int length = keys.keyBytes();
        final FilterPipelineBuilder builder = FilterPipeline.builder().maxElementBytes(Math.max(length, Long.BYTES))
            .waitStrategy(waitStrategy).listener(new Recorder());
        if (single)
        {
            builder.singleProducer();
        }
        try (FilterPipeline pipeline = builder.build())
        {
            final long start = System.nanoTime();
            for (int i = 0; i < publishedAt.length; i++)
            {
                final long time;
                final long sent;
                if (interval > 0)
                {
                    time = start + (long)(i * interval);
                    long now;
                    while ((now = System.nanoTime()) < time)
                    {
                        // Sleeps through long gaps so the producer leaves the core to the handler (2-core
                        // machine); spins only the last stretch, which a park would overshoot.
                        if (time - now > PARK_THRESHOLD_NANOS)
                        {
                            LockSupport.parkNanos(time - now - PARK_SLACK_NANOS);
                        }
                        else
                        {
                            Thread.onSpinWait();
                        }
                    }
                    // How late the producer itself was (e.g. descheduled, or blocked on a full ring).
                    maxLagNanos = Math.max(maxLagNanos, now - time);
                    sent = now; // the loop's last read: the publication starts now
                }
                else
                {
                    time = System.nanoTime();
                    sent = time;
                }
                publishedAt[i] = sent;
                scheduledAt[i] = time;
                if (length == Long.BYTES)
                {
                    pipeline.publish(filter, Operation.STREAM, keys.nextLong(), i);
                }
                else
                {
                    pipeline.publish(filter, Operation.STREAM, keys.nextBytes(), 0, length, i);
                }
            }
        }
        return histogram;
    }

    /** @return the publish-to-verdict histogram (read after {@link #measure}). */
    public Histogram histogram()
    {
        return histogram;
    }

    /** @return the histogram from scheduled send times: publish-to-verdict plus the producer's lateness. */
    public Histogram fromSchedule()
    {
        return fromSchedule;
    }

    /** @return paced: the most the producer fell behind its schedule before a publication, in ns; else 0. */
    public long maxLagNanos()
    {
        return maxLagNanos;
    }

    /** @return recorded elements judged DUPLICATE (read after {@link #measure}). */
    public long duplicates()
    {
        return duplicates;
    }
}
