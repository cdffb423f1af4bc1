package io.ddf.ingest.redisbloom;

import io.ddf.engine.redisbloom.RedisBloomFormatException;
import io.ddf.ingest.store.ScalingRegistry;
import io.ddf.persistence.FilterFileException;

import java.util.function.Function;

/**
 * A filter that grows, to be made before a command can answer: what RedisBloom's semantics return instead of a
 * reply when the key is missing (BF.RESERVE, BF.ADD on first use, a dump's header chunk). Making a file takes time (a
 * large filter's blocks are allocated on disk), so the daemon makes it on the store's creation thread, not on the
 * event loop, and the command then answers (BF.RESERVE: OK) or runs again and finds the filter (BF.ADD).
 *
 * @param key       the key.
 * @param maker     makes the filter, given its file.
 * @param exclusive whether an existing key is refused ({@link Errors#ITEM_EXISTS}: BF.RESERVE, a dump's header)
 *                  rather than used (a filter made on first use, which another client may have made meanwhile).
 * @param refused   RedisBloom's words for a failure of {@code maker}.
 */
public record Creation(String key, ScalingRegistry.Maker maker, boolean exclusive,
    Function<RuntimeException, String> refused)
{
    /**
     * @param key       the key.
     * @param maker     makes the filter.
     * @param exclusive whether an existing key is refused.
     * @return a creation whose failures are worded by {@link #cannotCreate}.
     */
    static Creation of(final String key, final ScalingRegistry.Maker maker, final boolean exclusive)
    {
        return new Creation(key, maker, exclusive, Creation::cannotCreate);
    }

    /**
     * @param ex why a filter could not be made.
     * @return RedisBloom's {@code Insufficient memory to create filter} for a full disk (RedisBloom's failed
     *         allocation), a refused dump header's own reply, an error the maker worded itself, or RedisBloom's
     *         {@code ERR could not create filter} with the reason (a descriptor limit, an I/O error).
     */
    static String cannotCreate(final RuntimeException ex)
    {
        if (ex instanceof FilterFileException file && file.reason() == FilterFileException.Reason.NO_SPACE)
        {
            return Errors.NO_MEMORY;
        }
        if (ex instanceof RedisBloomFormatException format)
        {
            return format.reply();
        }
        if (ex.getMessage() != null && ex.getMessage().startsWith("ERR"))
        {
            return ex.getMessage();
        }
        final String reason = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        return "ERR could not create filter: " + reason.replace('\r', ' ').replace('\n', ' ');
    }
}
