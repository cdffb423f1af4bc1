package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import java.util.List;

/**
 * One measurement: a stream, the filters, the memories and windows each filter is run at, how many runs to
 * average, how many checkpoints along the stream, and the seed all run seeds derive from.
 *
 * @param stream      the stream.
 * @param filters     the filters.
 * @param memories    memory sizes in bits; each filter taking a memory runs at each.
 * @param windows     windows; each filter runs at each (empty: no window, unbounded rates only for most kinds).
 * @param runs        number of runs averaged.
 * @param checkpoints number of evenly spaced positions where the rates are recorded (the last is the end).
 * @param seed        the seed every run's stream and filter seeds derive from.
 */
public record Experiment(StreamSpec stream, List<FilterSpec> filters, List<Long> memories, List<Long> windows,
    int runs, int checkpoints, long seed)
{
    /** Checks the numbers. */
    public Experiment
    {
        if (runs < 1 || checkpoints < 1 || filters.isEmpty() || memories.isEmpty())
        {
            throw new IllegalArgumentException("need at least one run, checkpoint, filter and memory size");
        }
        filters = List.copyOf(filters);
        memories = List.copyOf(memories);
        windows = windows.isEmpty() ? List.of(0L) : List.copyOf(windows);
    }

    /**
     * @param factor scale factor (1 for none).
     * @return the experiment with stream length, alphabet, memories and windows all multiplied by factor, which
     *         keeps their ratios (duplicate rate, fill of the filters) and shortens the run.
     */
    public Experiment scaled(final double factor)
    {
        if (factor == 1.0)
        {
            return this;
        }
        return new Experiment(stream.scaled(factor),
            filters.stream().map(f -> f.scaled(factor)).toList(),
            memories.stream().map(m -> Math.max(1, Math.round(m * factor))).toList(),
            windows.stream().map(w -> w == 0 ? 0 : Math.max(2, Math.round(w * factor))).toList(),
            runs, checkpoints, seed);
    }
}
