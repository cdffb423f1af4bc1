package io.ddf.ingest;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Everything that says the JVM flags derives them from jvm-flags.properties: the tests' JVM (surefire's argLine,
 * built by the parent pom) and {@code bin/ddf jvm-flags} (what README tells embedders to run) give the same flags.
 * The jars' manifests are checked by {@link JarIT}.
 */
class JvmFlagsTest
{
    @Test
    void theTestJvmRunsWithEveryFlagOfTheList() throws Exception
    {
        final List<String> expected = JvmFlags.commandLine();
        assertEquals(5, expected.size(), expected.toString());
        final List<String> actual = ManagementFactory.getRuntimeMXBean().getInputArguments();
        assertTrue(actual.containsAll(expected), actual + " lacks some of " + expected);
    }

    @Test
    void launcherPrintsTheList() throws Exception
    {
        final Path launcher = JvmFlags.file().toAbsolutePath().getParent().resolve("bin").resolve("ddf");
        final Process process = new ProcessBuilder(launcher.toString(), "jvm-flags").redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), out);
        assertEquals(JvmFlags.commandLine(), List.of(out.strip().split("\n")));
    }
}
