package io.ddf.ingest.store;

import io.ddf.ingest.log.OneLine;

import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The thread that makes every filter file, of either kind, never an event loop's: zero-filling or allocating and
 * syncing a large file takes long, and an event loop serves other clients meanwhile. One thread makes them all, so
 * two creations of one key never race; a creation refused gets a line in the log ({@link FilterEvents#refused}).
 */
final class FilterCreator
{
    /** How long stopping waits for a filter file being made. */
    private static final int CREATION_WAIT_SECONDS = 60;

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r ->
    {
        final Thread made = new Thread(r, "ddf-create");
        made.setDaemon(true);
        return made;
    });
    private final PrintStream log;

    /** @param log gets a line per creation refused. */
    FilterCreator(final PrintStream log)
    {
        this.log = log;
    }

    /**
     * @param key  the key whose filter {@code make} makes.
     * @param make makes it, on the creation thread.
     * @return completes once made, or exceptionally with what {@code make} threw (a {@link FilterStoreException} when
     *         the creation thread has stopped).
     */
    CompletableFuture<Void> submit(final String key, final Runnable make)
    {
        try
        {
            return CompletableFuture.runAsync(make, thread).whenComplete((done, failure) ->
            {
                if (failure != null)
                {
                    final Throwable cause = failure instanceof java.util.concurrent.CompletionException &&
                        failure.getCause() != null ? failure.getCause() : failure;
                    log.println(FilterEvents.refused(key, OneLine.of(cause)));
                }
            });
        }
        catch (final RejectedExecutionException e)
        {
            return CompletableFuture.failedFuture(new FilterStoreException("server is shutting down"));
        }
    }

    /** Refuses later creations; returns once the one under way (if any) is done, or after a minute. */
    void stop()
    {
        thread.shutdown();
        try
        {
            // a creation under way finds the store closed when it is done, closes its file and fails
            if (!thread.awaitTermination(CREATION_WAIT_SECONDS, TimeUnit.SECONDS))
            {
                thread.shutdownNow();
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
