package io.ddf.ingest.migrate;

import io.ddf.ingest.Main;
import io.ddf.persistence.testing.RedisBloomProcess;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ddf migrate} between two real RedisBloom servers (skipped where the module is absent): every Bloom and
 * cuckoo key moves and checks, other types stay behind, a second run refuses to overwrite and copies nothing,
 * {@code --match} picks keys, and a key changed on one side fails its check.
 */
class MigrateCommandTest
{
    static Object call(final Jedis jedis, final String command, final Object... args)
    {
        final byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            raw[i] = args[i] instanceof byte[] bytes ? bytes : SafeEncoder.encode(String.valueOf(args[i]));
        }
        final ProtocolCommand name = () -> SafeEncoder.encode(command);
        return jedis.sendCommand(name, raw);
    }

    static String[] run(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = Main.run(new ByteArrayInputStream(new byte[0]), out, err, args);
        return new String[] {String.valueOf(status), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    static void fill(final Jedis source)
    {
        call(source, "BF.RESERVE", "bf:scaling", 0.01, 1000);
        call(source, "BF.RESERVE", "bf:fixed", 0.001, 5000, "NONSCALING");
        call(source, "CF.RESERVE", "cf:deleted", 1000, "EXPANSION", 2);
        call(source, "CF.RESERVE", "cf:empty", 500, "BUCKETSIZE", 4);
        for (int start = 0; start < 5000; start += 500)
        {
            final Object[] bf = new Object[501];
            final Object[] cf = new Object[502];
            bf[0] = "bf:scaling";
            cf[0] = "cf:deleted";
            cf[1] = "ITEMS";
            for (int i = 0; i < 500; i++)
            {
                bf[1 + i] = "i" + (start + i);
                cf[2 + i] = "i" + (start + i);
            }
            call(source, "BF.MADD", bf);
            bf[0] = "bf:fixed";
            call(source, "BF.MADD", bf);
            call(source, "CF.INSERT", cf);
        }
        for (int i = 0; i < 5000; i += 3)
        {
            call(source, "CF.DEL", "cf:deleted", "i" + i);
        }
        source.set("a:string", "not a filter");
    }

    @Test
    void movesEveryFilterAndRefusesToOverwrite() throws Exception
    {
        try (RedisBloomProcess from = RedisBloomProcess.startOrSkip(); RedisBloomProcess to =
            RedisBloomProcess.startOrSkip(); Jedis source = new Jedis("127.0.0.1", from.port());
            Jedis target = new Jedis("127.0.0.1", to.port()))
        {
            fill(source);
            final String[] moved = run("migrate", "--from", "127.0.0.1:" + from.port(), "--to", "127.0.0.1:" +
                to.port(), "--no-progress", "--probes", "3000");
            assertEquals("0", moved[0], moved[1] + moved[2]);
            assertTrue(moved[1].startsWith("moved 4 keys (2 Bloom, 2 cuckoo)"), moved[1]);
            for (final String key : List.of("bf:scaling", "bf:fixed", "cf:deleted", "cf:empty"))
            {
                final String family = key.startsWith("bf") ? "BF" : "CF";
                assertEquals(text(call(source, family + ".INFO", key)), text(call(target, family + ".INFO", key)),
                    key);
            }
            assertEquals(false, target.exists("a:string"), "a string is no filter: left behind");
            assertEquals(1L, call(target, "BF.EXISTS", "bf:scaling", "i4999"));

            final String[] again = run("migrate", "--from", "127.0.0.1:" + from.port(), "--to", "127.0.0.1:" +
                to.port(), "--no-progress");
            assertEquals("2", again[0], again[1] + again[2]);
            assertTrue(again[2].contains("4 of the 4 keys exist on 127.0.0.1:" + to.port() + " already"), again[2]);
            assertTrue(again[2].contains("refusing to overwrite; nothing was copied"), again[2]);

            target.flushAll();
            final String[] some = run("migrate", "--from", "127.0.0.1:" + from.port(), "--to", "127.0.0.1:" +
                to.port(), "--no-progress", "--match", "cf:*");
            assertEquals("0", some[0], some[1] + some[2]);
            assertTrue(some[1].startsWith("moved 2 keys (0 Bloom, 2 cuckoo)"), some[1]);
            assertEquals(2L, target.dbSize());

            call(target, "CF.ADD", "cf:deleted", "only on the target");
            try (RespLink a = new RespLink("127.0.0.1:" + from.port(), 10_000);
                RespLink b = new RespLink("127.0.0.1:" + to.port(), 10_000))
            {
                final Migration check = new Migration(a, b, 100, 1);
                final String difference = check.check(new Migration.Key(
                    "cf:deleted".getBytes(StandardCharsets.UTF_8), true, 0));
                assertTrue(difference != null && difference.startsWith("CF.INFO differs"), difference);
                assertEquals(null, check.check(new Migration.Key("cf:empty".getBytes(StandardCharsets.UTF_8), true, 0)));
            }
        }
    }

    static String text(final Object reply)
    {
        if (reply instanceof byte[] bytes)
        {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list)
        {
            final StringBuilder out = new StringBuilder("[");
            for (final Object item : list)
            {
                out.append(text(item)).append(',');
            }
            return out.append(']').toString();
        }
        return String.valueOf(reply);
    }
}
