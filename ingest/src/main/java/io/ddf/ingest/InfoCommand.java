package io.ddf.ingest;

import io.ddf.engine.FilterInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code ddf info}: a filter file's kind, parameters and counters, read without changing the file. */
@Command(name = "info", mixinStandardHelpOptions = true,
    description = "Print a filter file's kind, parameters and counters, one 'key: value' per line.")
public final class InfoCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PATH", description = "The filter file.")
    private Path path;

    /** @return exit status 0. */
    @Override
    public Integer call()
    {
        print(FilterInfo.describe(path), spec.commandLine().getOut());
        return 0;
    }

    /**
     * Prints one {@code key: value} per line, with {@code \n} line ends whatever the platform.
     *
     * @param entries what to print, in order.
     * @param out     where.
     */
    static void print(final Map<String, String> entries, final PrintWriter out)
    {
        for (final Map.Entry<String, String> e : entries.entrySet())
        {
            out.print(e.getKey());
            out.print(": ");
            out.print(e.getValue());
            out.print('\n');
        }
        out.flush();
    }
}
