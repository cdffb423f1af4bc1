package io.ddf.bench.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH per-thread state: a {@link KeySource} over the shared pool, and counts of the calls made and the DUPLICATE
 * verdicts received, which {@link Keys} prints after each iteration.
 */
@State(Scope.Thread)
public class ThreadKeys extends KeySource
{
    /** Calls made. */
    public long calls;
    /** Calls judged duplicate. */
    public long duplicates;

    /**
     * @param keys the shared pool.
     */
    @Setup(Level.Trial)
    public void setup(final Keys keys)
    {
        calls = 0;
        duplicates = 0;
        init(keys.pool, keys.register(this));
    }
}
