package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cuckoo filter's CF.ADD, CF.DEL and CF.COUNT (CuckooCore.add/delete/count, under the table lock or validated
 * by its version) are linearizable together with {@code stream} and {@code contains}: 2 buckets of 4 slots of 32 bits, two words a bucket (every write under the table lock), 6 keys, so buckets fill,
 * relocate and drop while copies are added and deleted.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class WideCuckooDeleteLinearizabilityTest
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

    @Operation
    public void add(@Param(name = "key") final int key)
    {
        filter.add(key);
    }

    @Operation
    public boolean delete(@Param(name = "key") final int key)
    {
        return filter.delete(key);
    }

    @Operation
    public int count(@Param(name = "key") final int key)
    {
        return filter.count(key);
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
