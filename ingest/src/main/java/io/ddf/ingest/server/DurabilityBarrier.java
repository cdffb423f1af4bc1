package io.ddf.ingest.server;

/**
 * Runs after the commands of one read have run and before their replies are flushed ({@link ReplyWriter#flush},
 * and the raw feed's verdicts likewise): the one place where a reply can wait until what it acknowledges is as
 * durable as the daemon promises. Issue 24's {@code --fsync always} plugs in here as a group commit (the writes of
 * one read share one sync); {@code everysec} and {@code no} need nothing here. The default, {@link #NONE}, returns
 * at once: a reply leaves once its element is in the mapped file, which survives a kill -9.
 */
@FunctionalInterface
interface DurabilityBarrier
{
    /** Nothing to wait for. */
    DurabilityBarrier NONE = () ->
    {
    };

    /** Returns once what the replies about to be flushed acknowledge is durable; on the connection's event loop. */
    void beforeFlush();
}
