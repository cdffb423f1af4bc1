package io.ddf.persistence.platform;

import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileSpec;
import io.ddf.persistence.testing.ChildJvm;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The check at first use (issue 30): a JVM started without one of the flags gets, from the first FilterFile.create,
 * an error naming that flag, why it is needed and {@code bin/ddf jvm-flags}, instead of Chronicle's
 * ExceptionInInitializerError; with every flag, nothing.
 */
class JvmFlagsTest
{
    @Test
    void theTestJvmHasEveryFlagTheJarCarries()
    {
        assertNull(JvmFlags.missing(JvmFlags.class.getModule()));
        assertTrue(ManagementFactory.getRuntimeMXBean().getInputArguments().containsAll(JvmFlags.commandLine()),
            "surefire's argLine and the jar's copy of jvm-flags.properties agree");
    }

    @Test
    void aMissingFlagIsNamedWithItsReasonBeforeChronicleFails() throws Exception
    {
        for (final String dropped : List.of("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"))
        {
            final List<String> command = ChildJvm.command(Probe.class);
            assertTrue(command.remove(dropped), command + " lacks " + dropped);
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), out);
            assertEquals(3, process.exitValue(), out);
            assertTrue(out.contains("ddf needs JVM flags") && out.contains(dropped) &&
                out.contains("bin/ddf jvm-flags"), out);
            assertEquals(1, out.lines().filter(line -> line.startsWith("  --add-")).count(), "only " + dropped + ": " +
                out);
            assertFalse(out.contains("Exception in thread") || out.contains("\tat "), "no stack trace: " + out);
        }
        // jdk.internal.ref only keeps Chronicle's cleaner warning away: a JVM without it is not refused.
        final List<String> command = ChildJvm.command(Probe.class);
        assertTrue(command.remove("--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"), command.toString());
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, process.exitValue(), out);
    }

    /** Creates an anonymous filter file: exit 0, or 3 printing the IllegalStateException's message. */
    public static final class Probe
    {
        private Probe()
        {
        }

        /** @param args none. */
        public static void main(final String[] args)
        {
            try (FilterFile file = FilterFile.create(null, new FilterFileSpec(1, 2, 42L, null, new long[] {1}, 4096)))
            {
                System.out.println("created " + file.tableLength());
            }
            catch (final IllegalStateException e)
            {
                System.out.println(e.getMessage());
                System.exit(3);
            }
        }
    }
}
