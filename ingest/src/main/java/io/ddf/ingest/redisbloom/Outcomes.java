package io.ddf.ingest.redisbloom;

import io.ddf.engine.redisbloom.RedisBloomFormatException;
import io.ddf.ingest.resp.RespError;

/** Loading a dump chunk, for both families. */
final class Outcomes
{
    private Outcomes()
    {
    }

    /**
     * @param load copies a data chunk into place, or throws the format's refusal (having written nothing).
     * @throws RespError RedisBloom's reply to the refusal.
     */
    static void load(final Runnable load)
    {
        try
        {
            load.run();
        }
        catch (final RedisBloomFormatException ex)
        {
            throw new RespError(ex.reply());
        }
    }
}
