package io.ddf.ingest.redisbloom;

import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.store.KeyNames;
import io.ddf.ingest.store.ScalingRegistry;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * RedisBloom's semantics over a registry in a directory, as the daemon runs them but without it: a command is its
 * words, its answer a {@link Reply}; a {@link Reply.Create} is carried out here (the daemon does it on the store's
 * creation thread), then the command answers as the daemon's would.
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

    /**
     * @param command the semantics' command.
     * @param words   the command's name and arguments.
     * @return its reply as RESP2 gives it (a boolean is 1 or 0), a filter it asked for made first.
     */
    Reply run(final Function<byte[][], Reply> command, final String... words)
    {
        return resp2(reply(command, words));
    }

    private static Reply resp2(final Reply reply)
    {
        if (reply instanceof Reply.Bool bool)
        {
            return new Reply.Int(bool.value() ? 1 : 0);
        }
        if (reply instanceof Reply.Array array)
        {
            return new Reply.Array(array.items().stream().map(SemanticsHarness::resp2).toList(), array.map());
        }
        return reply;
    }

    private Reply reply(final Function<byte[][], Reply> command, final String... words)
    {
        final byte[][] args = new byte[words.length][];
        for (int i = 0; i < words.length; i++)
        {
            args[i] = words[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        final Reply reply = command.apply(args);
        if (reply instanceof Reply.Create create)
        {
            try
            {
                registry.create(create.key(), create.maker());
            }
            catch (final RuntimeException e)
            {
                return create.refused().apply(e);
            }
            return create.reply() != null ? create.reply() : command.apply(args);
        }
        return reply;
    }

    /** @return the text of an error reply, or the reply's own text. */
    static String text(final Reply reply)
    {
        return reply instanceof Reply.Error error ? error.text() : reply.toString();
    }

    @Override
    public void close()
    {
        registry.close();
    }
}
