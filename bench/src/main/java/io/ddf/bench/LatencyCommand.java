package io.ddf.bench;

import io.ddf.bench.latency.LatencyRun;
import io.ddf.engine.FilterKind;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ddf bench latency}: HdrHistogram distributions of single {@code stream} calls and of the pipeline's
 * publish-to-verdict time, with the timer's own cost (see {@link LatencyRun}).
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
    description = "Latency percentiles (p50, p99, p99.9, max) of stream() calls and of the pipeline.")
final class LatencyCommand implements Callable<Integer>
{
    @Option(names = "--kind", defaultValue = "qht", description = "Filter kind (default: ${DEFAULT-VALUE}).")
    private String kind;

    @Option(names = "--memory-bits", defaultValue = "1048576",
        description = "Memory M in bits (default: ${DEFAULT-VALUE}).")
    private long memoryBits;

    @Option(names = "--window", defaultValue = "auto",
        description = "Window of windowed kinds: auto or a number (default: ${DEFAULT-VALUE}).")
    private String window;

    @Option(names = "--key-bytes", defaultValue = "8",
        description = "Bytes per key, a multiple of 8 (default: ${DEFAULT-VALUE}).")
    private int keyBytes;

    @Option(names = "--count", defaultValue = "1000000",
        description = "Recorded samples per measurement (default: ${DEFAULT-VALUE}).")
    private int count;

    @Option(names = "--warmup", defaultValue = "1000000",
        description = "Unrecorded calls before each measurement (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--rate", defaultValue = "0",
        description = "Pipeline elements per second; 0 publishes as fast as possible (default: ${DEFAULT-VALUE}).")
    private long rate;

    @Option(names = "--wait-strategy", defaultValue = FilterPipelineBuilder.DEFAULT_WAIT_STRATEGY,
        description = "Pipeline wait strategy: blocking, sleeping, yielding, busy-spin, phased "
            + "(default: ${DEFAULT-VALUE}).")
    private String waitStrategy;

    @Option(names = "--producer", defaultValue = "single",
        description = "Pipeline sequencer: single (singleProducer(): this benchmark publishes from one thread) or "
            + "multi (default: ${DEFAULT-VALUE}).")
    private String producer;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the keys (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--hgrm-dir", description = "Write the distributions as .hgrm files (in µs) here.")
    private Path hgrmDir;

    @Override
    public Integer call() throws Exception
    {
        final FilterKind filterKind;
        try
        {
            filterKind = FilterKind.fromName(kind);
            if (count < 1 || warmup < 0 || rate < 0 || keyBytes < 8 || keyBytes % 8 != 0)
            {
                throw new IllegalArgumentException("need count >= 1, warmup >= 0, rate >= 0 and key bytes a "
                    + "positive multiple of 8");
            }
            FilterPipeline.builder().waitStrategy(waitStrategy);
            if (!"single".equals(producer) && !"multi".equals(producer))
            {
                throw new IllegalArgumentException("--producer: single or multi, not " + producer);
            }
            if (!"auto".equals(window))
            {
                Long.parseLong(window);
            }
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("ddf bench latency: " + e.getMessage());
            return 2;
        }
        new LatencyRun(filterKind, memoryBits, window, keyBytes, count, warmup, rate, waitStrategy, producer, seed,
            hgrmDir)
            .run(System.out);
        return 0;
    }
}
