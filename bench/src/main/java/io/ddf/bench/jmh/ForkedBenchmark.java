package io.ddf.bench.jmh;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What every benchmark of the suite shares (JMH inherits class annotations): average time per call in ns, one
 * fork with {@link JvmFlags}, 3 warm-up and 5 measured iterations of 1 s unless JMH's command line says otherwise.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.EXPORT_NIO, JvmFlags.EXPORT_MISC, JvmFlags.EXPORT_REF,
    JvmFlags.OPEN_REFLECT, JvmFlags.OPEN_IO, JvmFlags.AGRONA_NO_BOUNDS_CHECKS})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class ForkedBenchmark
{
    /** Memory of the 1 Mbit and 1 Gbit tables, as JMH parameter values. */
    static final String MBIT = "1048576";
    /** 1 Gbit: a 128 MiB table. */
    static final String GBIT = "1073741824";
}
