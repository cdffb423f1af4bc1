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
 * {@code contains} optimistic, retried when a writer ran. The exact windowed filter with w = 3 and 6 keys: every
 * stream pushes one key and pops another from the ring and the counting table, several words per update.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class WindowSeqLockLinearizabilityTest
{
    private final TinyCore filter = new TinyCore(Filters.builder(FilterKind.EXACT_WINDOW).window(3));

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
