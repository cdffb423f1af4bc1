package io.ddf.ingest;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ddf info}: prints the header, changes nothing. */
class InfoCommandTest
{
    @TempDir
    Path dir;

    @Test
    void printsKindParametersAndCountersWithoutChangingTheFile() throws IOException
    {
        final Path file = dir.resolve("f.ddf");
        final Cli.Result made = Cli.run("a\nb\na\n", "pipe", "--filter", "qht", "--buckets", "4",
            "--fingerprint-bits", "12", "--memory-bits", "65536", "--seed", "42", "--file", file.toString());
        assertEquals(0, made.status(), made::toString);
        final byte[] before = Files.readAllBytes(file);

        final Cli.Result info = Cli.run("", "info", file.toString());
        assertEquals(0, info.status(), info::toString);
        assertEquals("", info.stderr());
        final List<String> lines = info.outLines();
        assertTrue(lines.stream().allMatch(l -> l.matches("[a-z-]+: .*")), info.out());
        assertTrue(lines.contains("kind: qht"), info.out());
        assertTrue(lines.contains("buckets: 4"), info.out());
        assertTrue(lines.contains("fingerprint-bits: 12"), info.out());
        assertTrue(lines.contains("memory-bits: 65536"), info.out());
        assertTrue(lines.contains("seed: 42"), info.out());
        assertTrue(lines.contains("elements: 3"), info.out());
        assertTrue(lines.contains("duplicates: 1"), info.out());
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    @Test
    void sqfParameters() throws IOException
    {
        final Path file = dir.resolve("s.ddf");
        final Cli.Result made = Cli.run("", "pipe", "--filter", "sqf", "--remainder-bits", "10",
            "--reduced-bits", "6", "--rows", "64", "--file", file.toString());
        assertEquals(0, made.status(), made::toString);
        final byte[] before = Files.readAllBytes(file);
        final Cli.Result info = Cli.run("", "info", file.toString());
        assertEquals(0, info.status(), info::toString);
        assertTrue(info.outLines().contains("kind: sqf"), info.out());
        assertTrue(info.outLines().contains("remainder-bits: 10"), info.out());
        assertTrue(info.outLines().contains("reduced-bits: 6"), info.out());
        assertTrue(info.outLines().contains("rows: 64"), info.out());
        assertTrue(info.outLines().contains("elements: 0"), info.out());
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    @Test
    void missingFileExits2WithOneLine()
    {
        final Cli.Result info = Cli.run("", "info", dir.resolve("nope.ddf").toString());
        assertEquals(2, info.status(), info::toString);
        assertEquals(0, info.stdout().length);
        assertEquals(1, info.errLines().size(), info.stderr());
        assertTrue(info.stderr().startsWith("ddf: "), info.stderr());
    }

    @Test
    void foreignFileExits2AndStaysUnchanged() throws IOException
    {
        final Path file = dir.resolve("foreign");
        final byte[] bytes = new byte[8192];
        new java.util.Random(TestSeed.seed()).nextBytes(bytes);
        Files.write(file, bytes);
        final Cli.Result info = Cli.run("", "info", file.toString());
        assertEquals(2, info.status(), info::toString);
        assertEquals(0, info.stdout().length);
        assertEquals(1, info.errLines().size(), info.stderr());
        assertArrayEquals(bytes, Files.readAllBytes(file));
    }
}
