package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The raw feed across {@code kill -9}, as the check of click ids: records fed in batches, each batch new ids
 * and repeats of ids already acknowledged; the daemon killed while the feed runs; restarted on the same data
 * directory; every id acknowledged before the kill fed again. No repeat is answered {@code U} before the kill, and
 * none of the acknowledged ids is answered {@code U} after it (nothing acknowledged lost). Run with the daemon's
 * defaults ({@code --fsync everysec}, {@code --feed-mode auto}) and in each explicit mode, into the fixed-size filter
 * of {@code --past-capacity forget}; and (issue 31 item 11) under serve's default {@code --past-capacity scale} into
 * the scaling chain BF.RESERVE makes there, NONSCALING and growing (20,000 items a layer at first: the feed grows it),
 * inline (what {@code auto} picks on 2 cores; the ring judges fixed-size filters only). A separate process, so
 * failsafe runs it after {@code package}.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DaemonFeedKillIT
{
    private static final Pattern FEED_PORT = Pattern.compile("raw feed \\(lines\\) on port (\\d+)");
    private static final int BATCH = 2000;
    /** Repeats of acknowledged ids in each batch, out of {@link #BATCH}. */
    private static final int REPEATS = 200;
    /** How long the feed runs before the kill, ms. */
    private static final long LOAD_MS = 2500;

    @TempDir
    Path dir;

    @BeforeAll
    static void jarExists()
    {
        DaemonProcess.assertJarBuilt();
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "inline", "ring", "chain-nonscaling", "chain-scaling"})
    void acknowledgedRecordsSurviveAKillAndRepeatsAreNeverUnseen(final String mode) throws Exception
    {
        final long seed = TestSeed.seed();
        final Path data = dir.resolve("data");
        final boolean chain = mode.startsWith("chain-");
        final List<String> options = new ArrayList<>(List.of("--feed-port", "0", "--feed-filter", "clicks"));
        if (!chain)
        {
            options.addAll(List.of("--past-capacity", "forget"));
        }
        if (!"default".equals(mode))
        {
            options.addAll(List.of("--feed-mode", chain ? "inline" : mode));
        }
        final List<String> acked = new ArrayList<>();
        DaemonProcess daemon = DaemonProcess.start(data, List.of(), options, java.util.Map.of());
        try
        {
            try (RespClient c = new RespClient(daemon.port))
            {
                assertEquals("OK", "chain-scaling".equals(mode) ? c.call("BF.RESERVE", "clicks", "0.001", "20000") :
                    "chain-nonscaling".equals(mode) ? c.call("BF.RESERVE", "clicks", "0.001", "10000000",
                    "NONSCALING") : c.call("BF.RESERVE", "clicks", "0.001", "10000000"));
            }
            assertTrue(daemon.log().contains("judged " + ("ring".equals(mode) ? "through the ring" :
                "inline".equals(mode) || chain ? "inline" : "")), daemon::log);
            final DaemonProcess running = daemon;
            final CompletableFuture<Integer> load = CompletableFuture.supplyAsync(() -> feedUntilKilled(running,
                new Random(seed), acked));
            Thread.sleep(LOAD_MS);
            daemon.kill();
            final int repeatsUnseen = load.get(60, TimeUnit.SECONDS);
            assertEquals(0, repeatsUnseen, "repeats of acknowledged ids answered U before the kill " +
                TestSeed.replayHint());
        }
        finally
        {
            daemon.kill();
        }
        assertTrue(acked.size() > 10 * BATCH, "the feed ran: " + acked.size() + " ids acknowledged");

        daemon = DaemonProcess.start(data, List.of(), options, java.util.Map.of());
        try (Socket socket = new Socket("127.0.0.1", feedPort(daemon)))
        {
            socket.setSoTimeout(60_000);
            final byte[] verdicts = judge(socket, acked);
            int lost = 0;
            String first = null;
            for (int i = 0; i < verdicts.length; i++)
            {
                if (verdicts[i] != 'D')
                {
                    lost++;
                    first = first == null ? acked.get(i) : first;
                }
            }
            System.out.println(mode + ": " + acked.size() + " ids acknowledged before the kill, " + lost +
                " answered U after the restart");
            if (chain)
            {
                try (RespClient c = new RespClient(daemon.port))
                {
                    System.out.println(mode + ": BF.INFO " + c.call("BF.INFO", "clicks"));
                    final long layers = (Long)((List<?>)c.call("BF.INFO", "clicks", "FILTERS")).get(0);
                    assertTrue("chain-scaling".equals(mode) ? layers >= 2 : layers == 1, "layers: " + layers);
                    assertTrue(daemon.log().contains("judged inline") && !daemon.log().contains("closing the " +
                        "connection"), daemon::log);
                }
            }
            assertEquals(0, lost, "acknowledged ids lost across kill -9, the first " + first + " " +
                TestSeed.replayHint() + "\n" + daemon.log());
        }
        finally
        {
            daemon.stop();
        }
    }

    /**
     * Feeds batches of new ids and repeats until the daemon is killed (the connection fails).
     *
     * @return repeats of acknowledged ids answered U.
     */
    private static int feedUntilKilled(final DaemonProcess daemon, final Random random, final List<String> acked)
    {
        int repeatsUnseen = 0;
        long next = 0;
        try (Socket socket = new Socket("127.0.0.1", feedPort(daemon)))
        {
            socket.setSoTimeout(30_000);
            while (true)
            {
                final List<String> batch = new ArrayList<>(BATCH);
                final boolean[] repeat = new boolean[BATCH];
                for (int i = 0; i < BATCH; i++)
                {
                    repeat[i] = !acked.isEmpty() && i % (BATCH / REPEATS) == 0;
                    batch.add(repeat[i] ? acked.get(random.nextInt(acked.size())) : "click-" + next++);
                }
                final byte[] verdicts = judge(socket, batch);
                if (verdicts.length < BATCH)
                {
                    return repeatsUnseen; // killed mid-batch: these were not all acknowledged
                }
                for (int i = 0; i < BATCH; i++)
                {
                    if (repeat[i])
                    {
                        repeatsUnseen += verdicts[i] == 'U' ? 1 : 0;
                    }
                    else
                    {
                        acked.add(batch.get(i));
                    }
                }
            }
        }
        catch (final IOException | IllegalStateException e)
        {
            return repeatsUnseen; // the kill
        }
    }

    /**
     * Writes the records as lines and reads their verdicts: fewer than asked when the connection ends (FeedChainTest
     * feeds with it too).
     */
    static byte[] judge(final Socket socket, final List<String> records) throws IOException
    {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (final String r : records)
        {
            text.writeBytes((r + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        final byte[] bytes = text.toByteArray();
        final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
        {
            try
            {
                final OutputStream out = socket.getOutputStream();
                out.write(bytes);
                out.flush();
            }
            catch (final IOException e)
            {
                // the kill: the reader sees the end
            }
        });
        final InputStream in = socket.getInputStream();
        final byte[] verdicts = in.readNBytes(records.size());
        writer.join();
        return verdicts;
    }

    private static int feedPort(final DaemonProcess daemon)
    {
        final Matcher port = FEED_PORT.matcher(daemon.log());
        if (!port.find())
        {
            throw new IllegalStateException("the daemon serves no raw feed: " + daemon.log());
        }
        return Integer.parseInt(port.group(1));
    }
}
