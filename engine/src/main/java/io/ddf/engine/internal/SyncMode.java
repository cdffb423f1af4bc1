package io.ddf.engine.internal;

/**
 * How a filter's changes reach the device, as the machinery sees the API's sync policy (issue 31: through a change
 * log, FORMAT-LOG.md; the table itself is made durable by checkpoints).
 */
public enum SyncMode
{
    /** Nothing logged: the kernel writes the pages back when it chooses (policy {@code no}, anonymous files). */
    UNTRACKED,
    /** Through the filter's own log, forced once a second off the streaming threads (policy {@code everysec}). */
    LOG_EVERYSEC,
    /**
     * Through the filter's own log, forced by every call that changes the filter before it returns, a batch call
     * once for the batch (policy {@code always}).
     */
    LOG_ALWAYS,
    /** Through a log the caller owns (the daemon's data directory's): the caller forces it and checkpoints. */
    LOG_SHARED
}
