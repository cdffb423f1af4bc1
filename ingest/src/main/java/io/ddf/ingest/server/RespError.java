package io.ddf.ingest.server;

/** A command's failure, sent to the client as a RESP error: the message starts with the error code. */
final class RespError extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** @param message e.g. {@code ERR item exists}. */
    RespError(final String message)
    {
        super(message, null, false, false);
    }
}
