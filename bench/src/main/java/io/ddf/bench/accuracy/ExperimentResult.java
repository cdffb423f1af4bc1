package io.ddf.bench.accuracy;

import java.util.List;

/**
 * Everything one experiment measured.
 *
 * @param experiment the experiment as run (after scaling).
 * @param configs    one result per filter × memory × window.
 * @param runSeeds   per run, {stream seed, filter seed}.
 * @param duplicates share of the stream's elements that were seen before, mean over runs.
 * @param seconds    wall time.
 */
public record ExperimentResult(Experiment experiment, List<ConfigResult> configs, long[][] runSeeds,
    double duplicates, double seconds)
{
}
