package io.ddf.persistence.testing;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a class's {@code main} in a JVM of its own, with this JVM's module flags (Chronicle's --add-opens and
 * --add-exports) and class path, standard input from /dev/null and standard error inherited: the tests that kill a
 * process holding a filter file, or that need a second process to hold its lock.
 */
public final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * @param main the class whose {@code main} runs.
     * @param args its arguments.
     * @return the started process (its standard output a pipe).
     * @throws IOException when it cannot be started.
     */
    public static Process start(final Class<?> main, final String... args) throws IOException
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
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }
}
