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
        final Map<String, String> info = FilterInfo.describe(path);
        final PrintWriter out = spec.commandLine().getOut();
        for (final Map.Entry<String, String> e : info.entrySet())
        {
            out.print(e.getKey());
            out.print(": ");
            out.print(e.getValue());
            out.print('\n');
        }
        out.flush();
        return 0;
    }
}
