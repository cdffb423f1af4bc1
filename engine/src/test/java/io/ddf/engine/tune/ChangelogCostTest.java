package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The changelog objective ({@code ddf tune --changelog}) and the costs it weighs. */
class ChangelogCostTest
{
    private static final Workload TABLE2 = Workload.uniform(1_500_000, 167_772);
    private static final double NONE = Double.NaN;

    @Test
    void theChangelogObjectivePicksAFilterWhoseChangelogCostsAtMostAnExactStores()
    {
        // false positives cost 20 times more: on the error rates alone the pick is QQHTD, which changes a row on
        // every element, duplicates included
        final Tuning plain = Tuner.tune(80_000, TABLE2, new Objective(20, 1, NONE, NONE));
        assertFalse(ChangelogCost.replayable(plain.pick().kind()), plain.pick().label());
        assertTrue(plain.changelog(plain.pick()).bytesPerNewElement() > 100, plain.changelog(plain.pick()).describe());
        final Tuning logged = Tuner.tune(80_000, TABLE2, Objective.withChangelog(20, 1, NONE, NONE));
        assertTrue(logged.admitted(), logged.pick().label());
        assertTrue(ChangelogCost.replayable(logged.pick().kind()), logged.pick().label());
        final ChangelogCost cost = logged.changelog(logged.pick());
        assertTrue(cost.hashes() && cost.within(ChangelogCost.EXACT_STORE_RECORD_BYTES), cost.describe());
        assertTrue(logged.objective().cost(logged.pick().fpr(), logged.pick().fnr()) >=
            plain.objective().cost(plain.pick().fpr(), plain.pick().fnr()), "the changelog costs some error");
        // every kind's best shape is ranked admitted first: those within the cap precede the others
        boolean outside = false;
        for (final Candidate c : logged.bestPerKind())
        {
            final boolean within = logged.admits(c);
            assertTrue(!outside || !within, "an admitted shape after one that is not: " + c.label());
            outside |= !within;
        }
        assertTrue(outside, "some kinds' changelogs cost more than the cap");
    }

    @Test
    void noWindowedFilterMeetsTheCapTheirClockChangesWordsOnEveryElement()
    {
        final Tuning windowed = Tuner.tune(1 << 20, new Workload(0, 1e6, 0, 10_000),
            Objective.withChangelog(1, 1, NONE, NONE));
        assertFalse(windowed.admitted(), windowed.pick().label());
        assertFalse(windowed.changelog(windowed.pick()).hashes());
    }

    @Test
    void theHashesCostEightBytesPerNewElementUntilTheFirstSnapshotThenTheSnapshotsAddUpToATable()
    {
        final Map<String, Number> bloom = new LinkedHashMap<>();
        bloom.put("memory-bits", 1L << 26);
        bloom.put("hash-functions", 16L);
        final Candidate c = new Candidate(FilterKind.BLOOM, bloom, 0, 0, "", "");
        final double table = (1 << 26) / 8.0;
        // 350,000 new elements in a table of 8 MiB: 2.8 MB of hashes, no snapshot yet; a restore reads them all
        final ChangelogCost few = ChangelogCost.estimate(c, Workload.uniform(350_000, Double.POSITIVE_INFINITY));
        assertEquals(8, few.bytesPerNewElement(), 1e-9);
        assertEquals(350_000 * 8, few.restoreBytes(), 1e-6);
        // 2.5 times the table in hashes: two snapshots, a restore reads the last one and the hashes since
        final long many = (long)(2.5 * table / 8);
        final ChangelogCost more = ChangelogCost.estimate(c, Workload.uniform(many, Double.POSITIVE_INFINITY));
        assertEquals(8 + 2 * table / many, more.bytesPerNewElement(), 1e-9);
        assertEquals(table + 0.5 * table, more.restoreBytes(), 1);
        // an endless stream: a table of snapshot per table of hashes, 16 bytes per new element, the cap's figure
        final ChangelogCost endless = ChangelogCost.estimate(c, Workload.uniform(0, Double.POSITIVE_INFINITY));
        assertEquals(16, endless.bytesPerNewElement(), 1e-9);
        assertTrue(endless.within(ChangelogCost.EXACT_STORE_RECORD_BYTES) && !endless.within(15));
        assertEquals(2 * table, endless.restoreBytes(), 1);
    }

    @Test
    void theWordLogCostsARecordPerWordAnElementChanges()
    {
        final Map<String, Number> sbf = new LinkedHashMap<>();
        sbf.put("memory-bits", 1L << 20);
        sbf.put("cell-bits", 1L);
        sbf.put("hash-functions", 3L);
        sbf.put("target-fpr", 0.01);
        // half the elements are new: each new one pays for its own words and a duplicate's
        final Workload half = Workload.uniform(1_000_000, 1_000_000 / 1.5936242);
        final ChangelogCost cost = ChangelogCost.estimate(new Candidate(FilterKind.SBF, sbf, 0, 0, "", ""), half);
        assertFalse(cost.hashes());
        assertEquals(2 * (3 + 1), cost.recordsPerNewElement(), 0.01);
        assertEquals(16 * cost.recordsPerNewElement(), cost.bytesPerNewElement(), 1e-9);
        assertFalse(cost.within(ChangelogCost.EXACT_STORE_RECORD_BYTES));
        assertThrows(IllegalArgumentException.class, () -> new Objective(1, 1, NONE, NONE, -3));
        assertTrue(Objective.withChangelog(1, 1, NONE, NONE).describe().contains("changelog <= 16 bytes"));
    }
}
