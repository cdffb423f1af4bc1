package io.ddf.ingest.resp;

/** A command's failure, sent to the client as a RESP error: the message starts with the error code. */
public final class RespError extends RuntimeException
{
    /** Redis's reply for a key holding another type: the one definition of its text. */
    public static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    private static final long serialVersionUID = 1L;

    /** @param message e.g. {@code ERR item exists}. */
    public RespError(final String message)
    {
        super(message, null, false, false);
    }

    /**
     * @param name a command or {@code command|subcommand}, lower case.
     * @return Redis's error for a wrong number of arguments (RedisBloom's {@code RedisModule_WrongArity} too).
     */
    public static RespError wrongArity(final String name)
    {
        return new RespError("ERR wrong number of arguments for '" + name + "' command");
    }
}
