package io.ddf.engine.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the handler threads (daemons, so a pipeline left open does not keep the JVM alive) and remembers them so
 * that {@link FilterPipeline#close} can join them. Each handler renames its thread in {@code onStart}
 * ({@code ddf-pipeline-hash-0}, {@code ddf-pipeline-insert-0}, {@code ddf-pipeline-verdict}).
 */
final class PipelineThreads implements ThreadFactory
{
    private static final AtomicInteger PIPELINES = new AtomicInteger();

    private final int pipeline = PIPELINES.incrementAndGet();
    private final List<Thread> threads = new ArrayList<>();

    @Override
    public synchronized Thread newThread(final Runnable task)
    {
        final Thread thread = new Thread(task, "ddf-pipeline-" + pipeline + "-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    }

    /** @return whether the calling thread is one of this pipeline's handler threads. */
    synchronized boolean isHandlerThread()
    {
        return threads.contains(Thread.currentThread());
    }

    /**
     * @param timeoutMillis how long to wait for each thread.
     * @return the number of threads still alive after the wait.
     * @throws InterruptedException when interrupted while waiting.
     */
    int join(final long timeoutMillis) throws InterruptedException
    {
        final List<Thread> copy;
        synchronized (this)
        {
            copy = new ArrayList<>(threads);
        }
        int alive = 0;
        for (final Thread thread : copy)
        {
            thread.join(timeoutMillis);
            alive += thread.isAlive() ? 1 : 0;
        }
        return alive;
    }
}
