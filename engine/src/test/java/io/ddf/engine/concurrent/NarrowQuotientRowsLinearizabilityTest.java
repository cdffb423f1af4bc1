package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Narrow quotient rows (NarrowQuotientCore: one compare-and-swap per row update) are linearizable: concurrent
 * {@code stream} and {@code contains} give results some sequential order of the same operations on the same filter
 * gives. The filter is tiny so that operations collide: QHT with 2 rows of 2 cells of 4 bits (both rows in one
 * word, so even different rows contend for the CAS), 6 keys (evictions, and fingerprint collisions).
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class NarrowQuotientRowsLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.QHT).rows(2).buckets(2)
        .fingerprintBits(4));

    @Operation
    public boolean stream(@Param(name = "key") final int key)
    {
        return filter.stream(key);
    }

    @Operation
    public boolean contains(@Param(name = "key") final int key)
    {
        return filter.contains(key);
    }

    @Test
    void stress()
    {
        LincheckRuns.stress(getClass());
    }

    @Test
    void modelChecking()
    {
        LincheckRuns.modelChecking(getClass());
    }
}
