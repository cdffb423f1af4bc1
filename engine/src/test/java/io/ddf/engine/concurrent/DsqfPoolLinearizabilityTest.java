package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The DSQF pool (DynamicSqfCore: one writer lock over the rows, the shared bucket pool and the recency list, taken
 * by {@code stream} and {@code contains}) is linearizable. 2 rows over a pool smaller than the keys: hard
 * collisions unlink buckets from the least recently used row and reuse them.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class DsqfPoolLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.DSQF).rows(2).buckets(1).remainderBits(8).reducedBits(4));

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
