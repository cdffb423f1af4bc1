package io.ddf.ingest.server;

import io.ddf.ingest.Main;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.RedisBloomProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Filters move from a real RedisBloom 2.4.23 to the ddf daemon and back (skipped, with a message, without the
 * module): a scaling Bloom filter of 150,000 items, a NONSCALING one and a cuckoo filter with deletions, by
 * {@code ddf migrate} both ways; every EXISTS answer over the members and 200,000 non-members is the same on the
 * three servers, and further adds answer alike on RedisBloom and ddf.
 */
class RedisBloomRoundTripIT
{
    @TempDir
    Path dir;

    private static Object call(final Jedis jedis, final String command, final Object... args)
    {
        final byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            raw[i] = args[i] instanceof byte[] bytes ? bytes : SafeEncoder.encode(String.valueOf(args[i]));
        }
        final ProtocolCommand name = () -> SafeEncoder.encode(command);
        return jedis.sendCommand(name, raw);
    }

    private static void addAll(final Jedis jedis, final String command, final String key, final int count)
    {
        for (int start = 0; start < count; start += 1000)
        {
            final List<Object> args = new ArrayList<>();
            args.add(key);
            if (command.equals("CF.INSERT"))
            {
                args.add("ITEMS");
            }
            for (int i = start; i < Math.min(count, start + 1000); i++)
            {
                args.add("m" + i);
            }
            call(jedis, command, args.toArray());
        }
    }

    private static List<Object> answers(final Jedis jedis, final String command, final String key, final int members)
    {
        final List<Object> all = new ArrayList<>();
        for (final String prefix : new String[] {"m", "absent"})
        {
            final int count = prefix.equals("m") ? members : 200_000;
            for (int start = 0; start < count; start += 1000)
            {
                final List<Object> args = new ArrayList<>();
                args.add(key);
                for (int i = start; i < Math.min(count, start + 1000); i++)
                {
                    args.add(prefix + i);
                }
                all.addAll((List<?>)call(jedis, command, args.toArray()));
            }
        }
        return all;
    }

    private static void migrate(final int from, final int to)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = Main.run(new ByteArrayInputStream(new byte[0]), out, err, "migrate", "--from",
            "127.0.0.1:" + from, "--to", "127.0.0.1:" + to, "--no-progress", "--probes", "20000");
        final String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        assertTrue(text.startsWith("moved 3 keys (2 Bloom, 1 cuckoo)"), text);
    }

    @Test
    void filtersMoveFromRedisBloomToDdfAndBackAnsweringAlike() throws Exception
    {
        try (RedisBloomProcess origin = RedisBloomProcess.startOrSkip();
            RedisBloomProcess back = RedisBloomProcess.startOrSkip();
            TestServer ddf = new TestServer(dir.resolve("data"), c -> c.pastCapacity = ServerConfig.PastCapacity.SCALE);
            Jedis source = new Jedis("127.0.0.1", origin.port(), 60_000);
            Jedis daemon = new Jedis("127.0.0.1", ddf.port(), 60_000);
            Jedis returned = new Jedis("127.0.0.1", back.port(), 60_000))
        {
            call(source, "BF.RESERVE", "scaling", 0.01, 10_000);
            addAll(source, "BF.MADD", "scaling", 150_000);
            call(source, "BF.RESERVE", "fixed", 0.001, 100_000, "NONSCALING");
            addAll(source, "BF.MADD", "fixed", 100_000);
            call(source, "CF.RESERVE", "cuckoo", 20_000, "EXPANSION", 2);
            addAll(source, "CF.INSERT", "cuckoo", 50_000);
            for (int i = 0; i < 50_000; i += 7)
            {
                call(source, "CF.DEL", "cuckoo", "m" + i);
            }
            migrate(origin.port(), ddf.port());
            migrate(ddf.port(), back.port());
            for (final String[] key : new String[][] {{"scaling", "BF", "150000"}, {"fixed", "BF", "100000"},
                {"cuckoo", "CF", "50000"}})
            {
                final List<Object> theirs = answers(source, key[1] + ".MEXISTS", key[0], Integer.parseInt(key[2]));
                assertEquals(theirs, answers(daemon, key[1] + ".MEXISTS", key[0], Integer.parseInt(key[2])),
                    key[0] + " on ddf");
                assertEquals(theirs, answers(returned, key[1] + ".MEXISTS", key[0], Integer.parseInt(key[2])),
                    key[0] + " back on RedisBloom");
                assertEquals(MigrateText.info(call(source, key[1] + ".INFO", key[0])),
                    MigrateText.info(call(daemon, key[1] + ".INFO", key[0])), key[0] + ": INFO");
            }
            for (int i = 0; i < 20_000; i++)
            {
                final String item = "later" + i;
                assertEquals(call(source, "BF.ADD", "scaling", item), call(daemon, "BF.ADD", "scaling", item), item);
                assertEquals(call(source, "CF.ADD", "cuckoo", item), call(daemon, "CF.ADD", "cuckoo", item), item);
            }
            for (int i = 0; i < 100; i++)
            {
                final String item = "over" + i;
                Object theirs;
                Object ours;
                try
                {
                    theirs = call(source, "BF.ADD", "fixed", item);
                }
                catch (final redis.clients.jedis.exceptions.JedisDataException ex)
                {
                    theirs = ex.getMessage();
                }
                try
                {
                    ours = call(daemon, "BF.ADD", "fixed", item);
                }
                catch (final redis.clients.jedis.exceptions.JedisDataException ex)
                {
                    ours = ex.getMessage();
                }
                assertEquals(theirs, ours, "a NONSCALING filter past its capacity: " + item);
            }
            assertEquals(MigrateText.info(call(source, "BF.INFO", "scaling")),
                MigrateText.info(call(daemon, "BF.INFO", "scaling")));
            assertEquals(MigrateText.info(call(source, "CF.INFO", "cuckoo")),
                MigrateText.info(call(daemon, "CF.INFO", "cuckoo")));
        }
    }

    /** INFO replies as text, to compare them. */
    static final class MigrateText
    {
        private MigrateText()
        {
        }

        static String info(final Object reply)
        {
            final StringBuilder out = new StringBuilder();
            for (final Object item : (List<?>)reply)
            {
                out.append(item instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : item).append(';');
            }
            return out.toString();
        }
    }
}
