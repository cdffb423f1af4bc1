package io.ddf.ingest;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** The one list of JVM flags, jvm-flags.properties, as the build passes its path to the tests. */
final class JvmFlags
{
    private JvmFlags()
    {
    }

    /** @return the file's path. */
    static Path file()
    {
        return Path.of(System.getProperty("ddf.flags.file", "../jvm-flags.properties"));
    }

    /** @return its two properties: the manifest forms. */
    static Properties list() throws IOException
    {
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file(), StandardCharsets.UTF_8))
        {
            properties.load(in);
        }
        return properties;
    }

    /** @return the command-line form, exports then opens, as README tells embedders. */
    static List<String> commandLine() throws IOException
    {
        final Properties properties = list();
        final List<String> flags = new ArrayList<>();
        for (final String kind : List.of("exports", "opens"))
        {
            for (final String target : properties.getProperty("ddf.add." + kind).trim().split("\\s+"))
            {
                flags.add("--add-" + kind + "=" + target + "=ALL-UNNAMED");
            }
        }
        return flags;
    }
}
