package io.ddf.engine.internal;

/**
 * How a filter's changes reach the device, as the machinery sees the API's sync policy: whether its stores mark the
 * pages they change, and who syncs them.
 */
public enum SyncMode
{
    /** Nothing tracked: the kernel writes the pages back when it chooses (policy {@code no}, anonymous files). */
    UNTRACKED,
    /** Pages tracked; {@link BackgroundSync} forces them once a second (policy {@code everysec}). */
    BACKGROUND,
    /**
     * Pages tracked; every call that changes the filter forces them before it returns, a batch call once for the
     * batch (policy {@code always}); {@link BackgroundSync} only brings the header's last sync time up to date.
     */
    EACH_CALL
}
