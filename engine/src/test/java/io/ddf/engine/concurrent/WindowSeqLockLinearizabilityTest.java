package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The window family's sequence lock (SeqLock, used by RingCountCore): {@code stream} under the write lock,
 * {@code contains} optimistic, retried when a writer ran. The exact windowed filter with w = 1 and 3 keys: every
 * stream evicts the previous element (decrement, then increment, in the counting table), so a reader that is not
 * turned back sees a window holding neither. With {@code readValid} made always true, model checking reports
 * {@code stream(1) | contains(1): false, stream(1): true} with the interleaving; w = 3 and 6 keys did not find it.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:2")
public class WindowSeqLockLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.EXACT_WINDOW).window(1));

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
