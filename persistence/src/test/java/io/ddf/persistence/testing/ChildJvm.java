package io.ddf.persistence.testing;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A second JVM running one of the tests' probes (a main class on the test class path), with this JVM's
 * {@code --add-opens}/{@code --add-exports} (Chronicle needs them): what another process sees or does.
 */
public final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * @param main the class whose {@code main} to run.
     * @param args its arguments.
     * @return the command line.
     */
    public static List<String> command(final Class<?> main, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports"))
            {
                command.add(arg);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Starts the probe with no standard input and this JVM's standard error; its standard output is the caller's to
     * read.
     *
     * @param main the class whose {@code main} to run.
     * @param args its arguments.
     * @return the process.
     * @throws IOException when it cannot start.
     */
    public static Process start(final Class<?> main, final String... args) throws IOException
    {
        return new ProcessBuilder(command(main, args))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    }
}
