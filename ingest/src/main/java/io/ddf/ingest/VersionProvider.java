package io.ddf.ingest;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Reads the version Maven wrote into {@code version.properties} at build time. */
public final class VersionProvider implements IVersionProvider
{
    /** @return one line, {@code ddf <version>}. */
    @Override
    public String[] getVersion() throws IOException
    {
        final Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties"))
        {
            if (in != null)
            {
                properties.load(in);
            }
        }
        return new String[] {"ddf " + properties.getProperty("version", "(unknown version)")};
    }
}
