package io.ddf.ingest.server;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon's restarts through its change log (issue 31), on the production defaults (serve's default filter, the
 * scaling chain a plain BF.ADD makes and grows; {@code --fsync everysec}) and under {@code always}: a client pipelines
 * BF.ADD of new items 16 deep; {@code kill -9}; the restart on the same machine (same kernel boot id) replays nothing
 * and says why, checkpoints the filter promptly (the log's tail cut at open may have held records of changes only the
 * page cache has), and every acknowledged item is there; more load, {@code kill -9}, and a restart under another boot
 * id (as after a reboot) replays the log from the filter's checkpoint, says how many records in how long (log and
 * INFO persistence), and every acknowledged item is there again. Run by failsafe after {@code package}.
 */
final class DaemonLogIT
{
    private static final long LOAD_MS = 2500;

    @TempDir
    Path work;

    @BeforeAll
    static void jarExists()
    {
        DaemonProcess.assertJarBuilt();
    }

    @ParameterizedTest
    @ValueSource(strings = {"everysec", "always"})
    void killNineLosesNothingAcknowledgedSameBootSkipsTheReplayAnotherBootReplays(final String policy)
        throws Exception
    {
        final Path data = work.resolve("data");
        final List<String> serve = List.of("--fsync", policy);
        final List<String> acked = new ArrayList<>();
        final long[] added = new long[1];
        long next = 0;

        DaemonProcess daemon = DaemonProcess.start(data, List.of(), serve, Map.of());
        try
        {
            next = load(daemon, next, acked, added);
        }
        finally
        {
            daemon.kill();
        }

        // the same machine: the page cache kept every change; nothing replayed, said; checkpointed promptly
        daemon = DaemonProcess.start(data, List.of(), serve, Map.of());
        try (RespClient client = new RespClient(daemon.port))
        {
            assertTrue(daemon.log().contains("filter 'cut'") && daemon.log().contains("same kernel boot id"),
                "the restart says why it replays nothing: " + daemon.log());
            String info = (String)client.call("INFO", "persistence");
            assertEquals(1, number(info, "filters_same_boot_at_start"), info);
            assertTrue(info.contains("not_clean_at_start_cut:recovery=same_boot"), info);
            final long deadline = System.currentTimeMillis() + 20_000;
            while (number(info, "ddf_checkpoints") == 0 && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(100);
                info = (String)client.call("INFO", "persistence");
            }
            assertTrue(number(info, "ddf_checkpoints") >= 1, "checkpointed soon after a SAME_BOOT open: " + info);
            check(client, acked);
            load(daemon, next, acked, added);
        }
        finally
        {
            daemon.kill();
        }

        // another boot (a reboot, a power cut): the log is replayed from the filter's checkpoint, and said
        daemon = DaemonProcess.start(data, List.of(), serve,
            Map.of("JAVA_TOOL_OPTIONS", "-Dddf.boot-id=" + UUID.randomUUID()));
        try (RespClient client = new RespClient(daemon.port))
        {
            final Matcher said = Pattern.compile("filter 'cut' \\(.*\\): not closed cleanly after a restart of the " +
                "machine: replayed (\\d+) records in ([\\d.]+) ms").matcher(daemon.log());
            assertTrue(said.find(), "the restart says what it replayed: " + daemon.log());
            final long records = Long.parseLong(said.group(1));
            assertTrue(records > 0, daemon.log());
            final String info = (String)client.call("INFO", "persistence");
            assertEquals(1, number(info, "filters_replayed_at_start"), info);
            assertEquals(records, number(info, "replayed_records_at_start"), info);
            assertTrue(info.contains("not_clean_at_start_cut:recovery=replayed,records=" + records), info);
            System.out.println("kill -9, " + policy + ", restart under another boot id: replayed " + records +
                " records in " + said.group(2) + " ms; " + acked.size() + " acknowledged");
            check(client, acked);
            final List<?> bf = (List<?>)client.call("BF.INFO", "cut");
            final Object items = bf.get(bf.indexOf("Number of items inserted") + 1);
            assertEquals(added[0], items, "the chain's count replayed exactly (the adds that answered 1)");
            // it serves writes: the add answers (0 is a false positive, allowed), then the item is present
            assertTrue(client.call("BF.ADD", "cut", "after-the-restarts") instanceof Long, "it serves");
            assertEquals(1L, client.call("BF.EXISTS", "cut", "after-the-restarts"), "the add is there");
        }
        finally
        {
            daemon.stop();
        }
        assertTrue(acked.size() > 32, "the load was acknowledged: " + acked.size());
    }

    private static long number(final String info, final String name)
    {
        final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ":(\\d+)").matcher(info);
        assertTrue(m.find(), () -> name + " not in " + info);
        return Long.parseLong(m.group(1));
    }

    /** Every acknowledged item is present in 'cut' (BF.MEXISTS, 1,000 at a time); DaemonLiveDirIT's too. */
    static void check(final RespClient client, final List<String> acked) throws IOException
    {
        int lost = 0;
        int first = -1;
        int last = -1;
        for (int from = 0; from < acked.size(); from += 1000)
        {
            final List<String> args = new ArrayList<>(List.of("BF.MEXISTS", "cut"));
            args.addAll(acked.subList(from, Math.min(acked.size(), from + 1000)));
            int i = from;
            for (final Object present : (List<?>)client.call(args.toArray(new String[0])))
            {
                if (!Long.valueOf(1).equals(present))
                {
                    lost++;
                    first = first < 0 ? i : first;
                    last = i;
                }
                i++;
            }
        }
        assertEquals(0, lost, "acknowledged items lost of " + acked.size() + " (the first and last lost: the " +
            first + "th and the " + last + "th acknowledged)");
    }

    /** BF.ADD of new items, 16 pipelined, for {@link #LOAD_MS}; returns the next item. */
    private static long load(final DaemonProcess daemon, final long from, final List<String> acked,
        final long[] added) throws IOException
    {
        return daemon.pipelinedAdds("cut", from, LOAD_MS, Long.MAX_VALUE, (item, reply) ->
        {
            assertTrue(reply instanceof Long, "acknowledged: " + reply);
            acked.add(item);
            added[0] += (Long)reply; // 0: a false positive of the filter, which adds nothing
        });
    }
}
