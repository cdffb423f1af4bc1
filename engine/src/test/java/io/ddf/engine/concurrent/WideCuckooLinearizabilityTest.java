package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The wide cuckoo layout (WideCuckooCore: every insertion under the table lock, lookups validated by the version)
 * is linearizable under concurrent {@code stream} and {@code contains}. 2 buckets of 4 slots of 32 bits (two words
 * a bucket) and 6 keys: buckets fill, relocations and drops follow.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class WideCuckooLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.CUCKOO).memoryBits(256).buckets(4).fingerprintBits(32).param("max-kicks", 3));

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
