package io.ddf.ingest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Runs ddf in this process with in-memory standard streams. */
final class Cli
{
    private Cli()
    {
    }

    /**
     * @param stdin what standard input holds.
     * @param args  the command line.
     * @return exit status and what was written.
     */
    static Result run(final byte[] stdin, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = Main.run(new ByteArrayInputStream(stdin), out, err, args);
        return new Result(status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * @param stdin standard input, as UTF-8 text.
     * @param args  the command line.
     * @return exit status and what was written.
     */
    static Result run(final String stdin, final String... args)
    {
        return run(stdin.getBytes(StandardCharsets.UTF_8), args);
    }

    /**
     * @param status exit status.
     * @param stdout bytes written to standard output.
     * @param stderr text written to standard error.
     */
    record Result(int status, byte[] stdout, String stderr)
    {
        /** @return standard output as UTF-8 text. */
        String out()
        {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        /** @return standard output split into lines (no trailing empty line). */
        List<String> outLines()
        {
            final String text = out();
            return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n", -1)).subList(0, lines(text));
        }

        /** @return standard error split into lines. */
        List<String> errLines()
        {
            return stderr.isEmpty() ? List.of() : Arrays.asList(stderr.split("\n", -1)).subList(0, lines(stderr));
        }

        private static int lines(final String text)
        {
            final int n = text.split("\n", -1).length;
            return text.endsWith("\n") ? n - 1 : n;
        }

        @Override
        public String toString()
        {
            return "status " + status + ", stderr: " + stderr;
        }
    }
}
