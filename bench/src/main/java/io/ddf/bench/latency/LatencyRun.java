package io.ddf.bench.latency;

import io.ddf.bench.jmh.BenchFilters;
import io.ddf.bench.jmh.KeyPool;
import io.ddf.bench.jmh.KeySource;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One latency run: the timer's cost, then single {@code stream} calls on a fresh filter, then the pipeline's
 * publish-to-verdict time on another fresh filter of the same parameters (both on anonymous mapped files), each
 * summarised and optionally written as {@code .hgrm}.
 *
 * @param kind          filter kind.
 * @param memoryBits    memory M.
 * @param window        "auto" or a window, for windowed kinds ({@link BenchFilters}).
 * @param keyBytes      bytes per key.
 * @param count         recorded samples per measurement.
 * @param warmup        unrecorded calls before each measurement.
 * @param ratePerSecond pipeline publication rate, 0 for unpaced.
 * @param waitStrategy  the pipeline's wait strategy.
 * @param producer      {@code single} (the pipeline's {@code singleProducer()}: the one producer thread here) or
 *                      {@code multi} (the builder's default sequencer).
 * @param seed          seed of the keys (the filters' hash seed is fixed).
 * @param hgrmDir       directory for .hgrm files, or null.
 */
public record LatencyRun(FilterKind kind, long memoryBits, String window, int keyBytes, int count, int warmup,
                         long ratePerSecond, String waitStrategy, String producer, long seed, Path hgrmDir)
{
    private static final long FILTER_SEED = 7;
    /** How long a lone thread spins to show the machine's own pauses (the floor of any tail latency here). */
    private static final long PAUSE_PROBE_NANOS = 5_000_000_000L;

    /**
     * @param out where the summary goes.
     * @throws IOException when a .hgrm file cannot be written.
     */
    public void run(final PrintStream out) throws IOException
    {
        final KeyPool pool = new KeyPool(keyBytes, seed);
        out.printf(Locale.ROOT, "latency: %s, %d bits, %d-byte keys (pool of %d, seed %d, salted per pass), "
                + "%d warm-up + %d recorded; %d cores%n", kind.cliName(), memoryBits, keyBytes, pool.count(), seed,
            warmup, count, Runtime.getRuntime().availableProcessors());

        final TimerCost timer = TimerCost.measure(Math.max(count, 1_000_000));
        out.printf(Locale.ROOT, "timer: System.nanoTime() costs %.1f ns per call (mean); every sample below "
            + "includes one call and the timer's granularity:%n", timer.meanCallNanos());
        out.println("  " + Percentiles.summary("empty timed region", timer.emptyRegion()));
        write("timer", timer.emptyRegion());
        final PlatformPauses pauses = PlatformPauses.measure(PAUSE_PROBE_NANOS);
        out.println("platform: " + pauses.summary());

        final KeySource keys = new KeySource();
        keys.init(pool, 0);
        try (DuplicateFilter filter = BenchFilters.builder(kind, memoryBits, window, FILTER_SEED).create())
        {
            out.println("filter: " + filter.parameters());
            final StreamLatency stream = new StreamLatency();
            final Histogram histogram = stream.measure(filter, keys, warmup, count);
            out.println("  " + Percentiles.summary("stream() call", histogram));
            out.printf(Locale.ROOT, "  (%.2f%% of recorded calls judged duplicate)%n",
                100.0 * stream.duplicates() / count);
            write("stream", histogram);
        }

        final KeySource pipelineKeys = new KeySource();
        pipelineKeys.init(pool, 1);
        try (DuplicateFilter filter = BenchFilters.builder(kind, memoryBits, window, FILTER_SEED).create())
        {
            final PipelineLatency pipeline = new PipelineLatency(warmup, count);
            final Histogram histogram = pipeline.measure(filter, pipelineKeys, ratePerSecond, waitStrategy,
                "single".equals(producer));
            out.println("  " + Percentiles.summary("pipeline publish-to-verdict", histogram));
            if (ratePerSecond > 0)
            {
                out.println("  " + Percentiles.summary("pipeline schedule-to-verdict", pipeline.fromSchedule()));
            }
            out.printf(Locale.ROOT, "  (pipeline: 1 hasher, 1 inserter (fused), %s wait, %s producer; %s; "
                    + "%.2f%% duplicate)%n", waitStrategy, producer, ratePerSecond > 0 ? String.format(Locale.ROOT,
                    "paced at %d/s; publish-to-verdict from the publish call, schedule-to-verdict from the scheduled "
                    + "send time (adds the producer's lateness); the producer fell at most %.3f ms behind schedule",
                    ratePerSecond, pipeline.maxLagNanos() / 1e6) :
                    "unpaced: includes queueing at saturation", 100.0 * pipeline.duplicates() / count);
            write("pipeline", histogram);
            if (ratePerSecond > 0)
            {
                write("pipeline-from-schedule", pipeline.fromSchedule());
            }
        }
    }

    private void write(final String what, final Histogram histogram) throws IOException
    {
        if (hgrmDir == null)
        {
            return;
        }
        Files.createDirectories(hgrmDir);
        final Path file = hgrmDir.resolve(String.format(Locale.ROOT, "%s-%s-%d-%dB.hgrm", what, kind.cliName(),
            memoryBits, keyBytes));
        Percentiles.writeHgrm(file, histogram);
    }
}
