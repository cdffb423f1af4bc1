package io.ddf.engine.concurrent;

import io.ddf.engine.FilterBuilder;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

/**
 * The operations and runs every linearizability test here shares: concurrent {@code stream} and {@code contains}
 * on a tiny filter must give results some sequential order of the same operations on the same filter gives. Each
 * subclass gives the shape (a public no-argument constructor, as Lincheck wants) and says in its comment what the
 * shape makes collide. Lincheck finds the operations on the subclass through inheritance, and their parameter
 * generator here, on the class that declares them: 6 keys.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:5")
abstract class StreamContainsOperations
{
    /** The filter under test, for subclasses that add operations of their own. */
    final TinyCore filter;

    /** @param shape the filter's builder (kind and a table small enough for operations to collide). */
    StreamContainsOperations(final FilterBuilder shape)
    {
        this.filter = new TinyCore(shape);
    }

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
