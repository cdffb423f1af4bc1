package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verdict replies' bytes are RESP's integers and arrays, and leave in one write. */
class VerdictBytesTest
{
    @Test
    void encodesIntegersAndArraysAsRespInOneWrite()
    {
        final List<String> written = new ArrayList<>();
        final EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter()
        {
            @Override
            public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
            {
                final ByteBuf b = (ByteBuf)msg;
                written.add(b.toString(StandardCharsets.US_ASCII));
                b.release();
            }
        }, new ChannelInboundHandlerAdapter());
        // the connection's handler sits after the encoder: its writes go through the handlers before it
        final ChannelHandlerContext ctx = channel.pipeline().lastContext();
        final VerdictBytes bytes = new VerdictBytes();
        assertFalse(bytes.writeTo(ctx));
        bytes.bool(false, true);
        bytes.bool(false, false);
        bytes.arrayHeader(3);
        bytes.bool(false, false);
        bytes.bool(false, true);
        bytes.bool(false, true);
        bytes.arrayHeader(0);
        bytes.arrayHeader(1000);
        assertTrue(bytes.writeTo(ctx));
        assertFalse(bytes.writeTo(ctx));
        final StringBuilder many = new StringBuilder();
        for (int i = 0; i < 300; i++)
        {
            bytes.bool(false, i % 3 == 0);
            many.append(i % 3 == 0 ? ":1\r\n" : ":0\r\n");
        }
        assertTrue(bytes.writeTo(ctx));
        // RESP3: booleans, as RedisBloom's BF.ADD and BF.MADD answer there
        bytes.bool(true, true);
        bytes.arrayHeader(2);
        bytes.bool(true, false);
        bytes.bool(true, true);
        assertTrue(bytes.writeTo(ctx));
        assertEquals(List.of(":1\r\n:0\r\n*3\r\n:0\r\n:1\r\n:1\r\n*0\r\n*1000\r\n", many.toString(),
            "#t\r\n*2\r\n#f\r\n#t\r\n"), written);
        channel.finishAndReleaseAll();
    }

    @Test
    void dropReleasesWhatWasNotWritten()
    {
        final VerdictBytes bytes = new VerdictBytes();
        bytes.bool(false, true);
        bytes.drop();
        bytes.drop();
        final EmbeddedChannel channel = new EmbeddedChannel();
        assertFalse(bytes.writeTo(channel.pipeline().firstContext()));
        channel.finishAndReleaseAll();
    }
}
