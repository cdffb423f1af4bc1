package io.ddf.bench.accuracy;

/**
 * The rates of one filter at one memory and window, averaged over the runs, at each checkpoint.
 *
 * @param index       position in the experiment's list of configurations.
 * @param spec        the filter.
 * @param memoryBits  the memory it was asked for.
 * @param window      the window its windowed rates are judged against, 0 for none.
 * @param parameters  its resolved parameters, as the engine reports them.
 * @param failure     why it could not be built (then there are no rates), or null.
 * @param positions   the checkpoint positions (elements streamed so far).
 * @param mean        per checkpoint, the mean over runs of each {@link Metric} (NaN when no run defines it).
 * @param errorSd     per checkpoint, the standard deviation over runs of the error (windowed error when windowed).
 * @param stateBits   the bits the filter holds its state in (a ddf filter's table, a reference design's arrays); 0
 *                    when it could not be built.
 */
public record ConfigResult(int index, FilterSpec spec, long memoryBits, long window, String parameters,
    String failure, long[] positions, double[][] mean, double[] errorSd, long stateBits)
{
    /**
     * A result without its state's size.
     *
     * @param index      position in the experiment's list of configurations.
     * @param spec       the filter.
     * @param memoryBits the memory it was asked for.
     * @param window     the window its windowed rates are judged against, 0 for none.
     * @param parameters its resolved parameters.
     * @param failure    why it could not be built, or null.
     * @param positions  the checkpoint positions.
     * @param mean       per checkpoint, the mean over runs of each metric.
     * @param errorSd    per checkpoint, the standard deviation over runs of the error.
     */
    public ConfigResult(final int index, final FilterSpec spec, final long memoryBits, final long window,
        final String parameters, final String failure, final long[] positions, final double[][] mean,
        final double[] errorSd)
    {
        this(index, spec, memoryBits, window, parameters, failure, positions, mean, errorSd, 0);
    }

    /** The rates recorded. */
    public enum Metric
    {
        /** False positives over unseen elements. */
        FPR,
        /** False negatives over duplicates. */
        FNR,
        /** FPR + FNR. */
        ERROR,
        /** Windowed FPR: false positives over elements not seen in the last w. */
        FPR_W,
        /** Windowed FNR: false negatives over elements seen in the last w. */
        FNR_W,
        /** Windowed error. */
        ERROR_W
    }

    /**
     * @param metric a metric.
     * @return its mean at the end of the stream.
     */
    public double end(final Metric metric)
    {
        return mean == null ? Double.NaN : mean[mean.length - 1][metric.ordinal()];
    }
}
