package io.ddf.ingest;

import io.ddf.persistence.FilterFileException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * Turns every failure into exit status and one line {@code ddf: <message>} on stderr: 2 for a bad command line,
 * bad parameters or a bad filter file, 1 for a failure while running (I/O mid-stream, anything unexpected), and
 * 141 without a word when the reader of the output went away (a broken pipe).
 */
final class ErrorHandling implements IParameterExceptionHandler, IExecutionExceptionHandler
{
    /** Exit status for a failure while running. */
    static final int RUNTIME_ERROR = 1;
    /** Exit status for bad usage: options, parameters, filter file. */
    static final int USAGE_ERROR = 2;
    /** Exit status when the reader of our output went away: 128 + SIGPIPE, as a shell reports a C tool's. */
    static final int BROKEN_PIPE = 141;

    @Override
    public int handleParseException(final ParameterException ex, final String[] args)
    {
        final CommandLine command = ex.getCommandLine();
        report(command.getErr(), oneLine(ex.getMessage()) + " (see '" + command.getCommandSpec().qualifiedName() +
            " --help')");
        return USAGE_ERROR;
    }

    @Override
    public int handleExecutionException(final Exception ex, final CommandLine command, final ParseResult parsed)
    {
        if (brokenPipe(ex))
        {
            // `ddf pipe ... | head`: the reader has what it wanted; say nothing, like a tool killed by SIGPIPE.
            return BROKEN_PIPE;
        }
        report(command.getErr(), message(ex));
        return exitCode(ex);
    }

    private static boolean brokenPipe(final Throwable ex)
    {
        for (Throwable t = ex; t != null; t = t.getCause())
        {
            if (t instanceof IOException && t.getMessage() != null && t.getMessage().contains("Broken pipe"))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param ex a failure raised by a command.
     * @return its exit status.
     */
    static int exitCode(final Throwable ex)
    {
        if (ex instanceof IllegalArgumentException || ex instanceof FilterFileException)
        {
            return USAGE_ERROR;
        }
        return RUNTIME_ERROR;
    }

    private static String message(final Throwable ex)
    {
        if (ex instanceof io.ddf.engine.UnknownParameterException)
        {
            return ((io.ddf.engine.UnknownParameterException)ex).commandLineMessage(); // options, not builder methods
        }
        final String message = ex.getMessage();
        if (ex instanceof IllegalArgumentException || ex instanceof FilterFileException)
        {
            return message != null ? message : ex.getClass().getSimpleName();
        }
        if (ex instanceof IOException || ex instanceof UncheckedIOException)
        {
            return "I/O error: " + (message != null ? message : ex.getClass().getSimpleName());
        }
        return ex.getClass().getName() + (message != null ? ": " + message : "");
    }

    private static void report(final PrintWriter err, final String message)
    {
        err.print("ddf: ");
        err.print(oneLine(message));
        err.print('\n');
        err.flush();
    }

    /**
     * @param message any text, maybe null.
     * @return the text on one line.
     */
    static String oneLine(final String message)
    {
        if (message == null)
        {
            return "error";
        }
        return message.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }
}
