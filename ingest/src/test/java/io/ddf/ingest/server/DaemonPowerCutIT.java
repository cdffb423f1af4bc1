package io.ddf.ingest.server;

import io.ddf.persistence.testing.PowerCutFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon under load across power cuts (issue 24), through the power-cut file system: a client pipelines BF.ADD
 * of new items and records when each was acknowledged; the cut kills the daemon and drops what was not synced; the
 * daemon restarts on what survived (under another boot id, as after a real power cut: issue 31's open decision then
 * replays the change log from the filter's checkpoint), says the filter was not closed cleanly and what it
 * replayed, and serves. Three cuts per policy:
 * {@code always} loses no acknowledged item (in both execution modes, and through the raw feed); {@code everysec}
 * none acknowledged more than 2 s before the cut. Both on ddf's fixed-size filter ({@code --past-capacity forget}) and
 * on the daemon's default filter, the scaling chain that a plain BF.ADD makes (which grows, a segment at a time,
 * while the load runs).
 */
final class DaemonPowerCutIT
{
    /** Cuts per policy: 3 in CI; bench/power-cuts.sh runs more ({@code -Dddf.powercut.rounds}). */
    private static final int ROUNDS = Integer.getInteger("ddf.powercut.rounds", 3);
    /** Load before each cut, ms ({@code -Dddf.powercut.loadMs}). */
    private static final long LOAD_MS = Long.getLong("ddf.powercut.loadMs", 3000);
    private static final int PIPELINE = 16;
    /** Lines the feed load sends before it reads their verdicts. */
    private static final int FEED_BATCH = 256;
    /**
     * The filter's capacity: BF.ADD's fifo-bloom forgets its oldest generation by design once it holds this many
     * (a run of 1.6 million items into a capacity of 1 million "lost" the first half million, the filter's design,
     * not a cut), so the load stops short of it.
     */
    private static final long CAPACITY = 10_000_000;
    private static final long MAX_ITEMS = CAPACITY * 9 / 10;

    @TempDir
    Path work;

    @BeforeAll
    static void available()
    {
        PowerCutFileSystem.assumeAvailable();
    }

    /** Which filter the load writes. */
    private enum Kind
    {
        /** BF.RESERVE under {@code --past-capacity forget}: ddf's fixed-size filter. */
        FIXED,
        /** No BF.RESERVE, serve's defaults: BF.ADD makes RedisBloom's scaling chain, which grows under the load. */
        DEFAULT
    }

    @ParameterizedTest
    @CsvSource({"always,inline", "always,pipeline", "everysec,inline"})
    void acknowledgedItemsSurvivePowerCuts(final String policy, final String execution) throws Exception
    {
        cuts(policy, List.of("--execution", execution), DaemonPowerCutIT::load, Kind.FIXED);
    }

    /** The default filter, a scaling chain (issue 24's policy covers it too): made by the first BF.ADD. */
    @ParameterizedTest
    @CsvSource({"always,inline", "always,pipeline", "everysec,inline"})
    void acknowledgedItemsOfTheDefaultScalingFilterSurvivePowerCuts(final String policy, final String execution)
        throws Exception
    {
        cuts(policy, List.of("--execution", execution), DaemonPowerCutIT::load, Kind.DEFAULT);
    }

    /**
     * The raw feed's verdicts are its acknowledgements: under always, one received means its record survives; under
     * everysec, one received more than 2 s before the cut. Each policy once, each in one feed mode, to keep CI's time
     * down: {@code always} in serve's default {@code --feed-mode} (auto: inline on up to 2 cores), {@code everysec}
     * through the ring ({@code bench/power-cuts.sh} runs more cuts of both).
     */
    @ParameterizedTest
    @CsvSource({"always,auto", "everysec,ring"})
    void theFeedsVerdictsSurvivePowerCuts(final String policy, final String feedMode) throws Exception
    {
        cuts(policy, List.of("--feed-port", "0", "--feed-filter", "cut", "--feed-mode", feedMode),
            DaemonPowerCutIT::feed, Kind.FIXED);
    }

