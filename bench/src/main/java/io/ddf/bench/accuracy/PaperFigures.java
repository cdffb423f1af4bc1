package io.ddf.bench.accuracy;

import java.util.HashMap;
import java.util.Map;

/**
 * A paper's published figures for the cells of a reproduction, shown beside ours in parentheses. Cells are keyed
 * by experiment (stream) index, memory index and filter label; each holds FPR %, FNR % and error ×100, NaN where
 * the paper gives none.
 */
public final class PaperFigures
{
    /** No figures. */
    public static final PaperFigures NONE = new PaperFigures("");

    private final String source;
    private final Map<String, double[]> cells = new HashMap<>();
    private boolean alongStream;

    /** @param source where the figures come from (e.g. "seed 000 Table 1"). */
    public PaperFigures(final String source)
    {
        this.source = source;
    }

    /** @return where the figures come from, empty for none. */
    public String source()
    {
        return source;
    }

    /**
     * @param experiment experiment index.
     * @param memory     memory index.
     * @param label      filter label.
     * @param fpr        FPR in percent, NaN if not given.
     * @param fnr        FNR in percent, NaN if not given.
     * @param error      error ×100.
     * @return this.
     */
    public PaperFigures put(final int experiment, final int memory, final String label, final double fpr,
        final double fnr, final double error)
    {
        cells.put(key(experiment, memory, label), new double[] {fpr, fnr, error});
        return this;
    }

    /**
     * @param experiment experiment index.
     * @param memory     memory index.
     * @param label      filter label.
     * @return {FPR %, FNR %, error ×100}, or null.
     */
    public double[] get(final int experiment, final int memory, final String label)
    {
        return cells.get(key(experiment, memory, label));
    }

    /**
     * Asks the markdown for the error rates at several stream lengths (a figure against stream length), next to the
     * lower bound of seed 001 Theorem 4 on uniform streams.
     *
     * @return this.
     */
    public PaperFigures showAlongStream()
    {
        alongStream = true;
        return this;
    }

    /** @return whether the markdown shows the rates along the stream with the Theorem 4 bound. */
    public boolean alongStream()
    {
        return alongStream;
    }

    private static String key(final int experiment, final int memory, final String label)
    {
        return experiment + "|" + memory + "|" + label;
    }
}
