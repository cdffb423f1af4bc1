package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The raw feed: verdict bytes in order for lines and frames; forward mode sends on only the unseen records. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FeedTest
{
    @TempDir
    Path dir;

    private static void big(final ServerConfig c)
    {
        c.feedPort = 0;
        c.defaultCapacity = 1_000_000;
        c.defaultErrorRate = 0.000001;
    }

    private static List<String> records(final int n, final int distinct, final long seed)
    {
        final Random random = new Random(seed);
        final List<String> records = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            records.add("rec-" + random.nextInt(distinct));
        }
        return records;
    }

    private static String expectedVerdicts(final List<String> records)
    {
        final Set<String> seen = new HashSet<>();
        final StringBuilder verdicts = new StringBuilder();
        for (final String r : records)
        {
            verdicts.append(seen.add(r) ? 'U' : 'D');
        }
        return verdicts.toString();
    }

    @Test
    void linesGetVerdictBytesInOrder() throws Exception
    {
        final List<String> records = records(50_000, 20_000, TestSeed.seed());
        try (TestServer server = new TestServer(dir, FeedTest::big);
             Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            final StringBuilder text = new StringBuilder();
            records.forEach(r -> text.append(r).append('\n'));
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(socket,
                text.toString().getBytes(StandardCharsets.UTF_8)));
            final byte[] verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(expectedVerdicts(records), new String(verdicts, StandardCharsets.US_ASCII));
            // the feed filter is a named filter like any other
            try (RespClient c = server.client())
            {
                assertEquals(0L, c.call("BF.ADD", "feed", records.get(0)));
            }
        }
    }

    @Test
    void framesGetVerdictBytesInOrder() throws Exception
    {
        final List<String> records = records(20_000, 5_000, TestSeed.seed());
        try (TestServer server = new TestServer(dir, c ->
        {
            big(c);
            c.feedFormat = ServerConfig.FeedFormat.FRAMES;
            c.feedFilter = "frames";
        });
             Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final DataOutputStream out = new DataOutputStream(bytes);
            for (final String r : records)
            {
                final byte[] b = (r + "\n\r\0").getBytes(StandardCharsets.UTF_8);
                out.writeInt(b.length);
                out.write(b);
            }
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(socket, bytes.toByteArray()));
            final byte[] verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(expectedVerdicts(records), new String(verdicts, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void forwardSendsOnlyUnseenRecords() throws Exception
    {
        final List<String> records = records(30_000, 10_000, TestSeed.seed());
        try (ServerSocket downstream = new ServerSocket())
        {
            downstream.bind(new InetSocketAddress("127.0.0.1", 0));
            final CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return downstream.accept();
                }
                catch (final IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (TestServer server = new TestServer(dir, c ->
            {
                big(c);
                c.forward = new InetSocketAddress("127.0.0.1", downstream.getLocalPort());
            });
                 Socket received = accepted.get(30, TimeUnit.SECONDS);
                 Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
            {
                final StringBuilder text = new StringBuilder();
                records.forEach(r -> text.append(r).append('\n'));
                final List<String> unseen = new ArrayList<>();
                final Set<String> seen = new HashSet<>();
                final StringBuilder expected = new StringBuilder();
                for (final String r : records)
                {
                    if (seen.add(r))
                    {
                        unseen.add(r);
                        expected.append(r).append('\n');
                    }
                }
                // read slowly at first: the feed must pause rather than buffer without bound
                write(socket, text.toString().getBytes(StandardCharsets.UTF_8));
                final InputStream in = received.getInputStream();
                final byte[] got = in.readNBytes(expected.length());
                assertEquals(expected.toString(), new String(got, StandardCharsets.UTF_8));
                received.setSoTimeout(500);
                try
                {
                    final int extra = in.read();
                    assertTrue(extra < 0, "more than the unseen records");
                }
                catch (final java.net.SocketTimeoutException e)
                {
                    // nothing more: good
                }
                assertEquals(unseen.size(), seen.size());
            }
        }
    }

    private static void write(final Socket socket, final byte[] bytes)
    {
        try
        {
            final OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        }
        catch (final IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
