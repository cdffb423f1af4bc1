package io.ddf.ingest.redisbloom;

import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.resp.RespText;
import io.ddf.ingest.store.KeyNames;
import io.ddf.ingest.store.ScalingRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.RedisMessage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * RedisBloom's semantics over a registry in a directory, as the daemon runs them but without it: a command is its
 * words, its answer the RESP2 text a client reads ({@code :1\r\n}, or {@code -} and the error); a {@link Creation}
 * is carried out here (the daemon does it on the store's creation thread).
 */
final class SemanticsHarness implements AutoCloseable
{
    final ScalingRegistry registry;

    SemanticsHarness(final Path dir)
    {
        try
        {
            java.nio.file.Files.createDirectories(dir);
        }
        catch (final java.io.IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
        registry = new ScalingRegistry(dir, KeyNames::fileName, SyncPolicy.DEFAULT);
    }

    /** @return the words as the decoder hands them to a command. */
    static ByteBuf[] args(final String... words)
    {
        final ByteBuf[] args = new ByteBuf[words.length];
        for (int i = 0; i < words.length; i++)
        {
            args[i] = Unpooled.wrappedBuffer(words[i].getBytes(StandardCharsets.ISO_8859_1));
        }
        return args;
    }

    /** @return the words as the semantics take them. */
    static byte[][] bytes(final String... words)
    {
        final byte[][] bytes = new byte[words.length][];
        for (int i = 0; i < words.length; i++)
        {
            bytes[i] = words[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return bytes;
    }

    /**
     * @param command the semantics' command.
     * @param words   the command's name and arguments.
     * @return its reply's RESP2 text, or {@code -} and its error.
     */
    static String run(final Function<byte[][], RedisMessage> command, final String... words)
    {
        return answer(() -> RespText.resp2(command.apply(bytes(words))));
    }

    /**
     * @param creation what a command asked for (evaluated here: a refusal is the answer).
     * @return {@code +OK} once made, or {@code -} and RedisBloom's words for why not.
     */
    String create(final Supplier<Creation> creation)
    {
        return answer(() ->
        {
            final Creation made = creation.get();
            try
            {
                registry.create(made.key(), made.maker());
                return "+OK\r\n";
            }
            catch (final RuntimeException e)
            {
                return "-" + made.refused().apply(e) + "\r\n";
            }
        });
    }

    /**
     * @param then the command, run once a creation it asked for (or none) is done.
     * @param first the creation, or null when the key holds its filter.
     * @return the answer, as a client reads it.
     */
    String createThen(final Supplier<Creation> first, final Supplier<RedisMessage> then)
    {
        return answer(() ->
        {
            final Creation made = first.get();
            if (made != null)
            {
                registry.create(made.key(), made.maker());
            }
            return RespText.resp2(then.get());
        });
    }

    private static String answer(final Supplier<String> reply)
    {
        try
        {
            return reply.get();
        }
        catch (final RespError e)
        {
            return "-" + e.getMessage() + "\r\n";
        }
    }

    @Override
    public void close()
    {
        registry.close();
    }
}
