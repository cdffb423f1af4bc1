package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;

import java.util.List;
import java.util.Map;

/**
 * What the tuner found for one memory budget, stream and objective.
 *
 * @param memoryBits  M.
 * @param workload    the stream.
 * @param objective   the objective.
 * @param pick        the overall pick: the best admitted candidate, or the best of all when none meets the caps
 *                    ({@link #admitted} says which).
 * @param bestPerKind each modelled kind's best candidate (queued kinds apart), best first.
 * @param frontier    the candidates no other beats on both FPR and FNR, by FPR (the trade-off curve).
 * @param evaluated   how many candidates were evaluated.
 * @param notModelled the kinds the tuner cannot weigh, with the reason, one line each.
 */
public record Tuning(long memoryBits, Workload workload, Objective objective, Candidate pick,
    List<Candidate> bestPerKind, List<Candidate> frontier, int evaluated, Map<FilterKind, String> notModelled)
{
    /** @return true when the pick meets the objective's caps (its changelog's too, when the objective has one). */
    public boolean admitted()
    {
        return objective.admits(pick.fpr(), pick.fnr()) && (!objective.changelog() ||
            changelog(pick).within(objective.changelogBytes()));
    }

    /**
     * @param candidate one of the candidates.
     * @return what its changelog costs on this stream ({@link ChangelogCost}).
     */
    public ChangelogCost changelog(final Candidate candidate)
    {
        return ChangelogCost.estimate(candidate, workload);
    }

    /**
     * @param candidate one of the candidates.
     * @return whether it meets the objective's caps, its changelog's included.
     */
    public boolean admits(final Candidate candidate)
    {
        return objective.admits(candidate.fpr(), candidate.fnr()) && (!objective.changelog() ||
            changelog(candidate).within(objective.changelogBytes()));
    }
}
