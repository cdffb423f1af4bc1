package io.ddf.ingest;

import io.ddf.engine.FilterInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ddf verify}: checks a filter file without opening it for writing (no lock, not a byte changed): the
 * header, then the table checksum of a cleanly closed file or the table's structure of any other.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = {"Check a filter file without opening it for writing: its header, then the checksum of its table " +
        "and state when it was closed cleanly, or the structure of its counters and table when it was not.",
        "Prints one 'key: value' per line and exits 0 when the file is sound; names the file and what is wrong on " +
        "stderr and exits 2 when it is not."})
public final class VerifyCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PATH", description = "The filter file.")
    private Path path;

    /** @return exit status 0; a bad file throws, which {@link ErrorHandling} turns into status 2. */
    @Override
    public Integer call()
    {
        InfoCommand.print(FilterInfo.verify(path), spec.commandLine().getOut());
        return 0;
    }
}
