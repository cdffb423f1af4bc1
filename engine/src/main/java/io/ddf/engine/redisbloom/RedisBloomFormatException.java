package io.ddf.engine.redisbloom;

/**
 * A dump chunk or header that RedisBloom's format does not allow, with the error text RedisBloom itself answers for
 * it (so a client sees the same reply from ddf), and what exactly is wrong for the log.
 */
public final class RedisBloomFormatException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final String reply;

    /**
     * @param reply  the error reply RedisBloom gives, e.g. {@code ERR received bad data}.
     * @param detail what is wrong, for a log line.
     */
    public RedisBloomFormatException(final String reply, final String detail)
    {
        super(reply + " (" + detail + ")");
        this.reply = reply;
    }

    /** @return the error reply RedisBloom gives for this input. */
    public String reply()
    {
        return reply;
    }
}
