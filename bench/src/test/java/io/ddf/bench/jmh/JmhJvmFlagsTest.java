package io.ddf.bench.jmh;

import io.ddf.persistence.platform.JvmFlags;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The forked benchmarks' module flags, constants for {@code @Fork}, are exactly the list in jvm-flags.properties. */
class JmhJvmFlagsTest
{
    @Test
    void forkFlagsAreTheOneList()
    {
        final List<String> fork = Arrays.stream(io.ddf.bench.jmh.JvmFlags.all()).filter(f -> f.startsWith("--add-"))
            .toList();
        assertEquals(JvmFlags.commandLine(), fork);
    }
}
