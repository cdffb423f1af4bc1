package io.ddf.ingest.server;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon as a separate process ({@code java -jar target/ddf.jar serve}), for what only a process can show: a
 * kill -9 in the middle of creating a filter, and a low descriptor limit. Run by failsafe after {@code package}.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DaemonFilesIT
{
    private static final Path JAR = DaemonProcess.JAR;

    @TempDir
    Path dir;

    @BeforeAll
    static void jarExists()
    {
        DaemonProcess.assertJarBuilt();
    }

    /** Issue 13, item 1: a kill -9 one moment into BF.RESERVE of a large filter left a key nothing could use. */
    @Test
    void killDuringReserveLeavesNoStuckKey() throws Exception
    {
        final Path data = dir.resolve("data");
        DaemonProcess daemon = DaemonProcess.start(data, List.of());
        try (RespClient c = new RespClient(daemon.port))
        {
            // About 2.3 GiB of table: long enough to be caught in the middle of its creation.
            c.send("BF.RESERVE", "big", "0.01", "2000000000");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (temporaries(data).isEmpty())
            {
                assertTrue(System.nanoTime() < deadline, "the creation never started");
                Thread.sleep(2);
            }
        }
        finally
        {
            daemon.kill();
        }
        assertFalse(Files.exists(data.resolve("big.ddf")), "the name appeared before the file was complete");
        assertEquals(1, temporaries(data).size());

        daemon = DaemonProcess.start(data, List.of());
        try (RespClient c = new RespClient(daemon.port))
        {
            assertTrue(daemon.log().contains("removed") && daemon.log().contains(".ddf-creating-"), daemon.log());
            assertTrue(temporaries(data).isEmpty());
            assertEquals(0L, c.call("EXISTS", "big"));
            assertEquals(1L, c.call("BF.ADD", "big", "x"), "the key can be made again");
            assertEquals(0L, c.call("BF.ADD", "big", "x"));
        }
        finally
        {
            daemon.stop();
        }
    }

    /** Issue 13, item 3: with descriptors short, filters beyond the cap are refused and connections still accepted. */
    @Test
    void filterCapUnderALowDescriptorLimitKeepsTheDaemonReachable() throws Exception
    {
        final Path data = dir.resolve("fd");
        final DaemonProcess daemon = DaemonProcess.start(data, List.of("prlimit", "--nofile=256:256"));
        try (RespClient c = new RespClient(daemon.port))
        {
            int made = 0;
            String refusal = null;
            for (int i = 0; i < 300 && refusal == null; i++)
            {
                final Object reply = c.call("BF.ADD", "k" + i, "x");
                if (reply instanceof Long)
                {
                    made++;
                }
                else
                {
                    refusal = reply.toString();
                }
            }
            assertTrue(refusal != null, "300 filters under 256 descriptors and no refusal");
            assertTrue(refusal.contains("filter limit reached") && refusal.contains("--max-filters") &&
                refusal.contains("ulimit -n"), refusal);
            assertTrue(made > 50, "only " + made + " filters before the cap");
            System.out.println(made + " filters, then: " + refusal);
            // New connections are still accepted and served.
            for (int i = 0; i < 20; i++)
            {
                try (RespClient other = new RespClient(daemon.port))
                {
                    assertEquals("PONG", other.call("PING"));
                }
            }
            assertEquals(1L, c.call("DEL", "k0"));
            assertEquals(1L, c.call("BF.ADD", "again", "x"), "room again after a DEL");
        }
        finally
        {
            daemon.stop();
        }
    }

    private static List<Path> temporaries(final Path data) throws IOException
    {
        if (!Files.isDirectory(data))
        {
            return List.of();
        }
        try (Stream<Path> list = Files.list(data))
        {
            return list.filter(p -> p.getFileName().toString().startsWith(".ddf-creating-")).toList();
        }
    }
}
