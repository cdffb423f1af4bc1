package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;

import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;

/**
 * Why {@code ddf serve} could not start, as one plain sentence for the person who ran it: what failed, and what to
 * change. A Java exception's {@code toString} names its class ({@code java.io.UncheckedIOException:
 * java.net.BindException: ...}), which says nothing to an operator.
 */
final class StartupFailure
{
    private StartupFailure()
    {
    }

    /**
     * @param failure what {@link DdfServer#start} threw.
     * @param config  the configuration it was given.
     * @return one sentence, no class names, no line breaks.
     */
    static String sentence(final Throwable failure, final ServerConfig config)
    {
        final String dir = String.valueOf(config.dataDir);
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            final String message = t.getMessage() == null ? "" : t.getMessage();
            if (t instanceof BindException || message.contains("Address already in use"))
            {
                return listening(failure) + "the address is already in use (another ddf serve or a redis-server?); " +
                    "choose another port";
            }
            if (message.contains("Cannot assign requested address"))
            {
                return listening(failure) + "no network interface of this machine has that address; check --bind";
            }
            if (message.contains("Permission denied") && listening(failure).length() > 0)
            {
                return listening(failure) + "permission denied (ports below 1024 need privileges)";
            }
            if (t instanceof FileAlreadyExistsException || t instanceof NotDirectoryException)
            {
                return "cannot use data directory " + dir + ": " + ((FileSystemException)t).getFile() +
                    " exists and is not a directory";
            }
            if (t instanceof AccessDeniedException denied)
            {
                return "cannot use data directory " + dir + ": permission denied on " + denied.getFile();
            }
            if (t instanceof FileSystemException fs)
            {
                return "cannot use data directory " + dir + ": " + fs.getFile() +
                    (fs.getReason() != null ? ": " + fs.getReason() : "");
            }
        }
        return "cannot start: " + plain(failure);
    }

    /** "cannot listen for RESP on host:port: " when the failure was binding a port, else empty. */
    private static String listening(final Throwable failure)
    {
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            final String message = t.getMessage();
            if (message != null && message.startsWith("cannot listen for "))
            {
                final int end = message.indexOf(": ");
                return (end < 0 ? message : message.substring(0, end)) + ": ";
            }
        }
        return "";
    }

    /** The innermost message that is not just another exception's toString. */
    private static String plain(final Throwable failure)
    {
        Throwable deepest = failure;
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            if (t.getMessage() != null && (t.getCause() == null || !t.getMessage().equals(t.getCause().toString())))
            {
                deepest = t;
            }
        }
        final String message = deepest.getMessage() != null ? deepest.getMessage() :
            "unexpected " + deepest.getClass().getSimpleName();
        return message.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }
}
