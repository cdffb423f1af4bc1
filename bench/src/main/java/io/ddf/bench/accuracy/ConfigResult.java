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
 */
public record ConfigResult(int index, FilterSpec spec, long memoryBits, long window, String parameters,
    String failure, long[] positions, double[][] mean, double[] errorSd)
{
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
