package io.ddf.ingest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shaded jar as a user runs it: {@code java -jar target/ddf.jar}. Run by failsafe in {@code integration-test},
 * after {@code package} has built the jar from the current sources.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JarIT
{
    private static final Path JAR = Path.of(System.getProperty("ddf.jar", "target/ddf.jar"));
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    @BeforeAll
    static void jarExists()
    {
        assertTrue(Files.isRegularFile(JAR), "no " + JAR.toAbsolutePath() + "; run mvn verify");
    }

    /** The jar's manifest carries the one list of JVM flags (jvm-flags.properties) exactly. */
    @Test
    void manifestCarriesTheFlagsOfTheOneList() throws IOException
    {
        final java.util.Properties flags = JvmFlags.list();
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(JAR.toFile()))
        {
            final java.util.jar.Attributes main = jar.getManifest().getMainAttributes();
            assertEquals(flags.getProperty("ddf.add.exports"), main.getValue("Add-Exports"));
            assertEquals(flags.getProperty("ddf.add.opens"), main.getValue("Add-Opens"));
        }
    }

    @Test
    void pipeWritesVerdicts() throws Exception
    {
        final Process process = start("pipe", "--filter", "qht", "--seed", "1");
        try (OutputStream in = process.getOutputStream())
        {
            in.write("alpha\nbeta\nalpha\ngamma".getBytes(StandardCharsets.UTF_8));
        }
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), err);
        assertEquals("U\nU\nD\nU\n", out);
    }

    @Test
    void badOptionExits2WithOneLine() throws Exception
    {
        final Process process = start("pipe", "--filter", "qht", "--buckets", "4", "--fingerprint-bits", "2");
        process.getOutputStream().close();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), err);
        assertEquals("", out);
        assertTrue(err.startsWith("ddf: ") && err.indexOf('\n') == err.length() - 1, err);
    }

    /** Once Chronicle is loaded nothing else may reach stderr: a refused file still gives exactly one line. */
    @Test
    void mismatchedFileExits2WithOneLine() throws Exception
    {
        final Path file = dir.resolve("k4.ddf");
        final Cli.Result made = Cli.run("a\n", "pipe", "--filter", "qht", "--memory-bits", "65536", "--file",
            file.toString());
        assertEquals(0, made.status(), made::toString);
        final Process process = start("pipe", "--filter", "qht", "--buckets", "8", "--file", file.toString());
        process.getOutputStream().close();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), err);
        assertEquals("", out);
        assertTrue(err.startsWith("ddf: ") && err.indexOf('\n') == err.length() - 1, err);
        assertTrue(err.contains("buckets"), err);
    }

    /** Answers come as lines go in; SIGTERM closes the filter with every element recorded. */
    @Test
    void interactiveThenSigtermKeepsState() throws Exception
    {
        final Path file = dir.resolve("live.ddf");
        final Process process = start("pipe", "--filter", "qqhtd", "--memory-bits", "65536", "--file",
            file.toString());
        final OutputStream in = process.getOutputStream();
        final BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        final List<String> verdicts = new ArrayList<>();
        try
        {
            for (final String line : new String[] {"a", "b", "a"})
            {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                verdicts.add(out.readLine());
            }
            assertEquals(List.of("U", "U", "D"), verdicts,
                () -> "stderr: " + new String(readAvailable(process), StandardCharsets.UTF_8));
            process.destroy();
            assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        finally
        {
            process.destroyForcibly();
            in.close();
        }

        final Cli.Result info = Cli.run("", "info", file.toString());
        assertEquals(0, info.status(), info::toString);
        assertTrue(info.outLines().contains("elements: 3"), info.out());
        assertTrue(info.outLines().contains("duplicates: 1"), info.out());

        final Cli.Result again = Cli.run("b\nc\n", "pipe", "--filter", "qqhtd", "--file", file.toString());
        assertEquals(0, again.status(), again::toString);
        assertEquals("D\nU\n", again.out());
    }

    /**
     * {@code pipe} streams in single-writer mode (plain loads and release stores): killed with SIGKILL, it loses
     * nothing it acknowledged: every element answered is in the reopened filter, the counters count exactly the
     * answers, and the file passes the structure check a crash calls for.
     */
    @Test
    void pipeKilledLosesNothingItAnswered() throws Exception
    {
        final Path file = dir.resolve("killed.ddf");
        final Process process = start("pipe", "--filter", "qht", "--memory-bits", "65536", "--seed", "3", "--file",
            file.toString());
        final OutputStream in = process.getOutputStream();
        final BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        final StringBuilder lines = new StringBuilder();
        final int answered = 300;
        try
        {
            for (int i = 0; i < answered; i++)
            {
                in.write(("key-" + i + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                final String verdict = out.readLine();
                assertTrue("U".equals(verdict) || "D".equals(verdict), () -> "answer " + verdict + ", stderr: " +
                    new String(readAvailable(process), StandardCharsets.UTF_8));
                lines.append("key-").append(i).append('\n');
            }
        }
        finally
        {
            process.destroyForcibly();
            assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            in.close();
        }
        final Cli.Result verify = Cli.run("", "verify", file.toString());
        assertEquals(0, verify.status(), verify::toString);
        assertTrue(verify.outLines().contains("structure: ok"), verify.out());
        final Cli.Result info = Cli.run("", "info", file.toString());
        assertTrue(info.outLines().contains("elements: " + answered), info.out());
        // 300 keys in 1024 rows of 4 cells: no row overflows, so every key answered must be a duplicate now
        final Cli.Result again = Cli.run(lines.toString(), "pipe", "--filter", "qht", "--file", file.toString());
        assertEquals(0, again.status(), again::toString);
        assertEquals("D\n".repeat(answered), again.out());
    }

    private static byte[] readAvailable(final Process process)
    {
        try
        {
            return process.getErrorStream().readNBytes(process.getErrorStream().available());
        }
        catch (final IOException e)
        {
            return new byte[0];
        }
    }

    private static Process start(final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(JAR.toString());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }
}
