package io.ddf.bench;

import io.ddf.bench.capacity.CapacityCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The bench jar's entry point ({@code bin/ddf bench ...}): {@code jmh} runs the JMH suite (JMH's own options),
 * {@code latency} the HdrHistogram latency runs, {@code accuracy} the accuracy harness, {@code capacity} the capacity semantics.
 */
@Command(name = "ddf bench", mixinStandardHelpOptions = true,
    description = "Speed, latency and accuracy measurements of ddf.",
    subcommands = {JmhCommand.class, LatencyCommand.class, AccuracyCommand.class, CapacityCommand.class,
        RotationCommand.class, WindowRotationCommand.class})
public final class BenchMain
{
    private BenchMain()
    {
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }
}
