package io.ddf.bench.accuracy;

import java.util.List;

/**
 * A set of experiments reproducing one table or figure of a paper, with the paper's figures to compare.
 *
 * @param title       heading of the markdown.
 * @param note        what the paper did and how this differs, one paragraph.
 * @param experiments the experiments (one per stream).
 * @param paper       the paper's figures.
 */
public record Reproduction(String title, String note, List<Experiment> experiments, PaperFigures paper)
{
    /**
     * @param factor scale factor.
     * @return every experiment scaled (figures stay keyed by stream and memory index).
     */
    public Reproduction scaled(final double factor)
    {
        return new Reproduction(title, note, experiments.stream().map(e -> e.scaled(factor)).toList(), paper);
    }
}
