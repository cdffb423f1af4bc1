package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Wide quotient rows (WideQuotientCore: a row of several words updated under the lock bit of its first word) are
 * linearizable under concurrent {@code stream} and {@code contains}. QHT with 2 rows of 9 cells of 8 bits: a row
 * takes two words (7 cells, then 2), so an update that writes both words is what a reader could see half done.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class WideQuotientRowsLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.QHT).rows(2).buckets(9).fingerprintBits(8));

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
