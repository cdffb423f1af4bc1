package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;
import io.ddf.engine.model.QhtModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tuner's search: caps, weights, the frontier, default sizing, input checks, and its numeric sums. */
class TunerTest
{
    private static final Workload TABLE2 = Workload.uniform(1_500_000, 167_772);

    @Test
    void weightsAndCapsMoveThePick()
    {
        final Tuning sum = Tuner.tune(80_000, TABLE2, Objective.ERROR_RATE);
        final Candidate fpCostly = Tuner.pick(80_000, TABLE2, new Objective(50, 1, Double.NaN, Double.NaN));
        final Candidate fnCostly = Tuner.pick(80_000, TABLE2, new Objective(1, 50, Double.NaN, Double.NaN));
        assertTrue(fpCostly.fpr() < sum.pick().fpr() && fnCostly.fnr() <= sum.pick().fnr());
        final Objective capped = new Objective(1, 1, 0.05, Double.NaN);
        final Tuning t = Tuner.tune(80_000, TABLE2, capped);
        assertTrue(t.admitted() && t.pick().fpr() <= 0.05, t.pick().toString());
        // the frontier: by increasing FPR, strictly decreasing FNR, and the unconstrained pick is on it
        final List<Candidate> f = sum.frontier();
        for (int i = 1; i < f.size(); i++)
        {
            assertTrue(f.get(i).fpr() >= f.get(i - 1).fpr() && f.get(i).fnr() < f.get(i - 1).fnr());
        }
        assertTrue(f.contains(sum.pick()));
        assertFalse(sum.notModelled().isEmpty());
        assertTrue(sum.notModelled().containsKey(FilterKind.CUCKOO));
    }

    @Test
    void unreachableCapsAreReportedNotHidden()
    {
        final Tuning t = Tuner.tune(80_000, TABLE2, new Objective(1, 1, 0.01, 0.01));
        assertFalse(t.admitted());
    }

    @Test
    void forCapacityIsTheLeastMemoryMeetingTheErrorRate()
    {
        final long capacity = 100_000;
        final Candidate c = Tuner.forCapacity(capacity, 0.01);
        assertTrue(c.fpr() <= 0.01 && c.fnr() <= 0.01, c.toString());
        assertEquals(FilterKind.QHT, c.kind());
        assertTrue(c.parameters().get("buckets").longValue() * c.parameters().get("fingerprint-bits").longValue() <= 64);
        c.builder().parameters();
        final long memory = c.parameters().get("memory-bits").longValue();
        assertTrue(memory < 32L * capacity, "at most the old rule's 32 bits per element: " + memory);
        assertTrue(Tuner.capacityTuning(memory, capacity, 0.01).admitted());
        assertFalse(Tuner.capacityTuning((long)(memory / 1.1), capacity, 0.01).admitted(), "least within 5 %");
        assertThrows(IllegalArgumentException.class, () -> Tuner.forCapacity(0, 0.01));
        assertThrows(IllegalArgumentException.class, () -> Tuner.forCapacity(10, 1.0));
    }

    @Test
    void windowedTuningOffersTheWindowedKinds()
    {
        final Tuning t = Tuner.tune(100_000, new Workload(0, Double.POSITIVE_INFINITY, 0, 10_000),
            Objective.ERROR_RATE);
        assertTrue(t.bestPerKind().stream().anyMatch(Candidate::queued));
        assertTrue(t.bestPerKind().stream().anyMatch(c -> c.kind() == FilterKind.SHF || c.kind() == FilterKind.CSHF));
    }

    @Test
    void badInputIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new Objective(-1, 1, Double.NaN, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new Objective(0, 0, Double.NaN, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new Objective(1, 1, 1.5, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new Workload(-1, 100, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Workload(100, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Workload(100, Double.POSITIVE_INFINITY, 0.9, 0));
        assertThrows(IllegalArgumentException.class, () -> new Workload(100, 1000, 1.1, 50));
        assertThrows(IllegalArgumentException.class, () -> Tuner.tune(0, TABLE2, Objective.ERROR_RATE));
        assertThrows(IllegalArgumentException.class, () -> Tuner.tune(Tuner.MAX_MEMORY_BITS + 1, TABLE2,
            Objective.ERROR_RATE));
    }

    @Test
    void numericSumsAgreeWithTheClosedForms()
    {
        // the generic sums (used for the kinds without closed forms) against QHT's closed forms, at the mean traffic
        final QhtModel model = QhtModel.forMemory(80_000, 2, 3);
        for (final Workload w : List.of(TABLE2, Workload.uniform(1_500_000, Double.POSITIVE_INFINITY),
            Workload.uniform(50_000, 1_000_000)))
        {
            final StreamWeights weights = new StreamWeights(w);
            assertEquals(model.meanTrafficFalsePositiveRate(w.length(), w.alphabet()),
                weights.falsePositiveRate(model::falsePositive), 1e-3, w.describe());
            assertEquals(model.meanTrafficFalseNegativeRate(w.length(), w.alphabet()),
                weights.falseNegativeRate(model::falseNegative), 1e-3, w.describe());
        }
        // a Zipf law over U: the expected distinct count is below the uniform one, and both below n and U
        final StreamWeights zipf = new StreamWeights(new Workload(1_000_000, 1_000_000, 1.1, 0));
        final StreamWeights uniform = new StreamWeights(Workload.uniform(1_000_000, 1_000_000));
        assertTrue(zipf.distinct(1_000_000) < uniform.distinct(1_000_000));
        assertEquals(1_000_000 * (1 - Math.exp(-1)), uniform.distinct(1_000_000), 1);
    }
}
