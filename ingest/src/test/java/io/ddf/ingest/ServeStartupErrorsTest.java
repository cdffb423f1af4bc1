package io.ddf.ingest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ddf serve} that cannot start says why in one plain sentence: no Java class names, no stack. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServeStartupErrorsTest
{
    @TempDir
    Path dir;

    private static void assertPlainSentence(final String stderr)
    {
        final String lastLine = stderr.strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(lastLine.startsWith("ddf: "), stderr);
        assertFalse(stderr.contains("Exception") || stderr.contains("java.") || stderr.contains("io.netty"), stderr);
    }

    @Test
    void aPortInUseIsNamedWithWhatToDo() throws IOException
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final int port = taken.getLocalPort();
            final Cli.Result r = Cli.run("", "serve", "--port", Integer.toString(port), "--data-dir",
                dir.resolve("data").toString());
            assertEquals(1, r.status(), r.stderr());
            assertPlainSentence(r.stderr());
            assertTrue(r.stderr().contains("ddf: cannot listen for RESP on 127.0.0.1:" + port +
                ": the address is already in use"), r.stderr());
        }
    }

    @Test
    void aDataDirectoryThatIsAFileIsNamed() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        final Cli.Result r = Cli.run("", "serve", "--port", "0", "--data-dir", file.toString());
        assertEquals(1, r.status(), r.stderr());
        assertPlainSentence(r.stderr());
        assertTrue(r.stderr().contains("ddf: cannot use data directory " + file + ": " + file +
            " exists and is not a directory"), r.stderr());
    }

    @Test
    void anUnknownExecutionModeNamesTheTwoThereAre()
    {
        final Cli.Result r = Cli.run("", "serve", "--port", "0", "--execution", "sideways", "--data-dir",
            dir.resolve("data").toString());
        assertEquals(2, r.status(), r.stderr());
        assertTrue(r.stderr().contains("expected inline or pipeline, got 'sideways'"), r.stderr());
        assertFalse(Files.exists(dir.resolve("data")), "nothing written");
    }
}
