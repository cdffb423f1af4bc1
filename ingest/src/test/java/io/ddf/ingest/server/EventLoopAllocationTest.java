package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20's "0 bytes allocated per command on the event loop", with Netty's leak detector at its default: the
 * bytes the daemon's event loops allocate (ThreadMXBean's per-thread counters) over many pipelined BF.ADD, BF.MADD and
 * BF.MEXISTS commands, divided by the commands. One object per command would be at least 16 bytes per command;
 * the bound is 1. What is allowed is per read or per write of many commands (the leak detector samples 1 in 128
 * pooled buffers), not per command. The JIT's escape analysis decides some of it, so the measurement is taken
 * again after more warm-up until a round passes or the rounds run out: a regression allocates in every round.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EventLoopAllocationTest
{
    /** Commands per pipelined batch: what redis-benchmark -P 16 with 50 connections has in flight, and more. */
    private static final int BATCH = 1000;
    private static final int ROUNDS = 12;
    private static final int BATCHES_PER_ROUND = 60;

    @TempDir
    Path dir;

    @Test
    void bfAddMaddAndMexistsAllocateNothingPerCommandOnTheEventLoop() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (TestServer server = new TestServer(dir.resolve("data"), c ->
        {
            c.execution = ServerConfig.Execution.INLINE;
            c.fsync = new ServerConfig().fsync;
        });
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port()))
        {
            socket.setTcpNoDelay(true);
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            out.write(RespClient.encode("BF.RESERVE", "k", "0.01", "10000000"));
            out.flush();
            assertEquals("+OK\r\n", new String(in.readNBytes(5), StandardCharsets.US_ASCII));
            double best = Double.MAX_VALUE;
            final List<String> rounds = new ArrayList<>();
            for (int round = 0; round < ROUNDS && best >= 1; round++)
            {
                long commands = 0;
                final long before = eventLoopBytes();
                for (int b = 0; b < BATCHES_PER_ROUND; b++)
                {
                    commands += batch(random, out, in, b % 3);
                }
                final double perCommand = (double)(eventLoopBytes() - before) / commands;
                rounds.add(String.format("%.3f", perCommand));
                best = Math.min(best, perCommand);
            }
            System.out.println("EventLoopAllocationTest: bytes per command on the event loops, per round " + rounds);
            assertTrue(best < 1, "bytes allocated per command on the event loops, per round " + rounds +
                " (seed " + seed + ")");
        }
    }

    /** Sends one pipelined batch of one kind of command and reads every reply; returns the commands sent. */
    private static int batch(final Random random, final OutputStream out, final InputStream in, final int kind)
        throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int commands = kind == 0 ? BATCH : BATCH / 20;
        final int items = kind == 0 ? 1 : 100;
        for (int i = 0; i < commands; i++)
        {
            final String[] args = new String[items + 2];
            args[0] = kind == 0 ? "BF.ADD" : kind == 1 ? "BF.MADD" : "BF.MEXISTS";
            args[1] = "k";
            for (int j = 2; j < args.length; j++)
            {
                args[j] = Integer.toString(random.nextInt(100_000_000));
            }
            bytes.writeBytes(RespClient.encode(args));
        }
        out.write(bytes.toByteArray());
        out.flush();
        // each verdict is ":0\r\n" or ":1\r\n"; an array reply has its "*100\r\n" header
        final int expected = commands * items * 4 + (items > 1 ? commands * "*100\r\n".length() : 0);
        final byte[] replies = in.readNBytes(expected);
        assertEquals(expected, replies.length, "every reply arrived");
        assertTrue(replies[0] == ':' || replies[0] == '*', () -> "a verdict reply, not " +
            new String(replies, 0, Math.min(80, replies.length), StandardCharsets.US_ASCII));
        return commands;
    }

    /** @return the bytes every event loop thread (Netty's, epoll or NIO) has allocated so far. */
    private static long eventLoopBytes()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().contains("EventLoopGroup"))
            {
                sum += threads.getThreadAllocatedBytes(thread.getId());
            }
        }
        return sum;
    }
}
