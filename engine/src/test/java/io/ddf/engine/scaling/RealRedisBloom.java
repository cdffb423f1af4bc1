package io.ddf.engine.scaling;

import io.ddf.persistence.testing.RedisBloomProcess;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A real redis-server with RedisBloom 2.4.23 ({@link RedisBloomProcess}: skipped where absent) and a Jedis connection
 * to it, for the tests that check ddf's RedisBloom layouts against the original.
 */
final class RealRedisBloom implements AutoCloseable
{
    private final RedisBloomProcess process;
    private final Jedis jedis;

    private RealRedisBloom(final RedisBloomProcess process, final Jedis jedis)
    {
        this.process = process;
        this.jedis = jedis;
    }

    /** @return a started server, or the test is skipped with the reason. */
    static RealRedisBloom startOrSkip() throws IOException, InterruptedException
    {
        final RedisBloomProcess process = RedisBloomProcess.startOrSkip();
        return new RealRedisBloom(process, new Jedis("127.0.0.1", process.port(), 60_000));
    }

    Object call(final String command, final Object... args)
    {
        final byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            raw[i] = args[i] instanceof byte[] bytes ? bytes : SafeEncoder.encode(String.valueOf(args[i]));
        }
        final ProtocolCommand name = () -> SafeEncoder.encode(command);
        return jedis.sendCommand(name, raw);
    }

    /** @return the reply as a long. */
    long number(final String command, final Object... args)
    {
        return (Long)call(command, args);
    }

    /** @return the reply, an array of integers, as longs. */
    @SuppressWarnings("unchecked")
    List<Long> numbers(final String command, final Object... args)
    {
        return (List<Long>)call(command, args);
    }

    /**
     * @return every chunk of a dump ({@code BF.SCANDUMP} or {@code CF.SCANDUMP}): iterator, then data, alternating,
     *         the header first.
     */
    @SuppressWarnings("unchecked")
    List<Object[]> scandump(final String command, final String key)
    {
        final List<Object[]> chunks = new ArrayList<>();
        long iter = 0;
        while (true)
        {
            final List<Object> reply = (List<Object>)call(command, key, iter);
            iter = (Long)reply.get(0);
            if (iter == 0)
            {
                return chunks;
            }
            chunks.add(new Object[] {iter, reply.get(1)});
        }
    }

    String text(final Object reply)
    {
        return reply instanceof byte[] bytes ? SafeEncoder.encode(bytes) : String.valueOf(reply);
    }

    Jedis jedis()
    {
        return jedis;
    }

    @Override
    public void close()
    {
        jedis.close();
        process.close();
    }
}
