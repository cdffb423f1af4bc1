package io.ddf.ingest.resp;

import io.ddf.ingest.server.RespClient;
import io.ddf.ingest.server.TestServer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Reused argument buffers: reused only once released, never while someone holds them (a queued command, ECHO's
 * reply waiting to be written behind later commands of the same read).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ArgumentBuffersTest
{
    @TempDir
    Path dir;

    private static final byte[] INPUT = "BF.ADDkeyitem".getBytes(StandardCharsets.US_ASCII);
    private static final int[] SPANS = {0, 6, 6, 3, 9, 4};

    @Test
    void reusesOnlyWhatItsReceiverReleased()
    {
        final ArgumentBuffers buffers = new ArgumentBuffers();
        final ByteBuf in = Unpooled.wrappedBuffer(INPUT);
        final ByteBuf[] first = buffers.copy(in, 0, SPANS, 3);
        assertEquals("item", first[2].toString(StandardCharsets.US_ASCII));
        // not released yet (a receiver that queues): the next command gets its own array and buffers
        final ByteBuf[] second = buffers.copy(in, 0, SPANS, 3);
        assertNotSame(first, second);
        assertNotSame(first[0], second[0]);
        assertEquals("BF.ADD", first[0].toString(StandardCharsets.US_ASCII));
        for (final ByteBuf arg : second)
        {
            arg.release();
        }
        final ByteBuf[] third = buffers.copy(in, 0, SPANS, 3);
        assertSame(second, third, "released: the array and buffers are reused");
        assertSame(second[1], third[1]);
        for (final ByteBuf arg : first)
        {
            assertEquals(1, arg.refCnt(), "the first receiver's buffers are its own now");
            arg.release();
        }
        for (final ByteBuf arg : third)
        {
            arg.release();
        }
        assertNull(buffers.copy(in, 0, new int[]{0, ArgumentBuffers.MAX_BYTES + 1}, 1), "too long: sliced instead");
        buffers.release();
        assertEquals(0, third[0].refCnt());
    }

    @Test
    void aLargeCommandIsCopiedToo()
    {
        // BF.MADD of 100 items: its buffers and array reused once released, as a small command's
        final ArgumentBuffers buffers = new ArgumentBuffers();
        final StringBuilder text = new StringBuilder();
        final int argc = 102;
        final int[] spans = new int[2 * ArgumentBuffers.MAX_ARGS + 2];
        for (int i = 0; i < argc; i++)
        {
            spans[2 * i] = text.length();
            final String arg = i == 0 ? "BF.MADD" : "item" + i;
            spans[2 * i + 1] = arg.length();
            text.append(arg);
        }
        final ByteBuf in = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        final ByteBuf[] first = buffers.copy(in, 0, spans, argc);
        assertEquals("item101", first[101].toString(StandardCharsets.US_ASCII));
        assertEquals(1, in.refCnt(), "copied: the input is not retained");
        for (final ByteBuf arg : first)
        {
            arg.release();
        }
        final ByteBuf[] second = buffers.copy(in, 0, spans, argc);
        assertSame(first, second, "released: the array and buffers are reused");
        assertEquals("item7", second[7].toString(StandardCharsets.US_ASCII));
        for (final ByteBuf arg : second)
        {
            arg.release();
        }
        assertNull(buffers.copy(in, 0, spans, ArgumentBuffers.MAX_ARGS + 1), "too many: sliced instead");
        buffers.release();
        in.release();
    }

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
