package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cuckoo kick chain (CuckooCore: relocations under the table lock and version, CAS insertions without one,
 * lookups that retry when a relocation overlapped them) is linearizable under concurrent {@code stream} and
 * {@code contains}. 4 buckets of 1 slot of 8 bits and 6 keys: most insertions relocate, some drop a victim.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class CuckooRelocationLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.CUCKOO).memoryBits(32).buckets(1).fingerprintBits(8).param("max-kicks", 3));

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
