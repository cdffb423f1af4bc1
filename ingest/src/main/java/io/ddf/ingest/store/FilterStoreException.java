package io.ddf.ingest.store;

/**
 * A filter the store cannot give, make or delete: the key's file could not be opened, the key exists, the disk is
 * full, the store is shutting down. Its message says so on one line, without a protocol's error code: the request
 * path replies with it as {@code ERR <message>} ({@link Session#message}), the raw feed logs it.
 */
public class FilterStoreException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong and what to do, on one line. */
    public FilterStoreException(final String message)
    {
        super(message);
    }
}
