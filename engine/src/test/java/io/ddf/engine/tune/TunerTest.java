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

    /** fifo-bloom (kind 18) is weighed on uniform streams, and listed as not modelled on skewed ones. */
    @Test
    void fifoBloomIsWeighedAndListed()
    {
        final Tuning t = Tuner.tune(80_000, TABLE2, Objective.ERROR_RATE);
        assertTrue(t.bestPerKind().stream().anyMatch(c -> c.kind() == FilterKind.FIFO_BLOOM), t.bestPerKind()
            .toString());
        assertFalse(t.notModelled().containsKey(FilterKind.FIFO_BLOOM));
        final Tuning zipf = Tuner.tune(80_000, new Workload(1_500_000, 167_772, 1.1, 0), Objective.ERROR_RATE);
        assertTrue(zipf.notModelled().containsKey(FilterKind.FIFO_BLOOM));
        assertTrue(zipf.bestPerKind().stream().noneMatch(c -> c.kind() == FilterKind.FIFO_BLOOM));
        // an FNR cap only fifo-bloom and bloom reach at this memory: a capacity above the distinct elements
        final Tuning capped = Tuner.tune(4_000_000, Workload.uniform(1_000_000, 100_000),
            new Objective(1, 1, 0.01, 0.001));
        assertTrue(capped.admitted(), capped.pick().toString());
    }

    @Test
    void unreachableCapsAreReportedNotHidden()
    {
        final Tuning t = Tuner.tune(80_000, TABLE2, new Objective(1, 1, 0.01, 0.01));
        assertFalse(t.admitted());
    }

    @Test
    void forCapacityIsTheLeastMemoryKeepingThePromise()
    {
        for (final long capacity : new long[] {100, 100_000})
        {
            for (final double error : new double[] {0.3, 0.01, 0.0001})
            {
                final Candidate c = Tuner.forCapacity(capacity, error);
                final String what = capacity + " / " + error + ": " + c;
                assertTrue(c.fpr() <= error && c.fnr() <= CapacitySizing.MAX_FORGOTTEN, what);
                assertTrue(CapacitySizing.refusal(c.builder().parameters(), capacity, error).isEmpty(), what);
                final long memory = c.parameters().get("memory-bits").longValue();
                // every kind it weighs keeps the promise at no less memory
                for (final FilterKind kind : new FilterKind[] {FilterKind.FIFO_BLOOM, FilterKind.QHT})
                {
                    final Candidate other = CapacitySizing.forCapacity(capacity, error, kind);
                    assertTrue(CapacitySizing.refusal(other.builder().parameters(), capacity, error).isEmpty(),
                        other.toString());
                    assertTrue(memory <= other.parameters().get("memory-bits").longValue(), what + " vs " + other);
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Tuner.forCapacity(0, 0.01));
        assertThrows(IllegalArgumentException.class, () -> Tuner.forCapacity(10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> CapacitySizing.forCapacity(10, 0.01, FilterKind.SBF));
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
