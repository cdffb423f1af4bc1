package io.ddf.ingest.redisbloom;

import io.ddf.engine.redisbloom.RedisBloomFormatException;

/** The reply of loading a dump chunk, for both families. */
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
}
