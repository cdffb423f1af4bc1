package io.ddf.ingest.server;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filter tables on the live directory (serve's default, {@code --live-dir}, issue 31 item 10), on the production
 * defaults: the data directory on a disk, the tables mapped from copies on /dev/shm. kill -9 with the live copies
 * intact: the restart maps them (SAME_BOOT, nothing replayed); kill -9 and the live copies gone under the same boot
 * id (what a reboot does to a tmpfs, and what a restart that only trusted the boot id would get wrong): the restart
 * copies the data directory's files back and replays the change log from their checkpoints, and every acknowledged
 * add is there; DEL removes both copies. Run by failsafe after {@code package}.
 */
final class DaemonLiveDirIT
{
    private static final long LOAD_MS = 2500;

    @TempDir
    Path work;

    @BeforeAll
    static void jarExists()
    {
        DaemonProcess.assertJarBuilt();
    }

    @Test
    void killNineKeepsTheLiveCopyALostLiveCopyIsRestoredAndReplayedDelRemovesBoth() throws Exception
    {
        final Path data = work.resolve("data");
        final List<String> acked = new ArrayList<>();
        long next = 0;
        final Path live;

        DaemonProcess daemon = DaemonProcess.start(data, List.of(), List.of(), Map.of());
        try (RespClient client = new RespClient(daemon.port))
        {
            final String info = (String)client.call("INFO", "persistence");
            live = Path.of(field(info, "ddf_live_dir"));
            assertNotEquals("none", live.toString(), "the default maps the tables live: " + info);
            assertTrue(daemon.log().contains("Filter tables mapped live from " + live), daemon.log());
            assertEquals("OK", client.call("BF.RESERVE", "fixed", "0.01", "100000", "NONSCALING"));
            next = load(daemon, next, acked);
            assertEquals(2, Long.parseLong(field((String)client.call("INFO", "persistence"), "ddf_live_filters")));
        }
        finally
        {
            daemon.kill();
        }
        assertEquals(2, files(live).size(), "kill -9 leaves the live copies: " + files(live));

        daemon = DaemonProcess.start(data, List.of(), List.of(), Map.of());
        try (RespClient client = new RespClient(daemon.port))
        {
            final String info = (String)client.call("INFO", "persistence");
            assertTrue(info.contains("not_clean_at_start_cut:recovery=same_boot"), info);
            assertEquals(0, Long.parseLong(field(info, "filters_replayed_at_start")), info);
            assertEquals(2, Pattern.compile("(?m)^ddf_live_at_start_.*:kept").matcher(info).results().count(), info);
            assertTrue(daemon.log().contains(": kept (the live copy of this boot)"), daemon.log());
            check(client, acked);
            awaitCheckpoint(client);
            next = load(daemon, next, acked); // after the checkpoint: in the live copy and the log only
        }
        finally
        {
            daemon.kill();
        }

        for (final Path copy : files(live))
        {
            Files.delete(copy); // as a reboot empties a tmpfs, but under the same boot id
        }
        daemon = DaemonProcess.start(data, List.of(), List.of(), Map.of());
        try (RespClient client = new RespClient(daemon.port))
        {
            final String info = (String)client.call("INFO", "persistence");
            assertTrue(info.contains("not_clean_at_start_cut:recovery=replayed"), "restored copies replay: " + info);
            assertTrue(Long.parseLong(field(info, "replayed_records_at_start")) > 0, info);
            assertEquals(2, Pattern.compile("(?m)^ddf_live_at_start_.*:restored from the data directory: no live copy")
                .matcher(info).results().count(), "each said: " + info);
            check(client, acked);
            assertEquals(2, files(live).size(), "restored: " + files(live));
            assertEquals(1L, client.call("DEL", "cut"));
            assertEquals(1, files(live).size(), "DEL removes the live copy: " + files(live));
            try (Stream<Path> left = Files.list(data))
            {
                assertFalse(left.anyMatch(p -> p.getFileName().toString().contains("cut")), "and the file");
            }
        }
        finally
        {
            daemon.stop();
        }
        assertEquals(0, files(live).size(), "a clean stop drops the live copies: " + files(live));
        assertTrue(acked.size() > 32, "the load was acknowledged: " + acked.size());
    }

    /**
     * {@code --fsync no} maps the tables live too, and its checkpoints (a round every {@code --checkpoint-seconds}, 1
     * here: a test of that setting) force them into the data directory without a log: after kill -9 and a "reboot"
     * (the live copies gone), every add made before a completed round is there. Without the rounds the data
     * directory's files would hold the filters as made, and the check would find the adds lost.
     */
    @Test
    void underFsyncNoTheLiveTablesAreCheckpointedIntoTheDataDirectory() throws Exception
    {
        final Path data = work.resolve("data-no");
        final List<String> acked = new ArrayList<>();
        final List<String> options = List.of("--fsync", "no", "--checkpoint-seconds", "1");
        final Path live;
        DaemonProcess daemon = DaemonProcess.start(data, List.of(), options, Map.of());
        try (RespClient client = new RespClient(daemon.port))
        {
            String info = (String)client.call("INFO", "persistence");
            live = Path.of(field(info, "ddf_live_dir"));
            assertNotEquals("none", live.toString(), "--fsync no maps the tables live too: " + info);
            assertEquals("0", field(info, "aof_enabled"), "and has no log: " + info);
            assertEquals("OK", client.call("BF.RESERVE", "fixed", "0.01", "100000", "NONSCALING"));
            load(daemon, 0, acked);
            final long before = Long.parseLong(field((String)client.call("INFO", "persistence"), "ddf_checkpoints"));
            final long deadline = System.currentTimeMillis() + 30_000;
            long now = before;
            while (now < before + 4 && System.currentTimeMillis() < deadline) // two rounds of both filters
            {
                Thread.sleep(100);
                info = (String)client.call("INFO", "persistence");
                now = Long.parseLong(field(info, "ddf_checkpoints"));
            }
            assertTrue(now >= before + 4, "two rounds after the load: " + info);
            assertEquals("0", field(info, "ddf_checkpoint_failures"), info);
        }
        finally
        {
            daemon.kill();
        }
        assertEquals(2, files(live).size(), "kill -9 leaves the live copies: " + files(live));
        for (final Path copy : files(live))
        {
            Files.delete(copy); // a reboot
        }
        daemon = DaemonProcess.start(data, List.of(), options, Map.of());
        try (RespClient client = new RespClient(daemon.port))
        {
            final String info = (String)client.call("INFO", "persistence");
            assertEquals(2, Pattern.compile("(?m)^ddf_live_at_start_.*:restored from the data directory: no live copy")
                .matcher(info).results().count(), "each restored from the data directory: " + info);
            check(client, acked);
        }
        finally
        {
            daemon.stop();
        }
        assertTrue(acked.size() > 32, "the load was acknowledged: " + acked.size());
    }

    private static List<Path> files(final Path live) throws IOException
    {
        try (Stream<Path> entries = Files.list(live))
        {
            return entries.filter(p -> !p.getFileName().toString().startsWith(".")).toList();
        }
    }

    private static String field(final String info, final String name)
    {
        final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ":(.*?)\\r?$").matcher(info);
        assertTrue(m.find(), () -> name + " not in " + info);
        return m.group(1);
    }

    private static void awaitCheckpoint(final RespClient client) throws Exception
    {
        final long deadline = System.currentTimeMillis() + 20_000;
        while (Long.parseLong(field((String)client.call("INFO", "persistence"), "ddf_checkpoints")) == 0 &&
            System.currentTimeMillis() < deadline)
        {
            Thread.sleep(100);
        }
    }

    /** Every acknowledged item is present: in the chain, and every 97th in the fixed filter. */
    private static void check(final RespClient client, final List<String> acked) throws IOException
    {
        DaemonLogIT.check(client, acked);
        for (int i = 0; i < acked.size(); i += 97)
        {
            assertEquals(1L, client.call("BF.EXISTS", "fixed", acked.get(i)), "the fixed filter's " + acked.get(i));
        }
    }

    /** BF.ADD of new items to the default chain and to the fixed filter, for {@link #LOAD_MS}. */
    private static long load(final DaemonProcess daemon, final long from, final List<String> acked)
        throws IOException
    {
        final List<String> these = new ArrayList<>();
        final long next = daemon.pipelinedAdds("cut", from, LOAD_MS, Long.MAX_VALUE, (item, reply) ->
        {
            assertTrue(reply instanceof Long, "acknowledged: " + reply);
            these.add(item);
        });
        try (RespClient client = new RespClient(daemon.port))
        {
            for (int i = 0; i < these.size(); i++)
            {
                if ((acked.size() + i) % 97 == 0) // the items check() looks for in the fixed filter
                {
                    assertTrue(client.call("BF.ADD", "fixed", these.get(i)) instanceof Long);
                }
            }
        }
        acked.addAll(these);
        return next;
    }
}
