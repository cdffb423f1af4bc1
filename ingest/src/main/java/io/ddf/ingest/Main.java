package io.ddf.ingest;

import io.ddf.ingest.server.ServeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** The {@code ddf} command: subcommands {@code pipe}, {@code info}, {@code verify}, {@code serve}, {@code tune} and {@code migrate}. */
@Command(name = "ddf", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Off-heap, memory-mapped duplicate detection for streams.",
    subcommands = {PipeCommand.class, InfoCommand.class, VerifyCommand.class, ServeCommand.class, TuneCommand.class,
        io.ddf.ingest.migrate.MigrateCommand.class})
public final class Main
{
    /** Usage help width in columns. */
    private static final int HELP_WIDTH = 100;
    /** Room for the longest option and its label before the description starts. */
    private static final int LONG_OPTIONS_WIDTH = 30;

    /**
     * Runs ddf with the process's standard streams and exits with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        // ddf is the application here: other Chronicle libraries that may share a class path print a banner and send
        // analytics unless told not to (Chronicle Bytes itself does neither); a value on the command line wins. The
        // engine sets no system property: an embedding application decides (docs/embedding.md, "Logging").
        for (final String quiet : new String[] {"chronicle.announcer.disable", "chronicle.analytics.disable"})
        {
            if (System.getProperty(quiet) == null)
            {
                System.setProperty(quiet, "true");
            }
        }
        final int status = run(
            new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out), System.err, args);
        System.exit(status);
    }

    /**
     * Runs ddf in this process.
     *
     * @param in   standard input.
     * @param out  standard output.
     * @param err  standard error.
     * @param args the command line.
     * @return the exit status: 0 success, 1 failure while running, 2 bad usage or bad file.
     */
    public static int run(final InputStream in, final OutputStream out, final OutputStream err, final String... args)
    {
        return commandLine(in, out, err).execute(args);
    }

    /**
     * @param in  standard input.
     * @param out standard output.
     * @param err standard error.
     * @return the configured command line, ready to {@code execute}.
     */
    public static CommandLine commandLine(final InputStream in, final OutputStream out, final OutputStream err)
    {
        final ErrorHandling errors = new ErrorHandling();
        final CommandLine commandLine = new CommandLine(new Main(), new CommandFactory(in, out));
        commandLine.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        commandLine.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        commandLine.setParameterExceptionHandler(errors);
        commandLine.setExecutionExceptionHandler(errors);
        commandLine.setUsageHelpWidth(HELP_WIDTH);
        commandLine.setUsageHelpLongOptionsMaxWidth(LONG_OPTIONS_WIDTH);
        for (final CommandLine sub : commandLine.getSubcommands().values())
        {
            if (sub.getCommand() instanceof UsesFilterOptions)
            {
                FilterOptions.addKindOptions(sub.getCommandSpec(), ((UsesFilterOptions)sub.getCommand()).filterOptions());
                sub.getCommandSpec().usageMessage().footer(FilterOptions.kindsFooter().toArray(new String[0]));
            }
        }
        return commandLine;
    }
}