    /** Puts load on a daemon, recording each acknowledgement; returns the next item. */
    @FunctionalInterface
    private interface Load
    {
        long run(DaemonProcess daemon, long from, List<Ack> acked) throws IOException;
    }

    private void cuts(final String policy, final List<String> options, final Load load, final Kind kind)
        throws Exception
    {
        final List<String> serve = new ArrayList<>(List.of("--fsync", policy));
        serve.addAll(options);
        if (kind == Kind.FIXED)
        {
            // BF.RESERVE without KIND must make ddf's fixed-size filter, which --fsync covers (and which the raw
            // feed streams into): the daemon's default is a filter that grows
            serve.addAll(List.of("--past-capacity", "forget"));
        }
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(work))
        {
            final Path data = fs.root().resolve("data");
            final List<Ack> acked = new ArrayList<>();
            long next = 0;
            for (int round = 0; round < ROUNDS; round++)
            {
                final DaemonProcess daemon = DaemonProcess.start(data, List.of(), serve, afterCut(round));
                try
                {
                    try (RespClient client = new RespClient(daemon.port))
                    {
                        if (round == 0 && kind == Kind.FIXED)
                        {
                            assertEquals("OK", client.call("BF.RESERVE", "cut", "0.001", Long.toString(CAPACITY)));
                        }
                        else if (round > 0 && kind == Kind.DEFAULT)
                        {
                            assertReplayed(daemon, (String)client.call("INFO", "persistence"));
                            check(client, acked, policy);
                        }
                        else if (round > 0)
                        {
                            assertTrue(daemon.log().contains("filter 'cut'") &&
                                daemon.log().contains("not closed cleanly"), "the restart says so: " + daemon.log());
                            final String info = (String)client.call("INFO", "persistence");
                            assertTrue(info.contains("filters_not_clean_at_start:1"), info);
                            assertReplayed(daemon, info);
                            check(client, acked, policy);
                        }
                    }
                    next = load.run(daemon, next, acked);
                    final long cutAt = System.currentTimeMillis();
                    fs.cut(daemon.process.toHandle());
                    for (final Ack ack : acked)
                    {
                        ack.cutAt = ack.cutAt == 0 ? cutAt : ack.cutAt;
                    }
                }
                finally
                {
                    daemon.kill();
                }
            }
            final DaemonProcess last = DaemonProcess.start(data, List.of(), serve, afterCut(ROUNDS));
            try (RespClient client = new RespClient(last.port))
            {
                check(client, acked, policy);
                // it serves writes: the add answers (0 is a false positive, allowed), then the item is present
                assertTrue(client.call("BF.ADD", "cut", "after-the-cuts") instanceof Long, "it serves");
                assertEquals(1L, client.call("BF.EXISTS", "cut", "after-the-cuts"), "the add is there");
                if (kind == Kind.DEFAULT)
                {
                    final List<?> info = (List<?>)client.call("BF.INFO", "cut");
                    final Object layers = info.get(info.indexOf("Number of filters") + 1);
                    assertTrue(layers instanceof Long && (Long)layers > 1, "a scaling chain that grew: " + info);
                }
            }
            finally
            {
                last.stop();
            }
            assertTrue(acked.size() > ROUNDS * PIPELINE, "the load was acknowledged: " + acked.size());
        }
    }

    /**
     * A power cut restarts the machine: the daemon after one runs under another kernel boot id (the engine's
     * {@code ddf.boot-id}), so its filters replay the change log from their checkpoints (FORMAT-LOG.md) instead of
     * trusting a page cache that the cut emptied.
     */
    static java.util.Map<String, String> afterCut(final int round)
    {
        return round == 0 ? java.util.Map.of() :
            java.util.Map.of("JAVA_TOOL_OPTIONS", "-Dddf.boot-id=" + java.util.UUID.randomUUID());
    }

    /** The restart after a cut replayed the filter's log and said so (log line and INFO persistence). */
    private static void assertReplayed(final DaemonProcess daemon, final String info)
    {
        assertTrue(daemon.log().contains("filter 'cut'") && daemon.log().contains("replayed"),
            "the restart says it replayed: " + daemon.log());
        assertTrue(info.contains("filters_replayed_at_start:1"), info);
        System.out.println("power cut restart: " + info.lines().filter(l -> l.startsWith("replay") ||
            l.startsWith("not_clean_at_start_")).toList());
    }

    /** Asks for every acknowledged item that must have survived (BF.MEXISTS, 1,000 at a time); fails naming how many did not. */
    private static void check(final RespClient client, final List<Ack> acked, final String policy) throws IOException
    {
        final List<String> mustSurvive = new ArrayList<>();
        for (final Ack ack : acked)
        {
            if (policy.equals("always") || ack.at < ack.cutAt - 2000)
            {
                mustSurvive.add(ack.item);
            }
        }
        int lost = 0;
        for (int from = 0; from < mustSurvive.size(); from += 1000)
        {
            final List<String> args = new ArrayList<>(List.of("BF.MEXISTS", "cut"));
            args.addAll(mustSurvive.subList(from, Math.min(mustSurvive.size(), from + 1000)));
            final Object answers = client.call(args.toArray(new String[0]));
            assertTrue(answers instanceof List, "the filter answers after the cut: " + answers);
            for (final Object present : (List<?>)answers)
            {
                lost += Long.valueOf(1).equals(present) ? 0 : 1;
            }
        }
        System.out.println("power cut, " + policy + ": " + lost + " lost of " + mustSurvive.size() + " that must " +
            "survive (" + acked.size() + " acknowledged)");
        assertEquals(0, lost, policy + ": acknowledged items lost");
    }

    /** Pipelines BF.ADD of new items for {@link #LOAD_MS}, recording each acknowledgement; returns the next item. */
    private static long load(final DaemonProcess daemon, final long from, final List<Ack> acked) throws IOException
    {
        return daemon.pipelinedAdds("cut", from, LOAD_MS, MAX_ITEMS, (item, reply) ->
        {
            if (reply instanceof Long)
            {
                acked.add(new Ack(item, System.currentTimeMillis()));
            }
        });
    }

    /**
     * Sends new items to the raw feed for {@link #LOAD_MS}, {@link #FEED_BATCH} lines at a time, recording each as
     * acknowledged when its verdict byte arrives; returns the next item.
     */
    private static long feed(final DaemonProcess daemon, final long from, final List<Ack> acked) throws IOException
    {
        final java.util.regex.Matcher port = java.util.regex.Pattern.compile("raw feed \\(lines\\) on port (\\d+)")
            .matcher(daemon.log());
        assertTrue(port.find(), "the daemon serves a raw feed: " + daemon.log());
        long next = from;
        final long end = System.currentTimeMillis() + LOAD_MS;
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", Integer.parseInt(port.group(1))))
        {
            socket.setSoTimeout(30_000);
            final OutputStream out = socket.getOutputStream();
            final java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            while (System.currentTimeMillis() < end && next + FEED_BATCH < MAX_ITEMS)
            {
                final String[] items = new String[FEED_BATCH];
                final StringBuilder lines = new StringBuilder();
                for (int i = 0; i < FEED_BATCH; i++)
                {
                    items[i] = "item-" + next++;
                    lines.append(items[i]).append('\n');
                }
                out.write(lines.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
                final byte[] verdicts = in.readNBytes(FEED_BATCH);
                final long at = System.currentTimeMillis();
                for (int i = 0; i < verdicts.length; i++)
                {
                    acked.add(new Ack(items[i], at));
                }
                if (verdicts.length < FEED_BATCH)
                {
                    break;
                }
            }
        }
        return next;
    }

    /** An item and when its BF.ADD was acknowledged; the time of the first cut after it. */
    static final class Ack
    {
        final String item;
        final long at;
        long cutAt;

        Ack(final String item, final long at)
        {
            this.item = item;
            this.at = at;
        }
    }
}
