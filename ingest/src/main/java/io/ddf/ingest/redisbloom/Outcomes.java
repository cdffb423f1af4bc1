package io.ddf.ingest.redisbloom;

import io.ddf.engine.redisbloom.RedisBloomFormatException;

/** The replies of loading a dump chunk and of making a filter from a header chunk, for both families. */
final class Outcomes
{
    private Outcomes()
    {
    }

    /**
     * @param load copies a data chunk into place, or throws the format's refusal (having written nothing).
     * @return OK, or RedisBloom's reply to the refusal.
     */
    static Reply loaded(final Runnable load)
    {
        try
        {
            load.run();
            return Reply.OK;
        }
        catch (final RedisBloomFormatException ex)
        {
            return Reply.error(ex.reply());
        }
    }

    /**
     * @param registry the scaling filters.
     * @param key      a key without a filter.
     * @param maker    makes its filter from a header chunk, or throws the format's refusal.
     * @return OK, RedisBloom's reply to a refused header, or the reply to a filter that cannot be made.
     */
    static Reply created(final ScalingRegistry registry, final String key, final ScalingRegistry.Maker maker)
    {
        try
        {
            registry.create(key, maker);
            return Reply.OK;
        }
        catch (final RedisBloomFormatException ex)
        {
            return Reply.error(ex.reply());
        }
        catch (final RuntimeException ex)
        {
            return BloomSemantics.cannotCreate(ex);
        }
    }
}
