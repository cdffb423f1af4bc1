package io.ddf.ingest.security;

import io.ddf.ingest.log.OneLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where {@code ddf serve}'s password comes from: a file ({@code --requirepass-file}), the environment
 * ({@value #ENV}), or the command line ({@code --requirepass}, which every local user can read in the process list,
 * so it is accepted with a warning). At most one of them.
 */
public final class PasswordSource
{
    /** The environment variable holding the password. */
    static final String ENV = "DDF_REQUIREPASS";

    private PasswordSource()
    {
    }

    /**
     * @param commandLine --requirepass, or null.
     * @param file        --requirepass-file, or null.
     * @param env         the environment.
     * @param warn        told when the password came from the command line.
     * @return the password, or null for none.
     * @throws IllegalArgumentException when more than one source is given, the file cannot be read or the
     *                                  password is empty.
     */
    public static String resolve(final String commandLine, final Path file, final Map<String, String> env,
        final java.util.function.Consumer<String> warn)
    {
        final String fromEnv = env.get(ENV);
        final int sources = (commandLine != null ? 1 : 0) + (file != null ? 1 : 0) + (fromEnv != null ? 1 : 0);
        if (sources > 1)
        {
            throw new IllegalArgumentException("give the password one way only: --requirepass, --requirepass-file " +
                "or " + ENV);
        }
        final String password;
        if (file != null)
        {
            password = read(file);
        }
        else if (fromEnv != null)
        {
            password = fromEnv;
        }
        else
        {
            password = commandLine;
            if (password != null)
            {
                warn.accept("ddf: warning: --requirepass is visible to every local user in the process list; " +
                    "use --requirepass-file FILE or the " + ENV + " environment variable");
            }
        }
        if (password != null && password.isEmpty())
        {
            throw new IllegalArgumentException("the password is empty");
        }
        return password;
    }

    private static String read(final Path file)
    {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("--requirepass-file " + file + " is not a regular file");
        }
        try
        {
            final String text = Files.readString(file, StandardCharsets.UTF_8);
            // a file written by echo ends with a newline that is not part of the password
            return text.endsWith("\r\n") ? text.substring(0, text.length() - 2) :
                text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        }
        catch (final IOException e)
        {
            throw new IllegalArgumentException("cannot read --requirepass-file " + file + ": " +
                OneLine.of(e), e);
        }
    }
}
