package io.ddf.ingest;

import io.ddf.engine.DuplicateFilter;

import java.io.Flushable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Closes a filter exactly once, at the end of input or from a shutdown hook (SIGTERM, SIGINT), never while the
 * streaming thread is using it.
 *
 * <p>The streaming thread holds the guard's lock while it streams and releases it only around reads that may
 * block; the hook takes the lock, flushes the output and closes the filter, and the streaming thread, finding
 * the guard closed, stops.
 */
final class FilterGuard implements AutoCloseable
{
    /** How long the shutdown hook waits for the streaming thread, e.g. blocked writing to a full pipe. */
    private static final long HOOK_WAIT_SECONDS = 5;

    private final ReentrantLock lock = new ReentrantLock();
    private final DuplicateFilter filter;
    private final Flushable output;
    private final Thread hook;
    private boolean open = true;

    /**
     * @param filter the filter to close.
     * @param output flushed before the filter is closed.
     * @param onShutdown whether to close it from a shutdown hook too.
     */
    FilterGuard(final DuplicateFilter filter, final Flushable output, final boolean onShutdown)
    {
        this.filter = filter;
        this.output = output;
        if (onShutdown)
        {
            hook = new Thread(this::closeFromHook, "ddf-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        else
        {
            hook = null;
        }
    }

    /** @return the guarded filter; use it only while holding the lock and {@link #isOpen()}. */
    DuplicateFilter filter()
    {
        return filter;
    }

    /** Takes the lock, waiting for the hook if it is closing the filter. */
    void lock()
    {
        lock.lock();
    }

    /** Releases the lock. */
    void unlock()
    {
        lock.unlock();
    }

    /** @return whether the filter is still open; ask while holding the lock. */
    boolean isOpen()
    {
        return open;
    }

    /**
     * Flushes the output and closes the filter, unless the hook has done so; removes the hook.
     *
     * @throws IOException when flushing the output fails (the filter is closed all the same).
     */
    @Override
    public void close() throws IOException
    {
        if (hook != null)
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException shuttingDown)
            {
                // the hook runs or has run; closeNow is idempotent
            }
        }
        lock.lock();
        try
        {
            closeNow();
        }
        finally
        {
            lock.unlock();
        }
    }

    private void closeFromHook()
    {
        try
        {
            if (!lock.tryLock(HOOK_WAIT_SECONDS, TimeUnit.SECONDS))
            {
                System.err.println("ddf: filter busy at shutdown; its state is in the file but was not flushed");
                return;
            }
            try
            {
                closeNow();
            }
            finally
            {
                lock.unlock();
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        catch (final IOException | RuntimeException e)
        {
            System.err.println("ddf: at shutdown: " + e.getMessage());
        }
    }

    private void closeNow() throws IOException
    {
        if (!open)
        {
            return;
        }
        open = false;
        try
        {
            output.flush();
        }
        finally
        {
            filter.close();
        }
    }
}
