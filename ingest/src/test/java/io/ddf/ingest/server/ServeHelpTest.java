package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ddf serve --help}'s description against the daemon it describes: both protocols, every BF.* and CF.*
 * command the command table serves (so that a command added later without the help saying so fails here), and
 * COMMAND DOCS for the rest.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServeHelpTest
{
    @TempDir
    Path dir;

    @Test
    void descriptionNamesBothProtocolsEveryBloomAndCuckooCommandAndCommandDocs() throws IOException
    {
        final String help = new CommandLine(new ServeCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF)
            .replaceAll("\\s+", " ");
        assertTrue(help.contains("RESP2") && help.contains("RESP3"), help);
        assertTrue(help.contains("COMMAND DOCS"), help);
        try (TestServer server = new TestServer(dir.resolve("data"), c -> { }); RespClient c = server.client())
        {
            for (final Object name : (List<?>)c.call("COMMAND", "LIST"))
            {
                final String command = String.valueOf(name).toUpperCase(Locale.ROOT);
                if (command.startsWith("BF.") || command.startsWith("CF."))
                {
                    final Matcher family = Pattern.compile(Pattern.quote(command.substring(0, 3)) +
                        " ?\\* commands [^(]*\\(([^)]*)\\)").matcher(help);
                    assertTrue(family.find(), "no list of " + command.substring(0, 3) + "* commands: " + help);
                    assertTrue(List.of(family.group(1).split(", ")).contains(command.substring(3)),
                        command + " is served but serve --help does not name it: " + family.group(1));
                }
            }
            // where the help sends the reader: HELLO's summary there must not deny the RESP3 the help promises
            final String hello = String.valueOf(c.call("COMMAND", "DOCS", "hello"));
            assertTrue(hello.contains("protocol 2 or 3"), hello);
        }
    }
}
