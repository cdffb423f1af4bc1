package io.ddf.ingest.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handshake gate: connections over the rate wait, reading nothing, and are admitted as tokens come. */
class HandshakeGateTest
{
    @TempDir
    Path dir;

    @Test
    void overTheRateConnectionsWaitTheirTurn() throws Exception
    {
        final TestCertificates certs = TestCertificates.make(dir);
        final SslContext context = TlsContexts.server(new TlsOptions(certs.serverCert(), certs.serverKey(), null,
            null, null, ClientAuthMode.NO, List.of(), List.of()), TlsContexts.preferredProvider());
        final double perSecond = 4; // a burst of one, then one every 250 ms
        final EmbeddedChannel first = channel(context, perSecond);
        assertNotNull(first.pipeline().get(SslHandler.class), "the first is admitted at once");
        assertTrue(first.config().isAutoRead());
        final EmbeddedChannel second = channel(context, perSecond);
        assertNull(second.pipeline().get(SslHandler.class), "the second waits");
        assertFalse(second.config().isAutoRead(), "reading nothing meanwhile");
        Thread.sleep(400);
        second.runScheduledPendingTasks();
        assertNotNull(second.pipeline().get(SslHandler.class), "admitted once a token came");
        assertTrue(second.config().isAutoRead());
        second.close();
        final EmbeddedChannel closed = channel(context, perSecond);
        closed.close();
        Thread.sleep(400);
        closed.runScheduledPendingTasks();
        assertNull(closed.pipeline().get(SslHandler.class), "a connection closed while waiting is not admitted");
        first.finishAndReleaseAll();
        second.finishAndReleaseAll();
    }

    private static EmbeddedChannel channel(final SslContext context, final double perSecond) throws Exception
    {
        final EmbeddedChannel ch = new EmbeddedChannel(false, false);
        ch.pipeline().addLast(new HandshakeGate(() -> context.newHandler(ByteBufAllocator.DEFAULT), perSecond));
        ch.register();
        ch.pipeline().fireChannelActive();
        return ch;
    }
}
