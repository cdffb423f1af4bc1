package io.ddf.ingest.resp;

import io.ddf.ingest.server.RespClient;
import io.ddf.ingest.server.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The decoder's reused argument buffers in a daemon: never reused while someone holds them (ECHO's reply waiting to
 * be written behind later commands of the same read). Their reuse on its own is {@link RespDecoderTest}'s.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReusedArgumentsTest
{
    @TempDir
    Path dir;

    @Test
    void echoRepliesWaitingBehindLaterCommandsKeepTheirBytes() throws IOException
    {
        try (TestServer server = new TestServer(dir.resolve("data"), c -> { }); RespClient c = server.client())
        {
            final ByteArrayOutputStream requests = new ByteArrayOutputStream();
            requests.writeBytes(RespClient.encode("ECHO", "first"));
            requests.writeBytes(RespClient.encode("BF.ADD", "k", "x"));
            requests.writeBytes(RespClient.encode("ECHO", "later"));
            requests.writeBytes(RespClient.encode("ECHO", "third"));
            c.sendRaw(requests.toByteArray());
            assertEquals("first", c.read());
            assertEquals(1L, c.read());
            assertEquals("later", c.read());
            assertEquals("third", c.read());
        }
    }
}
