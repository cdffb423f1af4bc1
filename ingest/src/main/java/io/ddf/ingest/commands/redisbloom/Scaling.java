package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.redisbloom.Creation;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.ScalingRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.RedisMessage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * How BF.* and CF.* run RedisBloom's semantics ({@code io.ddf.ingest.redisbloom}) on the filters that grow: the
 * arguments copied out of the decoder's buffers, the reply placed, the write named to the durability gate when the
 * command changed the filter, and a {@link Creation} carried out on the store's creation thread while the connection
 * waits. Shared by {@link BloomCommands} and {@link CuckooCommands}.
 */
final class Scaling
{
    private final FilterStore store;
    private final ScalingRegistry registry;

    /** @param store the filters. */
    Scaling(final FilterStore store)
    {
        this.store = store;
        this.registry = store.scaling();
    }

    /**
     * Runs a command of RedisBloom's semantics on an existing key: its reply takes its place.
     *
     * @param session the connection.
     * @param args    the command.
     * @param command the semantics.
     */
    void run(final Session session, final ByteBuf[] args, final Function<byte[][], RedisMessage> command)
    {
        run(session, args, bytes(args), command);
    }

    /**
     * {@link #run(Session, ByteBuf[], Function)} with the arguments copied already.
     *
     * @param session the connection.
     * @param args    the command.
     * @param bytes   its arguments' bytes.
     * @param command the semantics.
     */
    private void run(final Session session, final ByteBuf[] args, final byte[][] bytes,
        final Function<byte[][], RedisMessage> command)
    {
        final String key = session.key(args[1]);
        final long before = changes(key);
        final RedisMessage reply;
        try
        {
            reply = command.apply(bytes);
        }
        catch (final IllegalStateException | IllegalArgumentException e)
        {
            throw error(e);
        }
        finally
        {
            if (changes(key) != before)
            {
                wrote(session, key); // the reply (even an error after a partial insert) acknowledges a change
            }
        }
        session.replies().ready(reply);
    }

    /**
     * BF.LOADCHUNK and CF.LOADCHUNK of RedisBloom's dumps (or a chain's): the header chunk makes the filter, every
     * other chunk loads into it. The chunk (megabytes) is copied once.
     *
     * @param session the connection.
     * @param args    the command.
     * @param toLoad  the semantics' creation from a header chunk, or null for another chunk.
     * @param load    the semantics' load of another chunk.
     */
    void loadchunk(final Session session, final ByteBuf[] args, final Function<byte[][], Creation> toLoad,
        final Function<byte[][], RedisMessage> load)
    {
        final byte[][] bytes = bytes(args);
        final Creation creation = toLoad.apply(bytes);
        if (creation != null)
        {
            createThenOk(session, creation);
            return;
        }
        run(session, args, bytes, load);
    }

    /**
     * Makes a filter, then answers OK (BF.RESERVE, CF.RESERVE, a dump's header chunk).
     *
     * @param session  the connection.
     * @param creation what RedisBloom's semantics asked for.
     */
    void createThenOk(final Session session, final Creation creation)
    {
        session.await(create(creation), () -> session.replies().ready(Replies.OK));
    }

    /**
     * Makes a filter, then runs the command again (BF.ADD on a missing key finds it then).
     *
     * @param session  the connection.
     * @param args     the command.
     * @param creation what RedisBloom's semantics asked for.
     */
    void createThenRetry(final Session session, final ByteBuf[] args, final Creation creation)
    {
        session.retryAfter(create(creation), args);
    }

    /**
     * Makes the filter on the store's creation thread; what its maker throws becomes RedisBloom's words for it.
     *
     * @param creation what RedisBloom's semantics asked for.
     * @return completes once the filter is in the store, or exceptionally with the error to reply with.
     */
    private CompletableFuture<Void> create(final Creation creation)
    {
        return store.createScaling(creation.key(), creation.maker(), creation.exclusive()).handle((done, failure) ->
        {
            if (failure == null)
            {
                return done;
            }
            final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ?
                failure.getCause() : failure;
            if (cause instanceof FilterStoreException stored)
            {
                throw stored;
            }
            throw new RespError(cause instanceof RuntimeException e ? creation.refused().apply(e) :
                "ERR " + OneLine.of(cause));
        });
    }

    /** @return the changes counted on the key's filter that grows; -1 when it has none. */
    private long changes(final String key)
    {
        try
        {
            final ScalingFilter filter = registry.acquire(key);
            return filter == null ? -1 : filter.changes();
        }
        catch (final IllegalStateException closedOrFailed)
        {
            return -1;
        }
        finally
        {
            registry.release();
        }
    }

    /** The replies from now on acknowledge a change of the key's filter: under --fsync always, they wait for it. */
    private void wrote(final Session session, final String key)
    {
        try
        {
            final ScalingFilter filter = registry.acquire(key);
            if (filter != null)
            {
                session.replies().wrote(filter);
            }
        }
        catch (final IllegalStateException closedOrFailed)
        {
            // deleted meanwhile: nothing left to sync
        }
        finally
        {
            registry.release();
        }
    }

    /**
     * @param e a failure of the registry (closed, a file that could not be opened).
     * @return it as an error reply.
     */
    static RespError error(final RuntimeException e)
    {
        final String text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new RespError(text.startsWith("ERR") ? text : "ERR " + text);
    }

    /**
     * @param args the decoder's buffers (not consumed).
     * @return copies of their bytes, as the semantics take them.
     */
    static byte[][] bytes(final ByteBuf[] args)
    {
        final byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            bytes[i] = new byte[args[i].readableBytes()];
            args[i].getBytes(args[i].readerIndex(), bytes[i]);
        }
        return bytes;
    }
}
