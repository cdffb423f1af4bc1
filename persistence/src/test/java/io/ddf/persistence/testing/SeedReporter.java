package io.ddf.persistence.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Names the {@link TestSeed} beside every failure, so that any failure can be replayed: it prints one line to
 * standard error and attaches the same line to the failure as a suppressed exception (so it is in the surefire
 * report too). Passing and skipped tests print nothing.
 *
 * <p>Registered for every test of every module by JUnit's extension auto-detection: this module's test-jar lists it
 * in {@code META-INF/services/org.junit.jupiter.api.extension.Extension}, and the parent pom's surefire
 * configuration sets {@code junit.jupiter.extensions.autodetection.enabled=true}.
 */
public final class SeedReporter implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler
{
    /** Attached to a failure as a suppressed exception; its message is the replay instruction. */
    static final class ReplayWith extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        ReplayWith(final String message)
        {
            super(message, null, false, false);
        }
    }

    @Override
    public void handleTestExecutionException(final ExtensionContext context, final Throwable failure)
        throws Throwable
    {
        throw annotate(context, failure);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(final ExtensionContext context, final Throwable failure)
        throws Throwable
    {
        throw annotate(context, failure);
    }

    @Override
    public void handleAfterEachMethodExecutionException(final ExtensionContext context, final Throwable failure)
        throws Throwable
    {
        throw annotate(context, failure);
    }

    private static Throwable annotate(final ExtensionContext context, final Throwable failure)
    {
        if (failure instanceof TestAbortedException)
        {
            return failure; // an unmet assumption is not a failure
        }
        final String test = context.getTestClass().map(Class::getSimpleName).orElse("?") +
            context.getTestMethod().map(m -> "#" + m.getName()).orElse("");
        final String line = test + " [" + context.getDisplayName() + "] failed; replay with " +
            TestSeed.replayHint() + " -Dtest='" + test + "'";
        System.err.println("ddf.test.seed: " + line);
        failure.addSuppressed(new ReplayWith(line));
        return failure;
    }
}
