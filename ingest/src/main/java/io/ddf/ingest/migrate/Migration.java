package io.ddf.ingest.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Moves RedisBloom's Bloom and cuckoo filters from a running Redis to a ddf daemon (or any server that takes
 * RedisBloom's dump chunks): finds the keys ({@code SCAN}, {@code TYPE} {@code MBbloom--} or {@code MBbloomCF}),
 * refuses to start when any of them exists on the target, copies each by its dump ({@code SCANDUMP}, then
 * {@code LOADCHUNK} of every chunk as it comes, so at most one chunk is held), and checks each afterwards: the same
 * {@code BF.INFO}/{@code CF.INFO} fields and the same {@code MEXISTS} answers on both sides for random probes.
 *
 * <p>What it cannot see: writes to the source while a key is copied (its chunks are taken one after the other, as
 * RedisBloom's own AOF rewrite takes them); stop writers first, or the check will name the keys that changed.
 */
public final class Migration
{
    /** RedisBloom's type names, as {@code TYPE} answers. */
    static final String BLOOM_TYPE = "MBbloom--";
    static final String CUCKOO_TYPE = "MBbloomCF";

    private final RespLink from;
    private final RespLink to;
    private final int probes;
    private final SplittableRandom random;

    /**
     * A key to move.
     *
     * @param name   the key.
     * @param cuckoo whether it is a cuckoo filter.
     * @param bytes  its size as the source's INFO reports it (for the progress).
     */
    public record Key(byte[] name, boolean cuckoo, long bytes)
    {
        /** @return the key as text, for messages. */
        public String text()
        {
            return new String(name, StandardCharsets.UTF_8);
        }
    }

    /**
     * @param from   the source.
     * @param to     the target.
     * @param probes random items each check asks both sides about.
     * @param seed   the probes' seed.
     */
    Migration(final RespLink from, final RespLink to, final int probes, final long seed)
    {
        this.from = from;
        this.to = to;
        this.probes = probes;
        this.random = new SplittableRandom(seed);
    }

    /**
     * @param pattern a {@code SCAN MATCH} pattern.
     * @return the source's Bloom and cuckoo keys matching it.
     * @throws IOException when a connection fails.
     */
    List<Key> discover(final String pattern) throws IOException
    {
        final List<Key> keys = new ArrayList<>();
        String cursor = "0";
        do
        {
            final List<?> reply = (List<?>)from.call("SCAN", cursor, "MATCH", pattern, "COUNT", 1000);
            cursor = new String((byte[])reply.get(0), StandardCharsets.US_ASCII);
            final List<?> names = (List<?>)reply.get(1);
            if (names.isEmpty())
            {
                continue;
            }
            final List<Object[]> types = new ArrayList<>();
            for (final Object name : names)
            {
                types.add(new Object[] {"TYPE", name});
            }
            final List<Object> answers = from.pipeline(types);
            for (int i = 0; i < names.size(); i++)
            {
                final String type = String.valueOf(answers.get(i));
                if (type.equals(BLOOM_TYPE) || type.equals(CUCKOO_TYPE))
                {
                    final byte[] name = (byte[])names.get(i);
                    final boolean cuckoo = type.equals(CUCKOO_TYPE);
                    keys.add(new Key(name, cuckoo, infoSize(from, name, cuckoo)));
                }
            }
        }
        while (!cursor.equals("0"));
        return keys;
    }

    private static long infoSize(final RespLink link, final byte[] name, final boolean cuckoo) throws IOException
    {
        final List<?> info = (List<?>)link.call(cuckoo ? "CF.INFO" : "BF.INFO", name);
        for (int i = 0; i + 1 < info.size(); i += 2)
        {
            if ("Size".equals(String.valueOf(info.get(i))))
            {
                return (Long)info.get(i + 1);
            }
        }
        return 0;
    }

    /**
     * @param keys keys to move.
     * @return those the target has already.
     * @throws IOException when a connection fails.
     */
    List<Key> existing(final List<Key> keys) throws IOException
    {
        final List<Object[]> asks = new ArrayList<>();
        for (final Key key : keys)
        {
            asks.add(new Object[] {"EXISTS", key.name()});
        }
        final List<Object> answers = to.pipeline(asks);
        final List<Key> taken = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++)
        {
            if (answers.get(i) instanceof Long count && count > 0)
            {
                taken.add(keys.get(i));
            }
        }
        return taken;
    }

    /**
     * Copies one key's dump, chunk by chunk.
     *
     * @param key      the key.
     * @param progress told the bytes of each chunk loaded.
     * @return the bytes copied.
     * @throws IOException when a connection fails.
     * @throws RespLink.ServerError when either side refuses a step (the message names the side).
     */
    long copy(final Key key, final LongConsumer progress) throws IOException
    {
        final String family = key.cuckoo() ? "CF" : "BF";
        long iter = 0;
        long copied = 0;
        boolean first = true;
        while (true)
        {
            final List<?> reply;
            try
            {
                reply = (List<?>)from.call(family + ".SCANDUMP", key.name(), iter);
            }
            catch (final RespLink.ServerError error)
            {
                throw new RespLink.ServerError(from.name() + " refused " + family + ".SCANDUMP " + key.text() + " " +
                    iter + ": " + error.getMessage());
            }
            final long next = (Long)reply.get(0);
            final byte[] data = (byte[])reply.get(1);
            if (next == 0)
            {
                if (first)
                {
                    reserveEmptyCuckoo(key);
                }
                return copied;
            }
            try
            {
                to.call(family + ".LOADCHUNK", key.name(), next, data);
            }
            catch (final RespLink.ServerError error)
            {
                throw new RespLink.ServerError(to.name() + " refused " + family + ".LOADCHUNK " + key.text() + " " +
                    next + " (" + data.length + " bytes): " + error.getMessage());
            }
            copied += data.length;
            progress.accept(data.length);
            first = false;
            iter = next;
        }
    }

    /** A cuckoo filter without items has no dump (RedisBloom answers 0 and nil): it is made anew, same shape. */
    private void reserveEmptyCuckoo(final Key key) throws IOException
    {
        final List<?> info = (List<?>)from.call("CF.INFO", key.name());
        long buckets = 0;
        long bucketSize = 0;
        long iterations = 0;
        long expansion = 0;
        for (int i = 0; i + 1 < info.size(); i += 2)
        {
            final String field = String.valueOf(info.get(i));
            final long value = (Long)info.get(i + 1);
            switch (field)
            {
                case "Number of buckets" -> buckets = value;
                case "Bucket size" -> bucketSize = value;
                case "Max iterations" -> iterations = value;
                case "Expansion rate" -> expansion = value;
                default -> { }
            }
        }
        to.call("CF.RESERVE", key.name(), buckets * bucketSize, "BUCKETSIZE", bucketSize, "MAXITERATIONS",
            iterations, "EXPANSION", expansion);
    }

    /**
     * @param key a moved key.
     * @return what differs between the two sides, or null when nothing does.
     * @throws IOException when a connection fails.
     */
    String check(final Key key) throws IOException
    {
        final String family = key.cuckoo() ? "CF" : "BF";
        final Object theirs = from.call(family + ".INFO", key.name());
        final Object ours = to.call(family + ".INFO", key.name());
        if (!same(theirs, ours))
        {
            return family + ".INFO differs: " + text(theirs) + " on " + from.name() + ", " + text(ours) + " on " +
                to.name();
        }
        for (int start = 0; start < probes; start += 1000)
        {
            final int count = Math.min(1000, probes - start);
            final Object[] command = new Object[2 + count];
            command[0] = family + ".MEXISTS";
            command[1] = key.name();
            for (int i = 0; i < count; i++)
            {
                final byte[] probe = new byte[1 + random.nextInt(32)];
                for (int b = 0; b < probe.length; b++)
                {
                    probe[b] = (byte)random.nextInt(256);
                }
                command[2 + i] = probe;
            }
            final List<?> a = (List<?>)from.call(command);
            final List<?> b = (List<?>)to.call(command);
            for (int i = 0; i < count; i++)
            {
                if (!asLong(a.get(i)).equals(asLong(b.get(i))))
                {
                    return family + ".MEXISTS of a probe answered " + a.get(i) + " on " + from.name() + " and " +
                        b.get(i) + " on " + to.name();
                }
            }
        }
        return null;
    }

    private static Object asLong(final Object reply)
    {
        return reply instanceof Long ? reply : String.valueOf(reply);
    }

    private static boolean same(final Object a, final Object b)
    {
        return text(a).equals(text(b));
    }

    private static String text(final Object reply)
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
                out.append(out.length() == 1 ? "" : ", ").append(text(item));
            }
            return out.append(']').toString();
        }
        return String.valueOf(reply);
    }
}
