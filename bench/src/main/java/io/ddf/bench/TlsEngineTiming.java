package io.ddf.bench;

import io.ddf.ingest.tls.ClientAuthMode;
import io.ddf.ingest.tls.MemoryHandshake;
import io.ddf.ingest.tls.TlsContexts;
import io.ddf.ingest.tls.TlsOptions;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The daemon's two candidate TLS engines side by side, through memory (no sockets, so the figures are the
 * engines' CPU cost alone): full handshakes per second (client certificate required, as {@code redis-cli --tls
 * --cert} does; both ends' work on one thread) and round trips per second of 16 pipelined {@code BF.ADD} frames
 * and their 16 replies on an established session. Engines alternate within each round so that load from other
 * processes falls on both.
 *
 * <pre>bench/run.sh TlsEngineTiming CERT_DIR [ROUNDS] [SECONDS]</pre>
 * (CERT_DIR holds ca.crt, server.crt, server.key, client.crt, client.key: {@code bench/tls-engine.sh} makes them).
 */
public final class TlsEngineTiming
{
    private TlsEngineTiming()
    {
    }

    /**
     * @param args certificate directory, rounds (3), seconds per figure (3).
     * @throws Exception when an engine fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path dir = Path.of(args[0]);
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        final double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 3;
        final StringBuilder request = new StringBuilder();
        final StringBuilder reply = new StringBuilder();
        for (int i = 0; i < 16; i++)
        {
            final String item = String.format("item%08d", i);
            request.append("*3\r\n$6\r\nBF.ADD\r\n$5\r\nbench\r\n$").append(item.length()).append("\r\n")
                .append(item).append("\r\n");
            reply.append(":1\r\n");
        }
        final ByteBuffer req = ByteBuffer.wrap(request.toString().getBytes(StandardCharsets.US_ASCII));
        final ByteBuffer rep = ByteBuffer.wrap(reply.toString().getBytes(StandardCharsets.US_ASCII));
        System.out.println("| round | engine | handshakes/s | 16×BF.ADD round trips/s | MB/s of RESP |");
        System.out.println("| --- | --- | --- | --- | --- |");
        for (int round = 1; round <= rounds; round++)
        {
            final List<SslProvider> order = round % 2 == 1 ? List.of(SslProvider.JDK, SslProvider.OPENSSL) :
                List.of(SslProvider.OPENSSL, SslProvider.JDK);
            for (final SslProvider provider : order)
            {
                final SslContext server = TlsContexts.server(new TlsOptions(dir.resolve("server.crt"),
                    dir.resolve("server.key"), null, dir.resolve("ca.crt"), null, ClientAuthMode.YES, List.of(),
                    List.of()), provider);
                final SslContext client = SslContextBuilder.forClient().sslProvider(provider)
                    .trustManager(dir.resolve("ca.crt").toFile())
                    .keyManager(dir.resolve("client.crt").toFile(), dir.resolve("client.key").toFile()).build();
                final double handshakes = handshakes(server, client, seconds);
                final MemoryHandshake session = pair(server, client);
                session.handshake();
                final long[] bytes = new long[1];
                final double trips = rate(seconds, () -> bytes[0] += session.roundTrip(req, rep));
                System.out.printf("| %d | %s | %.0f | %.0f | %.1f |%n", round, provider == SslProvider.OPENSSL ?
                    "OpenSSL (BoringSSL, netty-tcnative 2.0.84)" : "JDK " + Runtime.version().feature(),
                    handshakes, trips, trips * (req.remaining() + rep.remaining()) / 1e6);
            }
        }
    }

    private static MemoryHandshake pair(final SslContext server, final SslContext client)
    {
        return new MemoryHandshake(client.newEngine(ByteBufAllocator.DEFAULT, "127.0.0.1", 7700),
            server.newEngine(ByteBufAllocator.DEFAULT));
    }

    private static double handshakes(final SslContext server, final SslContext client, final double seconds)
        throws SSLException
    {
        return rate(seconds, () -> pair(server, client).handshake());
    }

    /** Runs the step for 3 s of warm-up (the JIT), then for the given seconds, and gives the rate. */
    private static double rate(final double seconds, final Step step) throws SSLException
    {
        long end = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < end)
        {
            step.run();
        }
        final long start = System.nanoTime();
        end = start + (long)(seconds * 1e9);
        long n = 0;
        long now;
        do
        {
            step.run();
            n++;
            now = System.nanoTime();
        }
        while (now < end);
        return n / ((now - start) / 1e9);
    }

    @FunctionalInterface
    private interface Step
    {
        void run() throws SSLException;
    }
}
