package io.ddf.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs an action that must end (a stream a damaged state could leave spinning) in a daemon thread of its own, so that
 * a hang fails the test instead of holding the run. A hung thread still reads its memory: that memory is then kept
 * reachable for ever, so the thread never reads freed memory (a crash of the whole test JVM).
 */
public final class HangGuard
{
    private static final long WAIT_MILLIS = 10_000;
    private static final List<Object> KEPT_FOR_HUNG_THREADS = Collections.synchronizedList(new ArrayList<>());

    private HangGuard()
    {
    }

    /**
     * @param what   the failure message when the action hangs.
     * @param action the action; what it throws is rethrown (wrapped in an AssertionError).
     * @param memory what the action reads (direct regions, filters), kept for ever if it hangs.
     * @throws InterruptedException when interrupted while waiting.
     */
    public static void assertEnds(final String what, final Runnable action, final Object... memory)
        throws InterruptedException
    {
        final Throwable[] thrown = new Throwable[1];
        final Thread thread = new Thread(() ->
        {
            try
            {
                action.run();
            }
            catch (final Throwable e)
            {
                thrown[0] = e;
            }
        }, "hang-guard");
        thread.setDaemon(true);
        thread.start();
        thread.join(WAIT_MILLIS);
        if (thread.isAlive())
        {
            KEPT_FOR_HUNG_THREADS.addAll(List.of(memory));
            final StringBuilder stack = new StringBuilder(what).append(" (hung ").append(WAIT_MILLIS).append(" ms):");
            for (final StackTraceElement frame : thread.getStackTrace())
            {
                stack.append("\n\tat ").append(frame);
            }
            fail(stack.toString());
        }
        if (thrown[0] != null)
        {
            throw new AssertionError(what + ": the action failed", thrown[0]);
        }
    }
}
