package io.ddf.ingest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ddf verify}: reports a sound file, names a corrupt one, changes nothing; FIFOs are refused at once. */
class VerifyCommandTest
{
    /** Offset of the first table byte in a filter file. */
    private static final long TABLE_OFFSET = 4096;

    @TempDir
    Path dir;

    @Test
    void soundFileIsReportedAndUnchanged() throws IOException
    {
        final Path file = made("ok.ddf");
        final byte[] before = Files.readAllBytes(file);
        final Cli.Result verify = Cli.run("", "verify", file.toString());
        assertEquals(0, verify.status(), verify::toString);
        assertTrue(verify.outLines().contains("table checksum: ok"), verify.out());
        assertTrue(verify.outLines().contains("format: 2.0"), verify.out());
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    @Test
    void flippedTableByteExits2NamingTheFileAndTheReason() throws IOException
    {
        final Path file = made("bad.ddf");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, TABLE_OFFSET + 10);
            one.put(0, (byte)(one.get(0) ^ 4)).position(0);
            channel.write(one, TABLE_OFFSET + 10);
        }
        final byte[] before = Files.readAllBytes(file);
        final Cli.Result verify = Cli.run("", "verify", file.toString());
        assertEquals(2, verify.status(), verify::toString);
        assertTrue(verify.stderr().contains(file.toString()) && verify.stderr().contains("table checksum mismatch"),
            verify.stderr());
        assertArrayEquals(before, Files.readAllBytes(file));
        // The pipe, an embedder of the engine, opens it as after a crash (issue 30): its structure checked, the
        // reason on stderr, never silently; a structure found wrong would still be refused.
        final Cli.Result pipe = Cli.run("a\n", "pipe", "--filter", "qht", "--memory-bits", "65536",
            "--file", file.toString());
        assertEquals(0, pipe.status(), pipe::toString);
        assertTrue(pipe.stderr().contains(file.toString()) && pipe.stderr().contains("seal did not match") &&
            pipe.stderr().contains("opened as after a crash"), pipe.stderr());
    }

    @Test
    void infoAndVerifyOnAFifoExit2AtOnce() throws Exception
    {
        final Path fifo = dir.resolve("fifo.ddf");
        final Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
        {
            for (final String command : new String[] {"info", "verify"})
            {
                final Cli.Result result = Cli.run("", command, fifo.toString());
                assertEquals(2, result.status(), result::toString);
                assertTrue(result.stderr().contains("not a regular file"), result.stderr());
            }
            final Cli.Result pipe = Cli.run("a\n", "pipe", "--filter", "qht", "--memory-bits", "65536",
                "--file", fifo.toString());
            assertEquals(2, pipe.status(), pipe::toString);
            assertTrue(pipe.stderr().contains("not a regular file"), pipe.stderr());
        });
    }

    private Path made(final String name)
    {
        final Path file = dir.resolve(name);
        final Cli.Result made = Cli.run("a\nb\na\n", "pipe", "--filter", "qht", "--memory-bits", "65536",
            "--file", file.toString());
        assertEquals(0, made.status(), made::toString);
        return file;
    }
}
