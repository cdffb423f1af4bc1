package io.ddf.ingest.server;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 13's network items that need a process of their own: a descriptor limit. Run by failsafe. */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DaemonNetworkIT
{
    @TempDir
    Path dir;

    @BeforeAll
    static void jarExists()
    {
        DaemonProcess.assertJarBuilt();
    }

    /**
     * Under {@code prlimit --nofile=200}, 400 connections at once run the daemon out of descriptors. Before, the
     * first failed accept made Netty log, the logger's first use opened the time zone file, that failed too, and
     * the Error killed the accepting thread: no connection was accepted again until restart. Now accepting
     * pauses and resumes, and the failures give a line per interval.
     */
    @Test
    void acceptingSurvivesDescriptorExhaustion() throws Exception
    {
        final DaemonProcess daemon = DaemonProcess.start(dir.resolve("data"), List.of("prlimit", "--nofile=200:200"),
            List.of("--requirepass-file", Files.writeString(dir.resolve("pass"), "pw\n").toString()), Map.of());
        final List<Socket> flood = new ArrayList<>();
        try
        {
            for (int i = 0; i < 400; i++)
            {
                final Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", daemon.port), 5_000);
                flood.add(s);
            }
            Thread.sleep(3_000);
            for (final Socket s : flood)
            {
                s.close();
            }
            // the daemon answers new connections again once descriptors are free
            Object reply = null;
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (!"OK".equals(reply) && System.nanoTime() < deadline)
            {
                try (RespClient c = new RespClient(daemon.port))
                {
                    c.socket().setSoTimeout(2_000);
                    reply = c.call("AUTH", "pw");
                }
                catch (final IOException notYet)
                {
                    Thread.sleep(200);
                }
            }
            assertEquals("OK", reply, "no connection accepted after the flood:\n" + daemon.log());
            final long acceptLines = daemon.log().lines().filter(l -> l.contains("cannot accept")).count();
            assertTrue(acceptLines >= 1, "the exhaustion was not reported:\n" + daemon.log());
            assertTrue(acceptLines <= 4, acceptLines + " lines about failed accepts in a few seconds");
        }
        finally
        {
            for (final Socket s : flood)
            {
                s.close();
            }
            daemon.stop();
        }
    }
}
