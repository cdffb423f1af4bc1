package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * The cuckoo kick chain (CuckooCore: relocations under the table lock and version, CAS insertions without one,
 * lookups that retry when a relocation overlapped them) is linearizable under concurrent {@code stream} and
 * {@code contains}. 4 buckets of 1 slot of 8 bits and 6 keys: most insertions relocate, some drop a victim.
 */
@Tag("lincheck")
public class CuckooRelocationLinearizabilityTest extends StreamContainsOperations
{
    public CuckooRelocationLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.CUCKOO).memoryBits(32).buckets(1).fingerprintBits(8).param("max-kicks", 3));
    }
}
