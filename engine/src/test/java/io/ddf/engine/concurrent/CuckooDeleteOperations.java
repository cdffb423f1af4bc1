package io.ddf.engine.concurrent;

import io.ddf.engine.FilterBuilder;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * The operations of the cuckoo filter's CF.ADD / CF.DEL / CF.COUNT linearizability tests
 * (CuckooCore.add/delete/count, under the table lock or validated by its version), beside the {@code stream} and
 * {@code contains} of {@link StreamContainsOperations}; each subclass gives the shape, whose tiny table makes
 * buckets fill, relocate and drop while copies are added and deleted. Lincheck finds the operations on the subclass through inheritance, and their
 * parameter generator here, on the class that declares them: 6 keys.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:5")
abstract class CuckooDeleteOperations extends StreamContainsOperations
{
    /** @param shape the cuckoo filter's builder (kind, memory, buckets, fingerprint bits, max-kicks). */
    CuckooDeleteOperations(final FilterBuilder shape)
    {
        super(shape);
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
}
